// Renders resources/icon.svg to the PNGs electron-builder packages (it derives .icns and .ico from
// the 512 px one). Run after editing the SVG: tsx scripts/render-icons.ts; commit the outputs.
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import sharp from 'sharp';

/** The sizes rendered: 512 for macOS and Windows, both for Linux's icon set. */
export const ICON_SIZES = [512, 256] as const;

/** Where each PNG goes: `icon.png` (512) for macOS/Windows, `icons/<n>x<n>.png` for Linux. */
export function iconOutputs(resources: string): { readonly size: number; readonly file: string }[] {
  return [{ size: 512, file: join(resources, 'icon.png') }, ...ICON_SIZES.map((size) => ({ size, file: join(resources, 'icons', `${size}x${size}.png`) }))];
}

/** Renders the SVG at each size (density scaled so the vector is rasterised sharp, not upscaled). */
export async function renderIcons(resources: string): Promise<void> {
  const svg = join(resources, 'icon.svg');
  await mkdir(join(resources, 'icons'), { recursive: true });
  for (const { size, file } of iconOutputs(resources)) {
    await sharp(svg, { density: (72 * size) / 512 }).resize(size, size).png({ compressionLevel: 9 }).toFile(file);
  }
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  await renderIcons(resolve(import.meta.dirname, '..', 'resources'));
}
