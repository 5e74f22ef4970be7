import fc from 'fast-check';

/**
 * Hostile request bodies for content-API writes, built as JSON *text* so they can carry what a
 * JavaScript object cannot: own `__proto__` keys, duplicate keys, numbers beyond a double.
 */

/** Keys found inside components, relations, media and blocks values. */
const NESTED_KEYS = [
  'metaTitle', 'metaDescription', 'text', 'author', 'body', '__component', 'id', 'documentId', 'locale', 'connect', 'disconnect', 'set',
  'position', 'before', 'after', 'start', 'end', 'status', 'type', 'children', 'level', 'format', 'url', 'bold', 'code',
];
/** Keys the document service treats specially, or that no schema has. */
const SPECIAL_KEYS = [
  'id', 'documentId', 'locale', 'localizations', 'publishedAt', 'createdAt', 'updatedAt', 'createdBy', 'updatedBy', '__component', '__temp_key__',
  'data', 'attributes', 'unknown',
];
const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty'];
const STRINGS = [
  '', 'x', 'Åland', 'draft', 'en', 'fr', 'alpha', 'beta', 'shared.quote', 'shared.seo', 'shared.rich-text', 'shared.nope', 'api::tag.tag',
  'paragraph', 'text', 'heading', '2024-02-30', '2024-01-01T00:00:00.000Z', '25:61:00', '12:00', 'not-an-email', 'a@b.co', '9007199254740993',
  '-9223372036854775809', '1e309', 'NaN', 'true', 'null', "' OR 1=1 --", '"; DROP TABLE articles; --', '\u0000', '\ud800', '🦊'.repeat(50), 'x'.repeat(3000),
];
/** Number literals JSON.parse reads as Infinity, -0 or beyond 2^53. */
const NUMBER_TEXTS = ['1e400', '-1e400', '-0', '0.1e-400', '12345678901234567890123', '9007199254740993', '-9223372036854775809', '1.5', '3', '0', '-1', '101'];

/** A key: mostly the target's own attributes, else special, nested, prototype or random ones. */
const keyOf = (attributes: readonly string[], nested: boolean) =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...(nested ? NESTED_KEYS : attributes)) },
    { weight: 2, arbitrary: fc.constantFrom(...(nested ? attributes : NESTED_KEYS)) },
    { weight: 1, arbitrary: fc.constantFrom(...SPECIAL_KEYS) },
    { weight: 1, arbitrary: fc.constantFrom(...PROTOTYPE_KEYS) },
    { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
  );

const leafText = fc.oneof(
  fc.constantFrom(...STRINGS).map((s) => JSON.stringify(s)),
  fc.constantFrom(...NUMBER_TEXTS),
  fc.integer().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => JSON.stringify(n)),
  fc.constantFrom('true', 'false', 'null'),
  fc.string({ maxLength: 10 }).map((s) => JSON.stringify(s)),
);

const objectText = (entries: readonly (readonly [string, string])[]) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`;

/** A reference to a document: an existing or made-up documentId, a number, an object with options. */
const refText = (ids: readonly string[]) =>
  fc.oneof(
    fc.constantFrom(...ids, 'nope', '').map((id) => JSON.stringify(id)),
    fc.constantFrom('1', '0', '-1', '99999', '1.5', '"2"'),
    fc.tuple(fc.constantFrom(...ids, 'nope'), fc.constantFrom('', ',"locale":"fr"', ',"locale":"xx"', ',"status":"draft"', ',"position":{"end":true}', `,"position":{"before":"${ids[0] ?? 'x'}"}`, ',"position":{"after":"nope"}', ',"position":"start"'))
      .map(([id, extra]) => `{"documentId":${JSON.stringify(id)}${extra}}`),
  );

/** Random JSON text: leaves, arrays, objects with schema-ish and hostile keys, relation and component shapes. */
function valueTextOf(attributes: readonly string[], ids: readonly string[]): fc.Arbitrary<string> {
  const refs = fc.array(refText(ids), { maxLength: 3 }).map((r) => `[${r.join(',')}]`);
  const relation = fc
    .array(fc.tuple(fc.constantFrom('connect', 'disconnect', 'set'), fc.oneof(refs, refText(ids))), { minLength: 1, maxLength: 3 })
    .map((entries) => objectText(entries));
  return fc.letrec<{ value: string; entry: readonly [string, string] }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      { weight: 4, arbitrary: leafText },
      { weight: 1, arbitrary: refs },
      { weight: 1, arbitrary: relation },
      { weight: 1, arbitrary: fc.array(tie('value'), { maxLength: 4 }).map((vs) => `[${vs.join(',')}]`) },
      { weight: 2, arbitrary: fc.array(tie('entry'), { maxLength: 5 }).map(objectText) },
    ),
    entry: fc.tuple(keyOf(attributes, true), tie('value')),
  })).value;
}

/** `{ data: ... }` with a data object most of the time (the path that reaches validation and the writers). */
function dataBodyOf(attributes: readonly string[], ids: readonly string[]): fc.Arbitrary<string> {
  const value = valueTextOf(attributes, ids);
  const entries = fc.uniqueArray(fc.tuple(keyOf(attributes, false), value), { maxLength: 5, selector: ([k]) => k });
  return fc
    .tuple(entries, fc.array(fc.tuple(keyOf(attributes, false), value), { maxLength: 1 }), fc.integer({ min: 0, max: 9 }))
    .map(([data, extra, shape]) => objectText([['data', shape === 0 ? `[${data.map(([, v]) => v).join(',')}]` : objectText(data)], ...extra]));
}

/** Text that is not JSON: truncated, corrupted, or not JSON at all. */
const malformedOf = (dataBody: fc.Arbitrary<string>) =>
  fc.oneof(
    dataBody.chain((t) => fc.nat({ max: Math.max(0, t.length - 1) }).map((n) => t.slice(0, n))),
    dataBody.chain((t) => fc.tuple(fc.nat({ max: t.length }), fc.constantFrom('{', '}', ',', ':', '"', "'", '\\', 'NaN', 'undefined', '\u0000')).map(([i, c]) => `${t.slice(0, i)}${c}${t.slice(i)}`)),
    fc.constantFrom('', ' ', '{', '{"data":', '{data:{}}', "{'data':{}}", '{"data":{}} trailing', '[1,]', '"\\ud800"', '\ufeff{"data":{}}', 'null', '0'),
  );

/** A body and the content type it is sent with. */
export interface HostileBody {
  readonly contentType: string | null;
  readonly text: string;
}

const JSON_TYPES = ['application/json', 'application/json; charset=utf-8', 'Application/JSON', 'application/vnd.api+json', 'application/json; charset=latin1'];
const OTHER_TYPES = ['text/plain', 'application/xml', 'multipart/form-data; boundary=x', 'multipart/form-data', 'application/octet-stream', 'text/json', '*/*', ';', ''];

/** A form-encoded body: qs reads it into (null-prototype) objects, like a query string. */
const formBodyOf = (attributes: readonly string[]) =>
  fc
    .array(fc.tuple(fc.tuple(keyOf(attributes, false), fc.array(keyOf(attributes, true), { maxLength: 3 })), fc.constantFrom(...STRINGS)), { maxLength: 6 })
    .map((ps) => ps.map(([[head, rest], v]) => `data${[head, ...rest].map((k) => `[${encodeURIComponent(k.replace(/[\ud800-\udfff]/g, ''))}]`).join('')}=${encodeURIComponent(v.replace(/[\ud800-\udfff]/g, ''))}`).join('&'));

/**
 * A hostile write body for a type with these attributes (and these existing documentIds to refer
 * to): mostly JSON writes, then random JSON, broken JSON, form bodies and other content types.
 */
export function hostileBody(attributes: readonly string[], ids: readonly string[]): fc.Arbitrary<HostileBody> {
  const dataBody = dataBodyOf(attributes, ids);
  const malformed = malformedOf(dataBody);
  const json = (text: fc.Arbitrary<string>) => fc.tuple(fc.constantFrom(...JSON_TYPES), text).map(([contentType, t]) => ({ contentType, text: t }));
  return fc.oneof(
    { weight: 10, arbitrary: json(dataBody) },
    { weight: 1, arbitrary: json(valueTextOf(attributes, ids)) },
    { weight: 2, arbitrary: json(malformed) },
    { weight: 3, arbitrary: formBodyOf(attributes).map((text) => ({ contentType: 'application/x-www-form-urlencoded', text })) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom<string | null>(...OTHER_TYPES, null), fc.oneof(dataBody, malformed)).map(([contentType, text]) => ({ contentType, text })) },
  );
}
