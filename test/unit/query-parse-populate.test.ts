import { beforeAll, describe, expect, it } from 'vitest';
import { parseQueryString } from '../../server/http/query-string.js';
import type { PopulateMap, PopulateNode } from '../../server/query/ast.js';
import { unwrap } from '../../server/query/check.js';
import { parsePopulate, plainNode } from '../../server/query/populate.js';
import { loadProject } from '../../server/schema/load.js';
import { buildRegistry, type Registry } from '../../server/schema/registry.js';
import type { ContentTypeModel } from '../../server/schema/types.js';
import { USERS_PERMISSIONS } from '../../server/users/models.js';
import { collection, writeProject } from '../helpers/project.js';
import { thrown } from '../helpers/thrown.js';

/**
 * Parse once, populate: Strapi's three populate passes (structure, private, the caller's) are
 * checked in one walk and name the key the earliest failing pass names first; the converter then
 * knows every key it meets (what Strapi accepts and ignores is ignored by name), and keeps its
 * own errors back until every parameter is validated.
 */

let registry: Registry;
let post: ContentTypeModel;
const canRead = (uid: string) => uid !== 'api::tag.tag';

beforeAll(async () => {
  const dir = await writeProject({
    types: {
      post: collection('post', 'posts', {
        title: { type: 'string' },
        author: { type: 'relation', relation: 'oneToOne', target: 'api::person.person' },
        hidden: { type: 'relation', relation: 'oneToOne', target: 'api::person.person', private: true },
        tag: { type: 'relation', relation: 'oneToOne', target: 'api::tag.tag' },
        zone: { type: 'dynamiczone', components: ['sec.a', 'sec.b'] },
      }),
      person: collection('person', 'people', { name: { type: 'string' }, friend: { type: 'relation', relation: 'oneToOne', target: 'api::person.person' } }),
      tag: collection('tag', 'tags', { label: { type: 'string' } }),
    },
    components: {
      'sec.a': { attributes: { x: { type: 'relation', relation: 'oneToOne', target: 'api::person.person' } } },
      'sec.b': { attributes: { x: { type: 'string' } } },
    },
  });
  registry = buildRegistry(await loadProject(dir, USERS_PERMISSIONS));
  const found = registry.contentType('api::post.post');
  if (!found) throw new Error('no post');
  post = found;
});

const populateOf = (query: string) => parseQueryString(query).populate;
const parse = (query: string) => parsePopulate(populateOf(query), { model: post, registry, canRead });

const invalid = (key: string, path: string | null = key) => ({
  status: 400,
  name: 'ValidationError',
  message: path && path !== key ? `Invalid key ${key} at ${path}` : `Invalid key ${key}`,
  details: { key, path, source: 'query', param: 'populate' },
});

const node = (attribute: string, extra: Partial<PopulateNode> = {}): PopulateNode => ({ ...plainNode(attribute), ...extra });
const map = (...nodes: PopulateNode[]): PopulateMap => new Map(nodes.map((n) => [n.attribute, n]));

describe('parsePopulate: the passes in one walk', () => {
  it("names the key of the earliest failing pass, though a later pass's key comes first in the walk", () => {
    // structure (title is not populatable) before private (hidden), private before the caller's (tag).
    expect(thrown(() => parse('populate[hidden]=true&populate[title]=true'))).toEqual(invalid('title'));
    expect(thrown(() => parse('populate[tag]=true&populate[hidden]=true'))).toEqual(invalid('hidden'));
    expect(thrown(() => parse('populate[author][populate][friend]=true&populate[tag]=true&populate[hidden]=true'))).toEqual(invalid('hidden'));
  });

  it('names the first failing key of a pass in walk order, at any depth', () => {
    expect(thrown(() => parse('populate[author][populate][friend][populate][nope]=true&populate[zzz]=true'))).toEqual(invalid('nope', 'author.friend'));
    expect(thrown(() => parse('populate[author][filters][friend][tag][label]=x&populate[tag]=true'))).toEqual({
      ...invalid('tag', 'friend'),
      details: { key: 'tag', path: 'friend', source: 'query', param: 'filters' },
    });
  });

  it('keeps a conversion error back, and lets a validation error met later in the walk win over it', () => {
    const parsed = parse('populate[author][on][sec.a]=true');
    expect(parsed.ok).toBe(false);
    expect(thrown(() => unwrap(parsed))).toMatchObject({ status: 400, message: 'Using fragments is not permitted to populate "author" in "api::post.post"' });
    expect(thrown(() => parse('populate[author][on][sec.a]=true&populate[nope]=true'))).toEqual(invalid('nope', null));
  });
});

describe('parsePopulate: what Strapi accepts and ignores is ignored by name', () => {
  it('boolean-like keys, count, on, populate, sort, filters and fields where no relation is named', () => {
    const parsed = parse('populate[true]=x&populate[count]=true&populate[sort]=title&populate[filters][title]=x&populate[fields]=title&populate[author]=true');
    expect(unwrap(parsed)).toEqual(map(node('author')));
  });

  it('a nested populate string is one dotted path to the validator: after a key it does not read below, the rest is left out', () => {
    expect(unwrap(parse('populate[author][populate]=true.x,zzz'))).toEqual(map(node('author')));
  });

  it('a dotted path through a dynamic zone is checked in the first component having the key; the others read what applies', () => {
    const friend = map(node('friend'));
    expect(unwrap(parse('populate=zone.x.friend'))).toEqual(
      map(node('zone', { on: new Map([['sec.a', node('sec.a', { populate: map(node('x', { populate: friend })) })], ['sec.b', node('sec.b')]]) })),
    );
  });

  it('a single-type write (not validated) converts leniently', () => {
    expect(unwrap(parsePopulate({ nope: 'true', author: 'true', title: 'true' }, { model: post, registry }, 'lenient'))).toEqual(map(node('author')));
  });
});

describe('parsePopulate: one walk that checks and builds', () => {
  it("keeps the conversion error Strapi's converter meets first, though the walk meets another first", () => {
    // The walk visits `populate` before `fields`; the converter reads a relation's fields, filters and sort before its populate.
    const parsed = parse('populate[author][populate][friend][on][sec.a]=true&populate[author][fields][name]=true');
    expect(thrown(() => unwrap(parsed))).toMatchObject({ status: 400, message: 'Invalid fields parameter. Expected a string or an array of strings' });
  });

  it("names a nested option's 400 at that option's key, in walk order, though the option is parsed with its relation", () => {
    expect(thrown(() => parse('populate[author][zzz]=x&populate[author][sort]=nope'))).toEqual(invalid('zzz', 'author'));
    expect(thrown(() => parse('populate[author][sort]=nope&populate[author][zzz]=x'))).toMatchObject({
      status: 400,
      details: { key: 'nope', source: 'query', param: 'sort' },
    });
  });

  it("reads a single-type write's populate in the same walk: the caller's pass only, what does not apply left out", () => {
    expect(thrown(() => unwrap(parsePopulate({ nope: 'true', tag: 'true' }, { model: post, registry, canRead }, 'lenient')))).toEqual(invalid('tag'));
    expect(unwrap(parsePopulate({ hidden: 'true', author: { populate: { zzz: 'true' } } }, { model: post, registry, canRead }, 'lenient'))).toEqual(
      map(node('hidden'), node('author')),
    );
  });
});

describe('parsePopulate: an option named like an attribute', () => {
  let shadowRegistry: Registry;
  let article: ContentTypeModel;

  beforeAll(async () => {
    const dir = await writeProject({
      types: {
        article: collection('article', 'articles', {
          on: { type: 'string' },
          author: { type: 'relation', relation: 'oneToOne', target: 'api::writer.writer' },
          zone: { type: 'dynamiczone', components: ['sec.a'] },
        }),
        writer: collection('writer', 'writers', {
          populate: { type: 'string' },
          friend: { type: 'relation', relation: 'oneToOne', target: 'api::writer.writer' },
        }),
      },
      components: { 'sec.a': { attributes: { x: { type: 'relation', relation: 'oneToOne', target: 'api::writer.writer' } } } },
    });
    shadowRegistry = buildRegistry(await loadProject(dir, USERS_PERMISSIONS));
    const found = shadowRegistry.contentType('api::article.article');
    if (!found) throw new Error('no article');
    article = found;
  });

  const parseArticle = (query: string) => parsePopulate(populateOf(query), { model: article, registry: shadowRegistry });

  it("reads a relation's `populate` as its nested populate, though the relation's target has a `populate` attribute (as Strapi's converter does)", () => {
    expect(unwrap(parseArticle('populate[author][populate][friend]=true'))).toEqual(map(node('author', { populate: map(node('friend')) })));
    // Strapi's traversal walks the attribute there and checks nothing of the option: the converter names the key it does not know.
    expect(thrown(() => unwrap(parseArticle('populate[author][populate][zzz]=true')))).toEqual(invalid('zzz', null));
  });

  it("reads a dynamic zone's `on` fragments, though the zone's model has an `on` attribute", () => {
    const fragment = node('sec.a', { populate: map(node('x')) });
    expect(unwrap(parseArticle('populate[zone][on][sec.a][populate][x]=true'))).toEqual(map(node('zone', { on: new Map([['sec.a', fragment]]) })));
  });
});
