import fc from 'fast-check';

/**
 * Hostile query strings: structured ones built from bracket paths (so they reach deep into
 * filters, populate, sort and pagination), raw token soup (so they hit the parser), and
 * pathological shapes (deep nesting, huge arrays, parameter floods).
 */

/** Attribute names of the fixture project's types and components, system fields, and the file model's. */
const ATTRIBUTES = [
  'title', 'slug', 'body', 'summary', 'views', 'rating', 'featured', 'publishDate', 'cover', 'gallery', 'category', 'tags', 'seo', 'blocks',
  'name', 'articles', 'label', 'headline', 'hero', 's_string', 's_int', 's_bigint', 's_float', 's_decimal', 's_bool', 's_date', 's_time',
  's_datetime', 's_timestamp', 's_json', 's_comp', 's_media', 's_password', 's_private', 's_enum', 's_blocks', 'metaTitle', 'metaDescription',
  'text', 'author', 'id', 'documentId', 'createdAt', 'updatedAt', 'publishedAt', 'locale', 'localizations', 'createdBy', 'updatedBy',
  'alternativeText', 'caption', 'width', 'height', 'formats', 'hash', 'ext', 'mime', 'size', 'url', 'provider', 'folder', 'folderPath', 'related',
];

const OPERATORS = [
  '$eq', '$eqi', '$ne', '$nei', '$lt', '$lte', '$gt', '$gte', '$in', '$notIn', '$contains', '$notContains', '$containsi', '$notContainsi',
  '$null', '$notNull', '$between', '$startsWith', '$startsWithi', '$endsWith', '$endsWithi', '$not', '$and', '$or', '$jsonSupersetOf',
];
const UNKNOWN_OPERATORS = ['$where', '$regex', '$exists', '$raw', '$', '$$', '$EQ', '$in ', '$like', '$func', '$expr', '$size'];
const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', '__defineGetter__', 'isPrototypeOf'];
const ROOT_KEYS = [
  'filters', 'sort', 'fields', 'populate', 'status', 'locale', 'page', 'pageSize', 'start', 'limit', '_q', 'publicationFilter',
  'hasPublishedVersion', 'pagination', 'count', 'ordering', 'id', 'folder', 'unknown', '',
];
const STRUCTURE_KEYS = ['populate', 'fields', 'filters', 'sort', 'on', 'count', 'page', 'pageSize', 'start', 'limit', 'withCount', '*', 'shared.seo', 'shared.quote', 'shared.rich-text', 'plugin::upload.file'];
const INDICES = ['0', '1', '2', '', '99', '100', '101', '1000', '99999999', '-1', '1.5', '0x1'];

/** Values: plausible ones, wrong types, SQL fragments, extreme numbers, odd text. */
const VALUES = [
  'title', 'title:desc', 'views:asc', 'name:DESC', 'id:sideways', 'asc', 'desc', '*', 'true', 'false', 't', 'f', '1', '0', '-1', '2', '25', '100',
  '101', 'draft', 'published', 'en', 'fr', 'zz-ZZ', 'all', 'never-published', 'modified', 'has-published-version-document',
  "' OR 1=1 --", '"; DROP TABLE articles; --', '1; DELETE FROM hearth_files', "') UNION SELECT * FROM hearth_api_tokens --", '%', '_', '\\',
  '1e309', '-1e309', '9007199254740993', '-9223372036854775809', '18446744073709551616', 'NaN', 'Infinity', '-0', '0x10', ' 1', '1.5', '1e3',
  '', 'null', 'undefined', '[object Object]', '{"a":1}', '[1,2]', '\u0000', 'a\u0000b', 'ÅLAND', '🦊', '\ud800', 'x'.repeat(5000),
  '2024-01-01', '2024-13-45T99:99:99Z', '12:00', 'title,views,rating', 'category.name', 'seo.metaTitle', '.title', 'title.', 'category..name',
  'cover.url:desc', 'tags.label,category.articles.title', 'title.x', 'views.foo:desc', 'seo.metaTitle.x', 'id.x',
];

const segment = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...ATTRIBUTES) },
  { weight: 4, arbitrary: fc.constantFrom(...OPERATORS) },
  { weight: 1, arbitrary: fc.constantFrom(...UNKNOWN_OPERATORS) },
  { weight: 2, arbitrary: fc.constantFrom(...PROTOTYPE_KEYS) },
  { weight: 3, arbitrary: fc.constantFrom(...STRUCTURE_KEYS) },
  { weight: 3, arbitrary: fc.constantFrom(...INDICES) },
  { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
);

const value = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...VALUES) },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
  { weight: 1, arbitrary: fc.double().map(String) },
  { weight: 1, arbitrary: fc.bigInt().map(String) },
);

/** Percent-escapes that are not valid UTF-8 (or not escapes at all). */
const BAD_ESCAPES = ['%', '%Z1', '%C3', '%FF', '%ED%A0%80', '%F4%90%80%80', '%C0%AF', '%E2%82', '%%', '%u0041', '%0', '%00'];

/** encodeURIComponent, except that a lone surrogate (which it refuses) is left for the URL parser to replace. */
function percentEncode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Encodes a piece of a query string one of several ways, sometimes spiking it with a broken escape. */
const encoded = (text: string) =>
  fc.tuple(fc.constantFrom('plain', 'component', 'brackets'), fc.option(fc.constantFrom(...BAD_ESCAPES), { freq: 8 })).map(([how, bad]) => {
    const safe = percentEncode(text);
    const out = how === 'component' ? safe : how === 'brackets' ? safe.replace(/%5B/gi, '[').replace(/%5D/gi, ']') : safe.replace(/%24/g, '$').replace(/%3A/gi, ':').replace(/%2C/gi, ',');
    return bad === null ? out : `${out}${bad}`;
  });

/** One `a[b][c]=v` parameter (or a bare `a[b]`, which qs reads as null). */
const parameter = fc
  .tuple(fc.constantFrom(...ROOT_KEYS), fc.array(segment, { maxLength: 6 }), fc.option(value, { freq: 10 }))
  .chain(([root, path, v]) => {
    const key = `${root}${path.map((s) => `[${s}]`).join('')}`;
    return fc.tuple(encoded(key), v === null ? fc.constant(null) : encoded(v)).map(([k, ev]) => (ev === null ? k : `${k}=${ev}`));
  });

/** Many parameters, joined (duplicates and conflicting shapes included). */
const structured = fc.array(parameter, { minLength: 1, maxLength: 12 }).map((ps) => ps.join('&'));

const SOUP = [
  '[', ']', '=', '&', '&&', '==', '%', '%5B', '%5D', '%26', '%3D', '+', ';', '.', ',', ':', '*', '$eq', '$in', '$and', '[0]', '[]', '[__proto__]',
  '[constructor][prototype]', 'filters', 'populate', 'sort', 'fields', 'pagination', 'title', 'category', '1', 'x', ...BAD_ESCAPES,
];
/** Random tokens glued together: shapes no grammar would produce. */
const soup = fc.array(fc.constantFrom(...SOUP), { maxLength: 40 }).map((t) => t.join(''));

/** Deep nesting past qs's depth and the filter/populate limits. */
const deep = fc
  .tuple(fc.integer({ min: 10, max: 80 }), fc.constantFrom('filters[$and][0]', 'filters[$not]', 'filters[category][articles]', 'populate[category][populate][articles]', 'filters[$or][1][title]', 'sort[category]', 'a'))
  .map(([n, unit]) => {
    const [root = 'filters', ...rest] = unit.split('[');
    const step = rest.length > 0 ? `[${rest.join('[')}` : '[a]';
    return `${root}${step.repeat(n)}=1`;
  });

/** Huge arrays and parameter floods: over arrayLimit, parameterLimit, the filter list limit. */
const huge = fc
  .tuple(fc.integer({ min: 90, max: 2500 }), fc.constantFrom('filters[id][$in]', 'fields', 'sort', 'populate', 'filters[$or]', 'filters[title][$between]', 'p'), fc.boolean())
  .map(([n, key, indexed]) => {
    if (key === 'fields' && !indexed) return `fields=${Array.from({ length: n }, (_, i) => `f${i}`).join(',')}`;
    const parts: string[] = [];
    for (let i = 0; i < n; i++) parts.push(key === 'filters[$or]' ? `filters[$or][${i}][views]=${i}` : `${key}[${indexed ? i : ''}]=${i}`);
    return parts.join('&');
  });

/** A hostile query string (without the leading `?`). */
export const hostileQuery = fc.oneof(
  { weight: 10, arbitrary: structured },
  { weight: 3, arbitrary: soup },
  { weight: 1, arbitrary: deep },
  { weight: 1, arbitrary: huge },
);
