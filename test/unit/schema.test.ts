import { describe, expect, it } from 'vitest';
import { AppError } from '../../server/errors/app-error.js';
import { parseComponent, parseContentType, schemaPlace } from '../../server/schema/parse.js';
import { buildRegistry } from '../../server/schema/registry.js';
import { loadProject } from '../../server/schema/load.js';
import { USERS_PERMISSIONS } from '../../server/users/models.js';
import { FIXTURE_PROJECT } from '../helpers/server.js';

/** A SchemaError (Hearth's AppError of that name) with exactly this message. */
const schemaErrorWith = (message: string) => expect.objectContaining({ name: 'SchemaError', message });

const ct = (attributes: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  kind: 'collectionType',
  collectionName: 'things',
  info: { singularName: 'thing', pluralName: 'things', displayName: 'Thing' },
  options: { draftAndPublish: false },
  attributes,
  ...extra,
});

describe('schema.json parsing', () => {
  it('reads every attribute type of the fixture project', async () => {
    const project = await loadProject(FIXTURE_PROJECT, USERS_PERMISSIONS);
    const specimen = project.contentTypes.find((c) => c.uid === 'api::specimen.specimen');
    expect(specimen?.attributes.get('s_enum')).toMatchObject({ kind: 'scalar', type: 'enumeration', enum: ['alpha', 'beta', 'gamma'] });
    expect(specimen?.attributes.get('s_int')).toMatchObject({ kind: 'scalar', type: 'integer', min: 0, max: 100 });
    expect(specimen?.attributes.get('s_uid')).toMatchObject({ kind: 'scalar', type: 'uid', unique: true, targetField: 's_string' });
    expect(specimen?.attributes.get('s_comp')).toMatchObject({ kind: 'component', component: 'shared.quote', repeatable: true });
    expect(specimen?.attributes.get('s_media')).toMatchObject({ kind: 'media', multiple: true });
    const article = project.contentTypes.find((c) => c.uid === 'api::article.article');
    expect(article).toMatchObject({ draftAndPublish: true, localized: true, pluralName: 'articles', table: 'articles' });
    expect(article?.attributes.get('category')).toMatchObject({ kind: 'relation', relation: 'manyToOne', owner: true, toMany: false, localized: true });
    expect(article?.attributes.get('views')).toMatchObject({ localized: false });
    expect(article?.attributes.get('title')).toMatchObject({ localized: true });
    expect([...(article?.attributes.keys() ?? [])].at(-1)).toBe('localizations');
    expect(project.components.map((c) => c.uid)).toEqual(['shared.quote', 'shared.rich-text', 'shared.seo']);
  });

  it('builds a registry with routes and storage names', async () => {
    const registry = buildRegistry(await loadProject(FIXTURE_PROJECT, USERS_PERMISSIONS));
    expect(registry.routeModel('articles')?.uid).toBe('api::article.article');
    expect(registry.routeModel('homepage')?.uid).toBe('api::homepage.homepage');
    expect(registry.routeModel('homepages')).toBeUndefined();
    const category = registry.contentType('api::category.category');
    const articles = category?.attributes.get('articles');
    if (!category || articles?.kind !== 'relation') throw new Error('fixture changed');
    expect(registry.relationStorage(category, articles)).toEqual({
      joinTable: 'articles_category_lnk',
      selfColumn: 'target_id',
      otherColumn: 'entity_id',
      orderColumn: 'inv_ord',
      inverseOrderColumn: 'ord',
    });
    expect(registry.componentUidsForMessages).toEqual(['shared.seo', 'shared.rich-text', 'shared.quote']);
  });

  const bad: [string, () => unknown, string][] = [
    ['reserved names', () => parseContentType(ct({ locale: { type: 'string' } }), 'thing', 'thing', 'x'), 'x: attribute "locale": "locale" is a reserved name'],
    ['unknown types', () => parseContentType(ct({ a: { type: 'colour' } }), 'thing', 'thing', 'x'), 'x: attribute "a": unknown attribute type "colour"'],
    ['enumerations without values', () => parseContentType(ct({ e: { type: 'enumeration', enum: [] } }), 'thing', 'thing', 'x'), 'x: attribute "e": an enumeration needs "enum", a non-empty list of strings'],
    ['bad regexes', () => parseContentType(ct({ r: { type: 'string', regex: '(' } }), 'thing', 'thing', 'x'), 'x: attribute "r": "regex" is not a valid regular expression'],
    ['names differing only in case', () => parseContentType(ct({ title: { type: 'string' }, Title: { type: 'string' } }), 'thing', 'thing', 'x'), 'x: attributes "Title" and another differ only in case'],
    ['bad relation kinds', () => parseContentType(ct({ r: { type: 'relation', relation: 'manyToSome', target: 'x' } }), 'thing', 'thing', 'x'), 'x: attribute "r": "relation" must be one of oneToOne, oneToMany, manyToOne, manyToMany, oneWay, manyWay, morphToOne, morphToMany, morphOne, morphMany'],
    ['hearth_ tables', () => parseContentType(ct({}, { collectionName: 'hearth_x' }), 'thing', 'thing', 'x'), 'x: "collectionName" may not start with hearth_'],
    ['components without attributes', () => parseComponent({ info: {} }, 'shared', 'x', 'y'), 'y: "attributes" must be an object'],
  ];
  for (const [name, parse, message] of bad) {
    it(`refuses ${name}`, () => {
      expect(parse).toThrow(schemaErrorWith(message));
    });
  }

  it('refuses inconsistent inverse relations and unknown targets', () => {
    const a = parseContentType(ct({ b: { type: 'relation', relation: 'oneToMany', target: 'api::b.b', inversedBy: 'a' } }), 'a', 'a', 'a');
    const b = parseContentType({ ...ct({}), collectionName: 'bs', info: { singularName: 'b', pluralName: 'bs' } }, 'b', 'b', 'b');
    expect(() => buildRegistry({ contentTypes: [a, b], components: [], builtIns: USERS_PERMISSIONS })).toThrow('api::a.a: attribute "b": "api::b.b" has no relation "a" back to api::a.a');
    const lonely = parseContentType(ct({ x: { type: 'relation', relation: 'oneWay', target: 'api::nope.nope' } }), 'a', 'a', 'a');
    expect(() => buildRegistry({ contentTypes: [lonely], components: [], builtIns: USERS_PERMISSIONS })).toThrow('relation target "api::nope.nope" is not a known content type');
  });

  it('refuses two types served at the same route and reserved routes', () => {
    const one = parseContentType(ct({}), 'one', 'one', 'one');
    const two = parseContentType({ ...ct({}), collectionName: 'others' }, 'two', 'two', 'two');
    expect(() => buildRegistry({ contentTypes: [one, two], components: [], builtIns: USERS_PERMISSIONS })).toThrow('would both be served at /api/things');
    const upload = parseContentType({ ...ct({}), info: { singularName: 'uploadx', pluralName: 'upload' } }, 'u', 'u', 'u');
    expect(() => buildRegistry({ contentTypes: [upload], components: [], builtIns: USERS_PERMISSIONS })).toThrow('/api/upload is reserved by Hearth');
  });

  it('carry the place of the problem as data (the builder answers with it; no message is parsed back)', () => {
    const placeOf = (fn: () => unknown) => {
      try {
        fn();
      } catch (err) {
        return err instanceof AppError ? schemaPlace(err) : err;
      }
      return null;
    };
    // A message that names something else in quotes: the place still names the attribute.
    const a = parseContentType(ct({ kind: { type: 'relation', relation: 'oneWay', target: 'api::nope.nope' } }), 'a', 'a', 'a');
    expect(placeOf(() => buildRegistry({ contentTypes: [a], components: [], builtIns: USERS_PERMISSIONS }))).toEqual({ uid: 'api::a.a', path: ['attributes', 'kind'] });
    const one = parseContentType(ct({}), 'one', 'one', 'one');
    const two = parseContentType({ ...ct({}), collectionName: 'others' }, 'two', 'two', 'two');
    expect(placeOf(() => buildRegistry({ contentTypes: [one, two], components: [], builtIns: USERS_PERMISSIONS }))).toEqual({ uid: 'api::two.two', path: ['info', 'pluralName'] });
    expect(placeOf(() => parseContentType(ct({ title: { type: 'nope' } }), 'a', 'a', 'a'))).toEqual({ path: ['attributes', 'title'] });
    expect(placeOf(() => parseContentType({ ...ct({}), collectionName: 'hearth_x' }, 'a', 'a', 'a'))).toEqual({ path: ['collectionName'] });
    expect(placeOf(() => parseContentType({ ...ct({}), kind: 'x' }, 'a', 'a', 'a'))).toEqual({ path: ['kind'] });
  });
});

describe('declared indexes (Strapi\'s experimental `indexes`)', () => {
  const attrs = { title: { type: 'string' }, prepMinutes: { type: 'integer' }, label_2: { type: 'string' }, cover: { type: 'media', multiple: false } };
  const parse = (indexes: unknown) => parseContentType(ct(attrs, { indexes }), 'thing', 'thing', 'thing.json');

  it('maps Strapi column names and attribute names to columns, and appends locale and publishedAt on content types', () => {
    const model = parse([
      { name: 'by_prep', columns: ['prep_minutes', 'title'], type: null },
      { columns: ['label_2', 'created_at', 'documentId'] },
      { name: 'per-locale', columns: ['locale', 'published_at', 'title'], type: 'unique' },
    ]);
    expect(model.indexes).toEqual([
      { name: 'by_prep', columns: ['prepMinutes', 'title', 'locale', 'publishedAt'], unique: false },
      { name: 'label_2_createdAt_documentId', columns: ['label_2', 'createdAt', 'documentId', 'locale', 'publishedAt'], unique: false },
      { name: 'per_locale', columns: ['locale', 'publishedAt', 'title'], unique: true },
    ]);
    expect(parseContentType(ct(attrs), 'thing', 'thing', 'thing.json').indexes).toEqual([]);
  });

  it('gives components their columns as declared, with no system columns but id', () => {
    const component = parseComponent({ info: { displayName: 'Step' }, attributes: { minutes: { type: 'integer' } }, indexes: [{ name: 'm', columns: ['minutes', 'id'] }] }, 'recipe', 'step', 'step.json');
    expect(component.indexes).toEqual([{ name: 'm', columns: ['minutes', 'id'], unique: false }]);
    expect(() => parseComponent({ info: {}, attributes: { minutes: { type: 'integer' } }, indexes: [{ columns: ['locale'] }] }, 'recipe', 'step', 'step.json')).toThrow(
      'step.json: indexes[0].columns[0]: no scalar attribute or system column is named "locale"',
    );
  });

  it('refuses what cannot be an index, naming the entry', () => {
    for (const [indexes, message] of [
      [{}, 'thing.json: "indexes" must be an array'],
      [['title'], 'thing.json: indexes[0] must be an object { name, columns }'],
      [[{ name: 'x', columns: [] }], 'thing.json: indexes[0].columns must be a non-empty array'],
      [[{ name: 'x', columns: ['title', 'title'] }], 'thing.json: indexes[0].columns names a column twice'],
      [[{ name: 'x', columns: ['title'], type: 'primary' }], 'thing.json: indexes[0].type must be "unique" or absent'],
      [[{ name: 'x', columns: ['title'] }, { name: 'x', columns: ['prep_minutes'] }], 'thing.json: indexes[1]: another index is named "x"'],
      [[{ name: 'x', columns: ['cover'] }], 'thing.json: indexes[0].columns[0]: attribute "cover" is a media, which has no column of its own'],
      [[{ name: 'x', columns: [3] }], 'thing.json: indexes[0].columns[0]: must be a column name'],
    ] as const) {
      expect(() => parse(indexes)).toThrow(schemaErrorWith(message));
    }
  });
});
