import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isRecord } from '../../server/errors/is-record.js';
import { IdMap, normalize } from '../helpers/normalize.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { seedGraphqlState } from './seed.js';

/**
 * Replays the GraphQL transcripts recorded against Strapi 5.54 with @strapi/plugin-graphql
 * (`test/fixtures/strapi/graphql/transcripts`), in order, on the content they were recorded on
 * (seed.ts): status and body must match, with documentIds, file hashes and timestamps normalised
 * and Apollo's development-only `extensions.stacktrace` left out (Hearth never sends a stack).
 */
const DIR = resolve(import.meta.dirname, '../fixtures/strapi/graphql/transcripts');

interface Recorded {
  readonly name: string;
  readonly request: { method: string; path: string; headers: Record<string, string>; query?: string; variables: unknown; rawBody?: string };
  readonly response: { status: number; body: unknown };
}

/**
 * Transcripts not replayed yet, by cause: the to-do list of the next slice (each one removed must
 * pass). Mutations are replayed in file order, interleaved with the queries, as they were recorded.
 */
const NOT_YET: Record<string, string> = {
};

/**
 * Where Hearth answers differently on purpose (README): the recorded body is adjusted to Hearth's
 * answer before the comparison, and only there.
 */
const DEVIATIONS: Record<string, (body: Raw, actual: unknown) => Raw> = {
  // An `or` inside one field's filter works (Strapi: INTERNAL_SERVER_ERROR "Undefined attribute level operator $or").
  '009': () => ({ data: { a: [{ title: 'Second Post', views: 3 }, { title: 'Another Story', views: 50 }], b: [{ title: 'Hello World' }, { title: 'Second Post' }] } }),
  '151': () => ({ data: { articles: [] } }),
  // UploadFile.related answers the entries linking each file, every version as REST's populate=related lists them
  // (Strapi: INTERNAL_SERVER_ERROR "Missing schema in validateQuery" for each file, related null).
  '048': () => {
    const article = (title: string) => ({ __typename: 'Article', title });
    const art1 = [article('Bonjour le monde'), article('Hello World'), article('Bonjour le monde'), article('Hello World')];
    const home = { __typename: 'Homepage', headline: 'Welcome' };
    return {
      data: {
        uploadFiles: [
          { name: 'blue.jpg', related: [...art1, home, home] },
          { name: 'notes.txt', related: [{ __typename: 'Specimen', s_string: 'abc' }, ...art1] },
          { name: 'red-400x300.png', related: art1 },
        ],
      },
    };
  },
  // A password attribute is never returned (Strapi returns the bcrypt hash); biginteger keeps its precision on SQLite.
  '052': (body) => patch(body, { s_password: null, s_bigint: '9007199254740993' }),
  '055': (body) => patch(body, { s_bigint: '9007199254740993' }),
  '143': (body) => patch(body, { s_bigint: '123456789012345678' }),
  // A write to a locale that is not configured is refused (Strapi creates it: strapi#27108), here by I18NLocaleCode as a query's locale (029).
  '126': () => ({
    errors: [{
      message: 'Expected value of type "I18NLocaleCode", found "de"; Unknown locale supplied',
      locations: [{ line: 1, column: 34 }],
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
    }],
  }),
  // deleteArticle(locale: "fr") (103) deletes the fr version only (Strapi deletes the default-locale one and keeps fr), so the
  // en "GraphQL Updated" (category Tech, seo "GQL", published by 093) is still listed.
  // `b` sorts by documentId, and Hearth's are random: the recorded ones are ordered by Hearth's. Literal DZ's (086 did not
  // answer it) is the one Hearth id left over.
  '137': (body, actual) => {
    const data = body.data as { a: Raw[]; b: Array<{ documentId: string }> };
    const recordedIds = [...data.b.map((d) => d.documentId), String(recordedIdOf('083'))];
    const answered = ((isRecord(actual) && isRecord(actual.data) ? actual.data.b : []) as Array<{ documentId: string }>).map((d) => d.documentId);
    const unknown = recordedIds.filter((id) => ids.actualFor(id) === undefined);
    const left = answered.filter((id) => !recordedIds.some((r) => ids.actualFor(r) === id));
    if (unknown.length === 1 && left.length === 1) ids.learn({ documentId: unknown[0] }, { documentId: left[0] });
    const key = (id: string) => ids.actualFor(id) ?? id;
    const b = recordedIds.sort((x, y) => (key(x) < key(y) ? -1 : key(x) > key(y) ? 1 : 0)).map((documentId) => ({ documentId }));
    return { data: { a: [{ title: 'GraphQL Updated' }, ...data.a], b } };
  },
  '138': (body) => {
    const articles = (body.data as { articles: Raw[] }).articles;
    return { data: { articles: [...articles.slice(0, -1), { title: 'GraphQL Updated' }, ...articles.slice(-1)] } };
  },
  '139': (body) => {
    const tech = (depth: number): Raw[] => Array.from({ length: 3 }, () => ({ category: depth === 0 ? { name: 'Tech' } : { articles: tech(depth - 1) } }));
    const [, life, empty] = (body.data as { categories: Raw[] }).categories;
    return { data: { categories: [{ articles: tech(2) }, life, empty] } };
  },
};

/** The status Hearth answers where it differs on purpose (the body is in DEVIATIONS). */
const DEVIATED_STATUS: Record<string, number> = { '126': 400 };

type Raw = Record<string, unknown>;

/** The body with every occurrence of these keys set to these values. */
function patch(value: Raw, values: Raw): Raw {
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (!isRecord(v)) return v;
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, k in values ? values[k] : walk(x)]));
  };
  return walk(value) as Raw;
}

const all = readdirSync(DIR).filter((f) => /^\d{3}-.*\.json$/.test(f)).sort();
const recorded = all.map((file) => ({ file, t: JSON.parse(readFileSync(join(DIR, file), 'utf8')) as Recorded }));
/** The documentId a mutation's recorded answer made (`data.<root>.documentId`). */
function recordedIdOf(number: string): unknown {
  const found = recorded.find(({ file }) => file.startsWith(number));
  const data = found && isRecord(found.t.response.body) ? found.t.response.body.data : undefined;
  const root = isRecord(data) ? Object.values(data)[0] : undefined;
  return isRecord(root) ? root.documentId : undefined;
}
const replayed = recorded.filter(({ file }) => NOT_YET[file.slice(0, 3)] === undefined);

/** JWTs as the recordings mask them (`<JWT>`). */
function maskJwts(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskJwts);
  if (!isRecord(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === 'jwt' && typeof v === 'string' ? '<JWT>' : maskJwts(v)]));
}

/** Alice's JWT from register (113): the `<USER_JWT>` later transcripts send (117, 120, 121). */
function learnUserJwt(actual: unknown): void {
  const register = isRecord(actual) && isRecord(actual.data) ? actual.data.register : undefined;
  if (isRecord(register) && typeof register.jwt === 'string') tokens['<USER_JWT>'] = register.jwt;
}

/** Apollo's stack trace (development) is not part of Hearth's answer. */
function withoutStack(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutStack);
  if (!isRecord(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([k]) => k !== 'stacktrace').map(([k, v]) => [k, withoutStack(v)]));
}

let server: TestServer;
/** 148-154 were recorded with NODE_ENV=production: a second server, started so. */
let production: TestServer;
const tokens: Record<string, string> = {};
const productionTokens: Record<string, string> = {};
const ids = new IdMap();

beforeAll(async () => {
  server = await startTestServer();
  tokens['<FULL_ACCESS_TOKEN>'] = await server.token('full-access');
  tokens['<READ_ONLY_TOKEN>'] = await server.token('read-only');
  await server.server.services.permissions.grant('public', ['api::tag.tag.find', 'api::tag.tag.findOne']);
  await server.server.services.locales.add({ code: 'fr' });
  const state = JSON.parse(readFileSync(join(DIR, 'state.json'), 'utf8')) as Record<string, string | number>;
  await seedGraphqlState(server, tokens['<FULL_ACCESS_TOKEN>'] ?? '', ids, state);
  production = await startTestServer({ env: { NODE_ENV: 'production' } });
  productionTokens['<FULL_ACCESS_TOKEN>'] = await production.token('full-access');
}, 60_000);

afterAll(async () => {
  await server?.close();
  await production?.close();
});

const PRODUCTION_FROM = 148;

async function send(t: Recorded, prod: boolean): Promise<Response> {
  const { url } = prod ? production : server;
  const known = prod ? productionTokens : tokens;
  const headers = new Headers();
  for (const [name, value] of Object.entries(t.request.headers)) {
    headers.set(name, name.toLowerCase() === 'authorization' ? value.replace(/<[A-Z_]+>/, (m) => known[m] ?? m) : value);
  }
  if (t.request.method === 'GET') return fetch(`${url}${ids.apply(t.request.path)}`, { headers });
  const body = t.request.rawBody ?? JSON.stringify({ query: t.request.query, ...(t.request.variables ? { variables: t.request.variables } : {}) });
  return fetch(`${url}${t.request.path}`, { method: t.request.method, headers, body: ids.apply(body) });
}

describe('Strapi GraphQL transcripts', () => {
  for (const { file, t } of replayed) {
    it(file.replace(/\.json$/, ''), async () => {
      const res = await send(t, Number(file.slice(0, 3)) >= PRODUCTION_FROM);
      const answer: unknown = await res.json();
      learnUserJwt(answer);
      const actual: unknown = maskJwts(withoutStack(answer));
      const number = file.slice(0, 3);
      const deviation = DEVIATIONS[number];
      const expected = withoutStack(deviation ? deviation(t.response.body as Raw, actual) : t.response.body);
      ids.learn(expected, actual);
      expect({ status: res.status, body: normalize(actual, ids) }).toEqual({ status: DEVIATED_STATUS[number] ?? t.response.status, body: normalize(expected, ids) });
    });
  }
});
