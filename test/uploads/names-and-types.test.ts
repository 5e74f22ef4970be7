import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseNameOf, extensionOf, generateHash, rerollHash, slugifyName } from '../../server/uploads/file-names.js';
import { sniffFile } from '../../server/uploads/sniff.js';
import { fixture } from './helpers.js';

/** Stored names and sniffed types: tables of input -> output. */

describe('stored names', () => {
  it.each([
    ['red-400x300', 'red_400x300'],
    ['blue-64x48', 'blue_64x48'],
    ['Blue Box', 'Blue_Box'],
    ['fileName', 'file_Name'],
    ['IMG_1234', 'IMG_1234'],
    ['Crème brûlée & café', 'Creme_brulee_and_cafe'],
    ['Straße Øre', 'Strasse_Ore'],
    ['../../etc/passwd', 'etc_passwd'],
    ['a/b\\c:d*e?f"g<h>i|j', 'a_b_c_d_e_f_g_h_i_j'],
    ['日本語', 'file'],
    ['___', 'file'],
  ])('%j slugs to %j', (name, slug) => {
    expect(slugifyName(name)).toBe(slug);
  });

  it('caps the slug so stored names fit any file system', () => {
    expect(slugifyName('x'.repeat(400)).length).toBe(180);
  });

  it('adds 10 random hex digits', () => {
    expect(generateHash('red-400x300')).toMatch(/^red_400x300_[0-9a-f]{10}$/);
    expect(generateHash('a')).not.toBe(generateHash('a'));
    const again = rerollHash('red_400x300_0123456789');
    expect(again).toMatch(/^red_400x300_[0-9a-f]{10}$/);
    expect(again).not.toBe('red_400x300_0123456789');
  });

  it.each([
    ['photo.png', '.png', 'photo'],
    ['archive.tar.gz', '.gz', 'archive.tar'],
    ['.env', '', '.env'],
    ['noext', '', 'noext'],
  ])('%j has extension %j and base name %j', (name, ext, base) => {
    expect(extensionOf(name)).toBe(ext);
    expect(baseNameOf(name, ext)).toBe(base);
  });
});

describe('sniffed types', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hearth-sniff-'));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function sniff(bytes: Uint8Array, clientExt: string) {
    const path = join(dir, randomBytes(6).toString('hex'));
    await writeFile(path, bytes);
    return sniffFile(path, bytes.length, clientExt);
  }

  it.each([
    ['a PNG named .png', fixture('red-400x300.png'), '.png', { mime: 'image/png', ext: '.png' }],
    ['a PNG named .PNG keeps the case', fixture('red-400x300.png'), '.PNG', { mime: 'image/png', ext: '.PNG' }],
    ['a PNG named .html', fixture('red-400x300.png'), '.html', { mime: 'image/png', ext: '.png' }],
    ['a JPEG named .jpeg', fixture('blue-64x48.jpg'), '.jpeg', { mime: 'image/jpeg', ext: '.jpeg' }],
    ['a JPEG named .png', fixture('blue-64x48.jpg'), '.png', { mime: 'image/jpeg', ext: '.jpg' }],
    ['text named .txt', Buffer.from('hello'), '.txt', { mime: 'text/plain', ext: '.txt' }],
    ['text named .csv', Buffer.from('a,b\n1,2\n'), '.csv', { mime: 'text/csv', ext: '.csv' }],
    ['text named .json', Buffer.from('{"a":1}'), '.json', { mime: 'application/json', ext: '.json' }],
    ['text named .js', Buffer.from('alert(1)'), '.js', { mime: 'text/plain', ext: '.txt' }],
    ['text without a name extension', Buffer.from('hello'), '', { mime: 'text/plain', ext: '.txt' }],
    ['an empty file', Buffer.alloc(0), '.txt', { mime: 'text/plain', ext: '.txt' }],
    ['XML data', Buffer.from('<?xml version="1.0"?><feed><entry/></feed>'), '.xml', { mime: 'application/xml', ext: '.xml' }],
    ['unknown binary named .dat', Buffer.from([0, 1, 2, 200, 255]), '.dat', { mime: 'application/octet-stream', ext: '.dat' }],
    ['unknown binary named .html', Buffer.from([0, 1, 2, 200, 255]), '.html', { mime: 'application/octet-stream', ext: '.bin' }],
    ['unknown binary named .pdf', Buffer.from([0, 1, 2, 200, 255]), '.pdf', { mime: 'application/octet-stream', ext: '.bin' }],
    ['random bytes named .pdf', randomBytes(4096), '.pdf', { mime: 'application/octet-stream', ext: '.bin' }],
    ['unknown binary named .psd (an image type by name)', Buffer.from([0, 1, 2, 200, 255]), '.psd', { mime: 'application/octet-stream', ext: '.bin' }],
    ['unknown binary named .bin', Buffer.from([0, 1, 2, 200, 255]), '.bin', { mime: 'application/octet-stream', ext: '.bin' }],
    ['UTF-8 with a control byte named .txt', Buffer.from('hello\x01world'), '.txt', { mime: 'application/octet-stream', ext: '.bin' }],
    ['UTF-8 with a control byte named .pdf', Buffer.from('report\x02'), '.pdf', { mime: 'application/octet-stream', ext: '.bin' }],
    ['text with tabs, escapes and CRLF named .log', Buffer.from('a\tb\x1b[0m\r\n'), '.log', { mime: 'text/plain', ext: '.log' }],
    ['text named .pdf', Buffer.from('hello'), '.pdf', { mime: 'text/plain', ext: '.txt' }],
    ['text named .yml gets the type it is served with', Buffer.from('a: 1\n'), '.yml', { mime: 'text/yaml', ext: '.yml' }],
  ])('%s', async (_what, bytes, clientExt, expected) => {
    expect(await sniff(bytes, clientExt)).toEqual(expected);
  });

  it.each([
    ['SVG', fixture('evil.svg'), 'image/svg+xml'],
    ['SVG after an XML prolog and comment', Buffer.from('<?xml version="1.0"?>\n<!-- c -->\n<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/svg+xml'],
    ['SVG with a namespace prefix', Buffer.from('<svg:svg xmlns:svg="http://www.w3.org/2000/svg"/>'), 'image/svg+xml'],
    ['HTML by doctype', Buffer.from('<!doctype html><p>x'), 'text/html'],
    ['HTML by root element', Buffer.from('\uFEFF  <html><body>x</body></html>'), 'text/html'],
    ['a script', Buffer.from('<script>alert(1)</script>'), 'text/html'],
  ])('refuses %s with Strapi message', async (_what, bytes, mime) => {
    await expect(sniff(bytes, '.txt')).rejects.toMatchObject({ status: 400, name: 'ValidationError', message: `File type '${mime}' is not allowed` });
  });
});
