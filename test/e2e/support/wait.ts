import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

/** How long `eventually` polls before failing. */
const POLL_TIMEOUT_MS = 20_000;

/** Polls `read` until the assertion that follows passes (vitest's expect.poll with an e2e timeout). */
export function eventually<T>(read: () => Promise<T> | T) {
  return expect.poll(read, { timeout: POLL_TIMEOUT_MS, interval: 100 });
}

/** Waits until the locator is visible and returns it. */
export async function visible(locator: Locator): Promise<Locator> {
  await locator.first().waitFor({ state: 'visible' });
  return locator;
}

/** The little of the DOM these helpers touch (the e2e tests compile without the DOM library). */
interface DomNode {
  readonly ownerDocument: { readonly activeElement: unknown; readonly defaultView: { getComputedStyle(el: unknown): { readonly outlineStyle: string } } | null };
  contains(other: unknown): boolean;
}

/** True when the element is the document's focused element. */
export function isFocused(locator: Locator): Promise<boolean> {
  return locator.evaluate((el: DomNode) => el === el.ownerDocument.activeElement);
}

/** True when the focused element is inside this one (a dialog keeping focus). */
export function holdsFocus(locator: Locator): Promise<boolean> {
  return locator.evaluate((el: DomNode) => el.contains(el.ownerDocument.activeElement));
}

/** The computed outline style of an element (a visible focus ring is `solid`). */
export function outlineStyle(locator: Locator): Promise<string> {
  return locator.evaluate((el: DomNode) => el.ownerDocument.defaultView?.getComputedStyle(el).outlineStyle ?? '');
}

/** Presses Tab (or Shift+Tab) until `target` has focus; fails after `max` presses. */
export async function tabTo(page: Page, target: Locator, options: { back?: boolean; max?: number } = {}): Promise<number> {
  const key = options.back ? 'Shift+Tab' : 'Tab';
  for (let presses = 1; presses <= (options.max ?? 60); presses++) {
    await page.keyboard.press(key);
    if (await isFocused(target)) return presses;
  }
  throw new Error(`Focus never reached ${target.toString()}`);
}

/** A short description of the focused element (tag, id, accessible label), for assertions and messages. */
export function focusedLabel(page: Page): Promise<string> {
  return page.evaluate(
    "(() => { const el = document.activeElement; if (!el) return ''; return [el.tagName.toLowerCase(), el.id, el.getAttribute('aria-label') ?? '', (el.textContent ?? '').trim().slice(0, 40)].join('|'); })()",
  );
}

/** Dismisses every notification on screen, so a later wait for one cannot be satisfied by an old one. */
export async function dismissToasts(page: Page): Promise<void> {
  const dismiss = page.getByRole('button', { name: 'Dismiss notification' });
  // One at a time from the top: the list shifts as each goes (and a toast may also leave on its own).
  while ((await dismiss.count()) > 0) await dismiss.first().click({ timeout: 1000 }).catch(() => undefined);
}

/**
 * Clicks until `done` holds. Right after a mouse drag, dnd-kit swallows clicks on the document for a
 * moment (so the drop is not taken for a click); this retries on the outcome instead of sleeping.
 */
export async function clickUntil(target: Locator, done: () => Promise<boolean>): Promise<void> {
  await eventually(async () => {
    if (!(await done())) await target.click();
    return done();
  }).toBe(true);
}
