/** Controls a field may hold, most telling first: the one marked invalid, then any editable control, then a button. */
const CONTROLS = ['[aria-invalid="true"]', 'input:not([type="hidden"]):not([disabled]), select:not([disabled]), textarea:not([disabled]), [contenteditable="true"]', 'button:not([disabled])'];

/** Focuses the control of the first field showing an error, in the edit form's order; false when there is none. */
export function focusFirstInvalid(root: ParentNode = document): boolean {
  const field = root.querySelector('.edit-form .field-invalid');
  if (!field) return false;
  for (const selector of CONTROLS) {
    const control = field.querySelector<HTMLElement>(selector);
    if (control) {
      control.focus();
      control.scrollIntoView({ block: 'center' });
      return true;
    }
  }
  return false;
}
