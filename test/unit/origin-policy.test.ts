import { describe, expect, it } from 'vitest';
import { originPolicy } from '../../server/http/guards.js';

/** The content API's origin policy (issue 15, credentialed CORS), as a table: config, request headers -> CORS headers and cookie use. */
const SITE = 'http://localhost:5173';
const PUBLIC = 'https://cms.example';
const req = (headers: Record<string, string>) => ({ headers: { host: '127.0.0.1:1337', ...headers } });
const credentialed = (origin: string) => [
  ['Access-Control-Allow-Origin', origin],
  ['Access-Control-Allow-Credentials', 'true'],
  ['Access-Control-Expose-Headers', 'Hearth-Notice'],
  ['Vary', 'Origin'],
];
const open = (origin: string) => [
  ['Access-Control-Allow-Origin', origin],
  ['Access-Control-Expose-Headers', 'Hearth-Notice'],
  ['Vary', 'Origin'],
];

describe('originPolicy', () => {
  const scenarios: [string, { corsOrigins: string[] | null; publicUrl: string | null }, Record<string, string>, unknown[], boolean][] = [
    ['no Origin, no list: nothing', { corsOrigins: null, publicUrl: null }, {}, [], true],
    ['no Origin, a list: Vary only', { corsOrigins: [SITE], publicUrl: null }, {}, [['Vary', 'Origin']], true],
    ['another origin, no list: open without credentials', { corsOrigins: null, publicUrl: null }, { origin: SITE }, open(SITE), false],
    ['a listed origin: credentials', { corsOrigins: [SITE], publicUrl: null }, { origin: SITE }, credentialed(SITE), true],
    ['an unlisted origin with a list: Vary only', { corsOrigins: [SITE], publicUrl: null }, { origin: 'http://localhost:3000' }, [['Vary', 'Origin']], false],
    ["the server's own origin (its Host): credentials", { corsOrigins: null, publicUrl: null }, { origin: 'http://127.0.0.1:1337' }, credentialed('http://127.0.0.1:1337'), true],
    ['the HEARTH_PUBLIC_URL origin: credentials', { corsOrigins: null, publicUrl: `${PUBLIC}/` }, { origin: PUBLIC }, credentialed(PUBLIC), true],
    ['the HEARTH_PUBLIC_URL origin, not listed: still credentials', { corsOrigins: [SITE], publicUrl: PUBLIC }, { origin: PUBLIC }, credentialed(PUBLIC), true],
    ['a malformed Origin: open without credentials', { corsOrigins: null, publicUrl: null }, { origin: 'null' }, open('null'), false],
  ];

  it.each(scenarios)('%s', (_name, config, headers, expected, allowsCredentials) => {
    const policy = originPolicy(config);
    expect(policy.headers(req(headers))).toEqual(expected);
    expect(policy.allowsCredentials(req(headers))).toBe(allowsCredentials);
  });
});
