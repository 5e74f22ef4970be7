import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createDeflate, crc32 } from 'node:zlib';

/**
 * A decompression bomb: a single-colour 8-bit RGB PNG whose rows are generated as they are deflated
 * (only the compressed bytes are held). 16000x16000 pixels (768 MB decoded) take under 1 MB on disk. Every row after the
 * first uses PNG's "Up" filter, so the deflated stream is zeros. Shared by the tests and the bench.
 */
export async function writePngBomb(path: string, width: number, height: number): Promise<number> {
  // Returns the file's size in bytes.
  const chunk = (type: string, data: Buffer): Buffer => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8 bits per sample, RGB, deflate, adaptive filtering, no interlace

  const first = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x++) first.set([200, 30, 30], 1 + x * 3);
  const up = Buffer.alloc(1 + width * 3);
  up[0] = 2;
  const rowsPerPiece = Math.max(1, Math.floor((4 * 1024 * 1024) / up.length));
  const piece = Buffer.concat(Array.from({ length: rowsPerPiece }, () => up));
  async function* rows() {
    yield first;
    for (let left = height - 1; left > 0; left -= rowsPerPiece) yield left >= rowsPerPiece ? piece : piece.subarray(0, left * up.length);
  }
  const deflated: Buffer[] = [];
  await pipeline(Readable.from(rows()), createDeflate({ level: 9 }), async (source: AsyncIterable<Buffer>) => {
    for await (const c of source) deflated.push(c);
  });
  const png = [
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', Buffer.concat(deflated)),
    chunk('IEND', Buffer.alloc(0)),
  ];
  await pipeline(Readable.from(png), createWriteStream(path));
  return png.reduce((n, b) => n + b.length, 0);
}
