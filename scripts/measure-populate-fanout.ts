/**
 * Measures the fan-out of nested to-many populates (REST) and unpaginated relation lists (GraphQL)
 * on a tiny database: one author with B books. Not a test: prints rows, bytes, time and memory.
 *   npx tsx scripts/measure-populate-fanout.ts [B ...]        (default 25 50 100)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveConfig } from '../server/config.js';
import { startServer } from '../server/index.js';
import { collection, writeProject } from '../test/helpers/project.js';

const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
const author = collection('author', 'authors', { name: { type: 'string' }, books: { type: 'relation', relation: 'oneToMany', target: 'api::book.book', mappedBy: 'author' } });
const book = collection('book', 'books', { title: { type: 'string' }, author: { type: 'relation', relation: 'manyToOne', target: 'api::author.author', inversedBy: 'books' } });

/** Entities in a JSON answer: objects with a documentId. */
const entities = (v: unknown): number => (Array.isArray(v) ? v.reduce((n: number, x) => n + entities(x), 0) : typeof v === 'object' && v !== null ? (('documentId' in v) ? 1 : 0) + Object.values(v).reduce((n: number, x) => n + entities(x), 0) : 0);

for (const b of sizes.length > 0 ? sizes : [25, 50, 100]) {
  const dataDir = await mkdtemp(join(tmpdir(), 'hearth-fanout-'));
  const schemas = await writeProject({ types: { author, book } });
  const config = resolveConfig({ data: dataDir, schemas, port: '0', host: '127.0.0.1', acceptSchemaChanges: false }, { ...process.env, HEARTH_READ_THREADS: '1' });
  const server = await startServer({ config, log: () => undefined });
  const { accessKey } = await server.services.tokens.create({ name: 'fanout', type: 'full-access', permissions: [] });
  const call = async (path: string, init: RequestInit = {}) => {
    const started = performance.now();
    const res = await fetch(`${server.url}${path}`, { ...init, headers: { authorization: `Bearer ${accessKey}`, 'content-type': 'application/json', ...init.headers } });
    const text = await res.text();
    return { status: res.status, text, ms: Math.round(performance.now() - started) };
  };
  const writer = JSON.parse((await call('/api/authors', { method: 'POST', body: JSON.stringify({ data: { name: 'W' } }) })).text) as { data: { documentId: string } };
  for (let i = 0; i < b; i += 1) await call('/api/books', { method: 'POST', body: JSON.stringify({ data: { title: `B${i}`, author: writer.data.documentId } }) });
  const nest = (levels: number): string => Array.from({ length: levels }, (_, i) => `[populate][${i % 2 === 0 ? 'author' : 'books'}]`).join('').replace(/^\[populate\]/, 'populate');
  for (const levels of [2, 3, 4, 5]) {
    const path = `/api/books?pagination[pageSize]=100&${nest(levels)}=true`;
    const rssBefore = process.memoryUsage().rss;
    const r = await call(path);
    const rows = r.status === 200 ? entities(JSON.parse(r.text)) : 0;
    console.log(`REST  B=${b} relation levels=${levels} (populate depth ${levels * 2 - 1}): ${r.status} ${rows} entities, ${(r.text.length / 1e6).toFixed(1)} MB, ${r.ms} ms, rss +${Math.round((process.memoryUsage().rss - rssBefore) / 1e6)} MB${r.status === 200 ? '' : ` ${r.text.slice(0, 160)}`}`);
  }
  const q = await call('/graphql', { method: 'POST', body: JSON.stringify({ query: '{ authors { books { title } } }' }) });
  const answer = JSON.parse(q.text) as { data: { authors: Array<{ books: unknown[] }> } };
  console.log(`GraphQL B=${b} authors { books } without pagination: ${answer.data.authors[0]?.books.length ?? 0} books under the author (the cost estimate counts the default limit, 25)`);
  await server.close();
  await rm(dataDir, { recursive: true, force: true });
  await rm(schemas, { recursive: true, force: true });
}
