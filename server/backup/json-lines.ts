import { once } from 'node:events';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';

/** The lines of a UTF-8 file; a line longer than `maxBytes` is an error rather than a memory blow-up. */
export async function* linesOf(file: string, maxBytes: number): AsyncGenerator<string> {
  let parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of createReadStream(file)) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    let start = 0;
    for (let at = buffer.indexOf(0x0a); at !== -1; at = buffer.indexOf(0x0a, start)) {
      if (size + at - start > maxBytes) throw new Error(`a line of ${file} is longer than ${maxBytes} bytes`);
      parts.push(buffer.subarray(start, at));
      yield Buffer.concat(parts).toString('utf8');
      parts = [];
      size = 0;
      start = at + 1;
    }
    size += buffer.length - start;
    if (size > maxBytes) throw new Error(`a line of ${file} is longer than ${maxBytes} bytes`);
    if (start < buffer.length) parts.push(buffer.subarray(start));
  }
  if (size > 0) yield Buffer.concat(parts).toString('utf8');
}

/** A file written line by line with back-pressure; resolves `end()` once the bytes are on disk. */
export function lineWriter(file: string): { write(line: string): Promise<void>; end(): Promise<void> } {
  const out: WriteStream = createWriteStream(file, { flags: 'wx' });
  const failed = once(out, 'error').then(([err]: unknown[]) => Promise.reject(err));
  failed.catch(() => {});
  return {
    async write(line) {
      if (!out.write(`${line}\n`)) await Promise.race([once(out, 'drain'), failed]);
    },
    async end() {
      out.end();
      await Promise.race([once(out, 'close'), failed]);
    },
  };
}
