import { randomBytes } from 'node:crypto';
import { applicationError } from '../errors/app-error.js';
import { MAX_FILE_SLUG_LENGTH } from '../limits.js';

/**
 * Stored names of media files. A client's file name only ever contributes a slug of ASCII letters,
 * digits and underscores (`red_400x300`), followed by 10 random hex digits, so nothing a client
 * sends can reach the file system as a path.
 */

/** Letters that NFKD does not decompose into an ASCII base letter plus accents. */
const LETTER_REPLACEMENTS: Readonly<Record<string, string>> = {
  ß: 'ss', æ: 'ae', Æ: 'AE', ø: 'o', Ø: 'O', œ: 'oe', Œ: 'OE', đ: 'd', Đ: 'D', ł: 'l', Ł: 'L', þ: 'th', Þ: 'TH', ð: 'd', Ð: 'D',
};
/** @sindresorhus/slugify's default replacements, which Strapi's nameToSlug inherits. */
const WORD_REPLACEMENTS: readonly (readonly [string, string])[] = [
  ['&', ' and '],
  ['🦄', ' unicorn '],
  ['♥', ' love '],
];

/** Splits camelCase and ACRONYMWords the way @sindresorhus/slugify's decamelize step does. */
function decamelize(text: string): string {
  return text
    .replace(/([A-Z]{2,})(\d+)/g, '$1 $2')
    .replace(/([a-z\d]+)([A-Z]{2,})/g, '$1 $2')
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-rt-z\d]+)/g, '$1 $2');
}

/**
 * Strapi's `nameToSlug(name, { separator: '_', lowercase: false })`: transliterated, camelCase split,
 * every run of other characters one `_`. Names with nothing sluggable become `file`.
 */
export function slugifyName(name: string): string {
  let text = name;
  for (const [from, to] of WORD_REPLACEMENTS) text = text.split(from).join(to);
  text = [...text.normalize('NFKD')].map((c) => LETTER_REPLACEMENTS[c] ?? c).join('');
  text = text.replace(/[\u0300-\u036f]/g, '');
  const slug = decamelize(text)
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, MAX_FILE_SLUG_LENGTH)
    .replace(/_+$/, '');
  return slug === '' ? 'file' : slug;
}

const randomSuffix = () => randomBytes(5).toString('hex');

/** A new stored base name: `<slug>_<10 random hex digits>`, as Strapi's generateFileName. */
export function generateHash(baseName: string): string {
  return `${slugifyName(baseName)}_${randomSuffix()}`;
}

/** The same slug with fresh random digits (when the drawn name is already taken). */
export function rerollHash(hash: string): string {
  return hash.replace(/_[0-9a-f]{10}$/, '') + `_${randomSuffix()}`;
}

/** The extension of a client file name (`.png`), or '' when it has none, as path.extname does. */
export function extensionOf(fileName: string): string {
  const base = fileName.slice(fileName.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? '' : base.slice(dot);
}

/** `name` without `ext` at its end, as path.basename(name, ext) (the hash is built from it). */
export function baseNameOf(name: string, ext: string): string {
  const base = name.slice(name.lastIndexOf('/') + 1);
  return ext !== '' && base.endsWith(ext) && base !== ext ? base.slice(0, -ext.length) : base;
}

// Strapi's copy of sindresorhus/valid-filename.
const RESERVED_CHARACTERS = /[<>:"/\\|?*\u0000-\u001F]/;
const WINDOWS_RESERVED_NAME = /^(con|prn|aux|nul|com\d|lpt\d)$/i;

/** Strapi refuses client file names a file system could not hold: 400 `File name contains invalid characters`. */
export function checkFileName(fileName: string): void {
  const valid =
    fileName !== '' &&
    fileName.length <= 255 &&
    !RESERVED_CHARACTERS.test(fileName) &&
    !WINDOWS_RESERVED_NAME.test(fileName) &&
    fileName !== '.' &&
    fileName !== '..';
  if (!valid) throw applicationError('File name contains invalid characters');
}

/** Strapi's `bytesToKbytes`: kilobytes (1000 bytes), two decimals. */
export const bytesToKilobytes = (bytes: number): number => Math.round((bytes / 1000) * 100) / 100;
