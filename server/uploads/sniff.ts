import { open } from 'node:fs/promises';
import { validationError } from '../errors/app-error.js';
import { TEXT_SNIFF_BYTES } from '../limits.js';
import { servedTypeOf } from './storage-provider.js';

/**
 * What a file is, decided from its bytes and never from the client's claim: binary formats by
 * their signature (the `file-type` package), text by being valid UTF-8, SVG and HTML by their root
 * element. The stored extension must agree with that type, because `/uploads/<name>` is served
 * with the type its extension implies: a PNG named `x.html` is stored as `.png`.
 */
export interface Sniffed {
  readonly mime: string;
  /** The extension to store, with its dot (`.png`). */
  readonly ext: string;
}

/**
 * Types that would run script in the browser if served from Hearth's origin. SVG is refused by
 * Strapi itself (transcript 130); the others are Hearth's additions for the same reason.
 */
const DENIED_TYPES = new Set(['image/svg+xml', 'text/html', 'application/xhtml+xml', 'text/javascript', 'application/javascript']);

/** Extensions a browser treats as active content, never kept from a client's file name. */
const ACTIVE_EXTENSIONS = new Set([
  'html', 'htm', 'shtml', 'xhtml', 'xht', 'svg', 'svgz', 'js', 'mjs', 'cjs', 'xml', 'xsl', 'xslt', 'hta', 'mht', 'mhtml', 'swf',
]);

/** Extensions accepted for a detected binary type besides the one file-type reports. */
const BINARY_ALIASES: Readonly<Record<string, readonly string[]>> = {
  jpg: ['jpeg', 'jpe', 'jfif'],
  tif: ['tiff'],
  mpg: ['mpeg'],
  mov: ['qt'],
  mid: ['midi'],
  ogg: ['oga', 'ogv', 'ogx'],
  heic: ['heif'],
  gz: ['tgz'],
};

/**
 * Extensions kept for text; the type stored is the one `/uploads` serves them with (servedTypeOf),
 * so the stored `mime` and the served Content-Type agree. Other text is text/plain with `.txt`.
 */
const TEXT_EXTENSIONS = new Set(['txt', 'text', 'log', 'csv', 'tsv', 'md', 'markdown', 'json', 'yaml', 'yml', 'ics', 'vtt', 'srt', 'css', 'rtf', 'ini', 'conf', 'toml', 'sql']);

const OCTET_STREAM = 'application/octet-stream';
const PLAIN_EXT = /^\.[A-Za-z0-9]{1,16}$/;

/** Strapi's message for a refused type (transcript 130). */
export const deniedType = (mime: string) => validationError(`File type '${mime}' is not allowed`);

async function readHead(path: string): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(TEXT_SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, TEXT_SNIFF_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * Control bytes that text never holds (file(1)'s rule: NUL, C0 controls other than BEL, BS, TAB,
 * LF, VT, FF, CR and ESC, and DEL). One of them makes a file binary even when it decodes as UTF-8.
 */
const BINARY_BYTES = new Uint8Array(256);
for (const b of [0, 1, 2, 3, 4, 5, 6, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 28, 29, 30, 31, 127]) BINARY_BYTES[b] = 1;

/** Valid UTF-8 without binary control bytes (a multi-byte character cut at the end of the window is fine). */
function isText(head: Buffer, complete: boolean): boolean {
  for (const byte of head) if (BINARY_BYTES[byte] === 1) return false;
  const decoder = new TextDecoder('utf-8', { fatal: true });
  for (let cut = 0; cut <= (complete ? 0 : 3); cut++) {
    try {
      decoder.decode(head.subarray(0, head.length - cut));
      return true;
    } catch {
      // try again without a possibly cut trailing character
    }
  }
  return false;
}

const HTML_ROOTS = new Set(['html', 'head', 'body', 'script', 'iframe', 'frameset', 'object', 'embed']);

/** The markup type of a text, from its first element after the prolog; null for other text. */
function markupType(text: string): string | null {
  let rest = text.replace(/^\uFEFF/, '');
  for (;;) {
    rest = rest.trimStart();
    const prolog = /^(<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!doctype[^>]*>)/i.exec(rest);
    if (!prolog) break;
    if (/^<!doctype\s+html/i.test(prolog[0])) return 'text/html';
    if (/^<!doctype\s+svg/i.test(prolog[0])) return 'image/svg+xml';
    rest = rest.slice(prolog[0].length);
  }
  const root = /^<([A-Za-z][\w:.-]*)/.exec(rest)?.[1]?.toLowerCase();
  if (root === undefined) return text.trimStart().startsWith('<?xml') ? 'application/xml' : null;
  const local = root.includes(':') ? root.slice(root.indexOf(':') + 1) : root;
  if (local === 'svg') return 'image/svg+xml';
  if (HTML_ROOTS.has(local)) return /xmlns\s*=\s*["']http:\/\/www\.w3\.org\/1999\/xhtml/.test(rest) ? 'application/xhtml+xml' : 'text/html';
  return /^\s*<\?xml/.test(text.replace(/^\uFEFF/, '')) ? 'application/xml' : null;
}

function keptExtension(clientExt: string, allowed: (bare: string) => boolean): string | null {
  if (!PLAIN_EXT.test(clientExt)) return null;
  const bare = clientExt.slice(1).toLowerCase();
  return allowed(bare) ? clientExt : null;
}

/** Sniffs a received file; denied types are a 400 ValidationError, as Strapi answers SVG. */
export async function sniffFile(path: string, size: number, clientExt: string): Promise<Sniffed> {
  // file-type is loaded by the first upload, not when the server starts.
  const { fileTypeFromFile } = await import('file-type');
  const detected = await fileTypeFromFile(path);
  const head = await readHead(path);
  if (detected && detected.mime !== 'application/xml') {
    if (DENIED_TYPES.has(detected.mime)) throw deniedType(detected.mime);
    const names = [detected.ext, ...(BINARY_ALIASES[detected.ext] ?? [])];
    return { mime: detected.mime, ext: keptExtension(clientExt, (bare) => names.includes(bare)) ?? `.${detected.ext}` };
  }
  if (isText(head, head.length >= size)) {
    const text = head.toString('utf8');
    const markup = markupType(text) ?? (detected ? 'application/xml' : null);
    if (markup && DENIED_TYPES.has(markup)) throw deniedType(markup);
    if (markup === 'application/xml') return { mime: markup, ext: keptExtension(clientExt, (bare) => bare === 'xml') ?? '.xml' };
    const known = keptExtension(clientExt, (bare) => TEXT_EXTENSIONS.has(bare));
    if (known) return { mime: servedTypeOf(known), ext: known };
    return { mime: 'text/plain', ext: '.txt' };
  }
  // Unrecognised bytes: a name never makes them a PDF or an image. The client's extension stays
  // only when it implies no type of its own (`.dat`), so they are served as an attachment.
  const opaque = (bare: string) => !ACTIVE_EXTENSIONS.has(bare) && servedTypeOf(`.${bare}`) === OCTET_STREAM;
  return { mime: OCTET_STREAM, ext: keptExtension(clientExt, opaque) ?? '.bin' };
}
