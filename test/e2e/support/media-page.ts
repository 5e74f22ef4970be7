import type { Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { AppNav } from './auth-pages.js';
import { visible } from './wait.js';

/**
 * A PNG of a soft two-colour gradient, stored without compression: the file is about
 * width*height*3 bytes (big enough for upload progress to be seen), yet it looks calm in
 * screenshots and keeps them small.
 */
export async function gradientPng(width: number, height: number, from: readonly [number, number, number], to: readonly [number, number, number]): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const t = (x / width + y / height) / 2;
      for (let c = 0; c < 3; c++) raw[(y * width + x) * 3 + c] = Math.round((from[c] ?? 0) + ((to[c] ?? 0) - (from[c] ?? 0)) * t);
    }
  }
  return sharp(raw, { raw: { width, height, channels: 3 } }).png({ compressionLevel: 0 }).toBuffer();
}

/** Records, in the page, every value each upload progress bar shows (read with `progressSeen`). */
export const RECORD_PROGRESS = `(() => {
  const seen = {};
  window.__hearthProgress = seen;
  const read = () => {
    for (const bar of document.querySelectorAll('progress.upload-bar')) {
      const name = bar.getAttribute('aria-label') ?? '';
      const value = Number(bar.getAttribute('aria-valuenow'));
      const list = seen[name] ?? (seen[name] = []);
      if (list[list.length - 1] !== value) list.push(value);
    }
  };
  new MutationObserver(read).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-valuenow'] });
})()`;

/** Every value each progress bar went through, by its label. */
export async function progressSeen(page: Page): Promise<Record<string, number[]>> {
  const seen: unknown = await page.evaluate('window.__hearthProgress ?? {}');
  const out: Record<string, number[]> = {};
  if (typeof seen === 'object' && seen !== null) {
    for (const [name, values] of Object.entries(seen)) out[name] = Array.isArray(values) ? values.map(Number) : [];
  }
  return out;
}

/** The media library screen. */
export class MediaPage {
  constructor(private readonly page: Page) {}

  /** Opens the library from the navigation. */
  async open(): Promise<void> {
    await new AppNav(this.page).go('Media library');
    await visible(this.page.getByRole('heading', { level: 1, name: 'Media library' }));
  }

  /** Chooses files with the file input (several at once). */
  async choose(files: { name: string; mimeType: string; buffer: Buffer }[], scope: Locator | Page = this.page): Promise<void> {
    await scope.getByLabel('Files to upload').setInputFiles(files);
  }

  /** Drops one file on the drop zone, as a drag from the desktop would. */
  async drop(name: string, mimeType: string, text: string): Promise<void> {
    const transfer = await this.page.evaluateHandle(
      `(() => { const t = new DataTransfer(); t.items.add(new File([${JSON.stringify(text)}], ${JSON.stringify(name)}, { type: ${JSON.stringify(mimeType)} })); return t; })()`,
    );
    await this.page.getByTestId('drop-zone').first().dispatchEvent('drop', { dataTransfer: transfer });
  }

  /** The names on the file cards, in order. */
  async names(): Promise<string[]> {
    return this.page.getByTestId('file-card').locator('.file-name').allInnerTexts();
  }

  /** Opens a file's details. */
  async openFile(name: string): Promise<Locator> {
    await this.page.getByRole('button', { name: `Open ${name}` }).click();
    const dialog = this.page.getByRole('dialog', { name });
    await visible(dialog);
    return dialog;
  }

  /** Opens a folder. */
  async openFolder(name: string): Promise<void> {
    await this.page.getByRole('list', { name: 'Folders' }).getByRole('button', { name: new RegExp(`^${name}`) }).click();
    await visible(this.page.getByRole('navigation', { name: 'Folder path' }).getByText(name));
  }
}
