import type { Page } from 'playwright-core';

/**
 * Controls on the page that have no accessible name: inputs, selects and textareas without a label,
 * aria-label or aria-labelledby; buttons and links without text or aria-label. Returns their outer
 * HTML (shortened), so a failure says which one.
 */
export async function unlabelledControls(page: Page): Promise<string[]> {
  const found: unknown = await page.evaluate(`(() => {
    const named = (el) => (el.getAttribute('aria-label') ?? '').trim() !== '' || (el.getAttribute('aria-labelledby') ?? '') !== '' || (el.getAttribute('title') ?? '') !== '';
    const out = [];
    for (const el of document.querySelectorAll('input:not([type=hidden]), select, textarea')) {
      if ((el.labels?.length ?? 0) === 0 && !named(el)) out.push(el.outerHTML.slice(0, 160));
    }
    for (const el of document.querySelectorAll('button, a[href], [role=button], [role=textbox], [role=combobox]')) {
      if ((el.textContent ?? '').trim() === '' && !named(el)) out.push(el.outerHTML.slice(0, 160));
    }
    return out;
  })()`);
  return Array.isArray(found) ? found.map(String) : [];
}
