import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { createPortal } from 'react-dom';

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"]), [contenteditable="true"]';

/** Props of a modal dialog. */
export interface DialogProps {
  readonly title: string;
  readonly onClose: () => void;
  readonly children: ReactNode;
  readonly footer?: ReactNode;
  readonly size?: 'small' | 'medium' | 'large';
  readonly description?: string;
}

/** A modal dialog: native `<dialog>` in a portal (the page behind is inert), Tab kept inside, Escape closes, focus restored on close. */
export function Dialog({ title, onClose, children, footer, size = 'medium', description }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descId = useId();
  const close = useRef(onClose);
  close.current = onClose;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    const inBody = FOCUSABLE.split(', ').map((s) => `.dialog-body ${s}`).join(', ');
    const first = dialog.querySelector<HTMLElement>('[data-autofocus]') ?? dialog.querySelector<HTMLElement>(inBody) ?? dialog.querySelector<HTMLElement>(FOCUSABLE);
    first?.focus();
    const onCancel = (event: Event) => {
      event.preventDefault();
      close.current();
    };
    dialog.addEventListener('cancel', onCancel);
    return () => {
      dialog.removeEventListener('cancel', onCancel);
      if (dialog.open) dialog.close();
      if (opener && opener.isConnected) opener.focus();
    };
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      close.current();
      return;
    }
    if (event.key !== 'Tab' || !ref.current) return;
    const items = Array.from(ref.current.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((el) => el.offsetParent !== null || el === document.activeElement);
    const first = items[0];
    const last = items[items.length - 1];
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  // In a portal, so a dialog opened from inside a form (the edit form) is not part of that form:
  // Enter in its fields cannot submit the form behind it. React still bubbles events through
  // portals, so submits stop here too.
  return createPortal(
    <dialog
      ref={ref}
      className={`dialog dialog-${size}`}
      aria-labelledby={titleId}
      aria-describedby={description ? descId : undefined}
      onKeyDown={onKeyDown}
      onSubmit={(e) => e.stopPropagation()}
    >
      <header className="dialog-header">
        <h2 id={titleId}>{title}</h2>
        <button type="button" className="btn btn-ghost btn-icon" aria-label="Close dialog" onClick={() => close.current()}>
          <span aria-hidden="true">×</span>
        </button>
      </header>
      {description ? (
        <p id={descId} className="dialog-description">
          {description}
        </p>
      ) : null}
      <div className="dialog-body">{children}</div>
      {footer ? <footer className="dialog-footer">{footer}</footer> : null}
    </dialog>,
    document.body,
  );
}

/** A dialog's usual footer: Cancel, then the action that submits the dialog's form. */
export function FormDialogFooter({ form, submitLabel, disabled, onCancel }: { readonly form: string; readonly submitLabel: string; readonly disabled: boolean; readonly onCancel: () => void }) {
  return (
    <>
      <button type="button" className="btn" onClick={onCancel}>
        Cancel
      </button>
      <button type="submit" form={form} className="btn btn-primary" disabled={disabled}>
        {submitLabel}
      </button>
    </>
  );
}
