import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';

/**
 * The tar `strapi export` writes (tar-stream's ustar headers): plain files only, mode 000644,
 * owner 0/0 with empty names, one mtime, no directory entries, two zero blocks at the end and
 * no padding to a record size. Written here byte for byte rather than through a tar library whose
 * headers differ (node-tar's portable mode leaves uid and gid empty).
 */

const BLOCK = 512;

/** `width` octal digits followed by `tail`, as tar-stream encodes numeric fields. */
const octal = (value: number, width: number, tail: string): string => `${value.toString(8).padStart(width, '0')}${tail}`;

/** Splits a path over ustar's name (100) and prefix (155) fields; longer paths are refused. */
function nameFields(path: string): { name: string; prefix: string } {
  if (Buffer.byteLength(path) <= 100) return { name: path, prefix: '' };
  for (let at = path.indexOf('/'); at !== -1; at = path.indexOf('/', at + 1)) {
    const prefix = path.slice(0, at);
    const name = path.slice(at + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(name) <= 100) return { name, prefix };
  }
  throw new Error(`${path} is too long for a tar member name`);
}

/** One ustar header block. */
function ustarHeader(path: string, size: number, mtime: Date): Buffer {
  const block = Buffer.alloc(BLOCK);
  const { name, prefix } = nameFields(path);
  block.write(name, 0, 100, 'utf8');
  block.write(octal(0o644, 6, ' \0'), 100, 'latin1');
  block.write(octal(0, 6, ' \0'), 108, 'latin1');
  block.write(octal(0, 6, ' \0'), 116, 'latin1');
  block.write(octal(size, 11, ' '), 124, 'latin1');
  block.write(octal(Math.floor(mtime.getTime() / 1000), 11, ' '), 136, 'latin1');
  block.write('0', 156, 'latin1');
  block.write('ustar\u000000', 257, 'latin1');
  block.write(octal(0, 6, ' \0'), 329, 'latin1');
  block.write(octal(0, 6, ' \0'), 337, 'latin1');
  block.write(prefix, 345, 155, 'utf8');
  let sum = 8 * 0x20;
  for (let i = 0; i < BLOCK; i++) if (i < 148 || i >= 156) sum += block[i] ?? 0;
  block.write(octal(sum, 6, ' \0'), 148, 'latin1');
  return block;
}

/** The tar of `members` (paths relative to `dir`), in the order given. */
export function tarStream(dir: string, members: readonly string[], mtime: Date): Readable {
  return Readable.from(
    (async function* () {
      for (const member of members) {
        const file = join(dir, member);
        const { size } = await stat(file);
        yield ustarHeader(member, size, mtime);
        let written = 0;
        for await (const chunk of createReadStream(file)) {
          const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
          written += buffer.length;
          yield buffer;
        }
        if (written !== size) throw new Error(`${member} changed while it was packed`);
        if (size % BLOCK !== 0) yield Buffer.alloc(BLOCK - (size % BLOCK));
      }
      yield Buffer.alloc(2 * BLOCK);
    })(),
    { objectMode: false },
  );
}
