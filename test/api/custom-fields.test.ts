import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import qs from 'qs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminRequest, eventually, registerOwner } from '../admin/helpers.js';
import { collection, dataOf, expectJson, listOf, writeProject } from '../helpers/project.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/**
 * Strapi custom fields (`"type": "customField"`) as a Strapi project holds them: stored and
 * validated as the base type their plugin registers, known from Hearth's table of popular plugins
 * or the project's `hearth.json`; an unknown one is stored as json with a warning. Each custom
 * field has a plain twin of its base type: both must answer alike.
 */

type Json = Record<string, unknown>;

const ATTRIBUTES: Json = {
  name: { type: 'string' },
  color: { type: 'customField', customField: 'plugin::color-picker.color', maxLength: 7, options: { format: 'hex' } },
  plainColor: { type: 'string', maxLength: 7 },
  body: { type: 'customField', customField: 'plugin::ckeditor5.CKEditor', options: { preset: 'defaultHtml' } },
  tags: { type: 'customField', customField: 'plugin::multi-select.multi-select', options: ['red:Red', 'green:Green'] },
  widget: { type: 'customField', customField: 'plugin::acme.widget', options: { size: 3 } },
  rating: { type: 'customField', customField: 'global::star-rating', max: 5, required: false },
  plainRating: { type: 'integer', max: 5 },
  note: { type: 'component', component: 'shared.note', repeatable: false },
};
const NOTE: Json = { attributes: { content: { type: 'customField', customField: 'plugin::tiptap-editor.RichText', options: { preset: 'full' } } } };

let server: TestServer;
let root: string;
let token: string;

async function project(config: unknown): Promise<string> {
  const dir = await writeProject({ types: { swatch: collection('swatch', 'swatches', ATTRIBUTES) }, components: { 'shared.note': NOTE } });
  await writeFile(join(dir, 'hearth.json'), JSON.stringify(config));
  return dir;
}

beforeAll(async () => {
  root = await project({ customFields: { 'global::star-rating': 'integer' } });
  server = await startTestServer({ schemas: root });
  token = await server.token('full-access');
});
afterAll(() => server.close());

/**
 * A schema as the admin UI sends it back (renderer/api/schema.ts `schemaToJson`): keys it does not
 * edit (`customField`, `options`) first, then the ones it does: the same attribute, in another order.
 */
function asTheUiSendsIt(schema: Json): Json {
  const edited = ['type', 'required', 'unique', 'private', 'default', 'min', 'max', 'minLength', 'maxLength', 'component', 'repeatable'];
  const attributes: Json = {};
  for (const [name, attr] of Object.entries(schema.attributes as Record<string, Json>)) {
    const entries = Object.entries(attr);
    attributes[name] = Object.fromEntries([...entries.filter(([k]) => !edited.includes(k)), ...entries.filter(([k]) => edited.includes(k))]);
  }
  return { ...schema, attributes };
}

const post = (data: Json) => server.request('/api/swatches', { method: 'POST', token, json: { data } });
const list = async (query: Json) => listOf(await server.request(`/api/swatches?${qs.stringify(query)}`, { token }));

describe('custom fields are stored and answered as their base type', () => {
  let documentId = '';
  const values = {
    name: 'Poppy',
    color: '#FF0000',
    body: '<p>Red <strong>poppy</strong></p>',
    tags: ['red', 'green'],
    widget: { any: ['json', 1] },
    rating: 4,
    note: { content: '{"type":"doc","content":[]}' },
  };

  it('creates and reads a document with each kind', async () => {
    const created = await dataOf(await post(values), 201);
    documentId = created.documentId;
    const { note: _note, ...scalars } = values;
    expect(created).toMatchObject(scalars);
    const read = await dataOf(await server.request(`/api/swatches/${documentId}?populate=note`, { token }));
    expect(read).toMatchObject(values);
  });

  it('filters a string-based custom field like a string, and an integer-based one like an integer', async () => {
    await dataOf(await post({ name: 'Sky', color: '#0080ff', rating: 2 }), 201);
    expect((await list({ filters: { color: { $containsi: 'ff0000' } } })).map((d) => d.name)).toEqual(['Poppy']);
    expect((await list({ filters: { rating: { $gt: 3 } } })).map((d) => d.name)).toEqual(['Poppy']);
    expect((await list({ sort: 'rating:asc' })).map((d) => d.name)).toEqual(['Sky', 'Poppy']);
  });

  const twins: [string, string, string, unknown][] = [
    ['a number for a string-based field', 'color', 'plainColor', 12],
    ['a string-based field over its maxLength', 'color', 'plainColor', '#FF000000'],
    ['an integer-based field over its max', 'rating', 'plainRating', 6],
    ['text for an integer-based field', 'rating', 'plainRating', 'four'],
  ];
  for (const [what, field, twin, value] of twins) {
    it(`refuses ${what} as its plain twin is refused`, async () => {
      const custom = await expectJson<{ error: Json }>(await post({ [field]: value }), 400);
      const plain = await expectJson<{ error: Json }>(await post({ [twin]: value }), 400);
      expect(JSON.parse(JSON.stringify(custom).replaceAll(field, twin))).toEqual(plain);
      expect(custom.error.name).toBe('ValidationError');
    });
  }
});

describe('an unknown custom field', () => {
  it('is stored as json and named in a warning at start', async () => {
    expect(server.logs.filter((l) => l.includes('custom field'))).toEqual([
      'schemas: api::swatch.swatch attribute "widget": custom field "plugin::acme.widget" is not one Hearth knows; its values are stored as json. ' +
        'Name its base type in hearth.json: { "customFields": { "plugin::acme.widget": "<the type its plugin registers>" } }',
    ]);
    const created = await dataOf(await post({ name: 'Any', widget: [1, 'two', { three: null }] }), 201);
    expect(created.widget).toEqual([1, 'two', { three: null }]);
  });
});

describe('an unknown custom field in a schema added while running', () => {
  it('is named in a warning when the schemas reload', async () => {
    const folder = join(root, 'src/api/sticker/content-types/sticker');
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, 'schema.json'), JSON.stringify(collection('sticker', 'stickers', { shape: { type: 'customField', customField: 'plugin::acme.shape' } })));
    const warning = 'schemas: api::sticker.sticker attribute "shape": custom field "plugin::acme.shape" is not one Hearth knows';
    await eventually(async () => server.logs.some((l) => l.startsWith(warning)));
    expect(server.logs.filter((l) => l.includes('"plugin::acme.widget" is not one'))).toHaveLength(1);
    const created = await dataOf(await server.request('/api/stickers', { method: 'POST', token, json: { data: { shape: { sides: 6 } } } }), 201);
    expect(created.shape).toEqual({ sides: 6 });
  });
});

describe('a custom field without its uid', () => {
  it('stops the start, naming the attribute', async () => {
    const dir = await writeProject({ types: { swatch: collection('swatch', 'swatches', { color: { type: 'customField', options: {} } }) } });
    const dataDir = await mkdtemp(join(tmpdir(), 'hearth-test-'));
    try {
      await expect(startTestServer({ schemas: dir, dataDir })).rejects.toThrow(
        'src/api/swatch/content-types/swatch/schema.json: attribute "color": "customField" must name the custom field (plugin::<plugin>.<name> or global::<name>)',
      );
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('hearth.json', () => {
  const refusals: [string, unknown, string][] = [
    ['an unknown base type', { customFields: { 'global::star-rating': 'stars' } }, 'hearth.json: "customFields"."global::star-rating": "stars" is not a base type a custom field can have'],
    ['a relation as base type', { customFields: { 'global::star-rating': 'relation' } }, 'hearth.json: "customFields"."global::star-rating": "relation" is not a base type'],
    ['a malformed uid', { customFields: { 'star-rating': 'integer' } }, 'hearth.json: "customFields"."star-rating": a custom field uid is plugin::<plugin>.<name> or global::<name>'],
    ['customFields not an object', { customFields: ['integer'] }, 'hearth.json: "customFields" must be an object'],
    ['an unknown key', { customField: {} }, 'hearth.json: unknown key "customField"'],
  ];
  for (const [what, config, message] of refusals) {
    it(`refuses ${what}, naming the file and the key`, async () => {
      const dir = await project(config);
      const dataDir = await mkdtemp(join(tmpdir(), 'hearth-test-'));
      try {
        await expect(startTestServer({ schemas: dir, dataDir })).rejects.toThrow(message);
      } finally {
        await rm(dataDir, { recursive: true, force: true });
      }
    });
  }
});

describe('the content-type builder', () => {
  const file = () => join(root, 'src/api/swatch/content-types/swatch/schema.json');
  const componentFile = () => join(root, 'src/components/shared/note.json');
  const attributesIn = async (path: string): Promise<Json> => (JSON.parse(await readFile(path, 'utf8')) as { attributes: Json }).attributes;
  const CUSTOM = ['color', 'body', 'tags', 'widget', 'rating'];
  let request: ReturnType<typeof adminRequest>;
  beforeAll(async () => {
    request = adminRequest(server, await registerOwner(server));
  });

  it('answers each custom field with its base type, its uid and options kept', async () => {
    const { data } = await expectJson<{ data: { schema: { attributes: Json } } }>(await request('/admin/api/content-types/api::swatch.swatch'), 200);
    expect(data.schema.attributes).toMatchObject({
      color: { type: 'string', customField: 'plugin::color-picker.color', maxLength: 7, options: { format: 'hex' } },
      body: { type: 'richtext', customField: 'plugin::ckeditor5.CKEditor' },
      tags: { type: 'json', customField: 'plugin::multi-select.multi-select', options: ['red:Red', 'green:Green'] },
      widget: { type: 'json', customField: 'plugin::acme.widget' },
      rating: { type: 'integer', customField: 'global::star-rating' },
    });
    const { data: note } = await expectJson<{ data: { schema: { attributes: Json } } }>(await request('/admin/api/components/shared.note'), 200);
    expect(note.schema.attributes.content).toEqual({ type: 'text', customField: 'plugin::tiptap-editor.RichText', options: { preset: 'full' } });
  });

  it('saves a schema edited in the admin UI with its custom fields byte for byte as they were', async () => {
    const before = await readFile(file(), 'utf8');
    const beforeNote = await readFile(componentFile(), 'utf8');
    for (const [path, uid, key] of [
      ['/admin/api/content-types/api::swatch.swatch', 'api::swatch.swatch', 'contentType'],
      ['/admin/api/components/shared.note', 'shared.note', 'component'],
    ] as const) {
      const { data } = await expectJson<{ data: { schema: Json; category?: string } }>(await request(path), 200);
      // What the admin UI sends back: its own reading of the schema, written out again (keys reordered).
      const sent: Json = { ...asTheUiSendsIt(data.schema), ...(key === 'component' ? { category: data.category } : {}) };
      expect(JSON.stringify(sent)).not.toBe(JSON.stringify(data.schema));
      expect(await expectJson(await request(path, { method: 'PUT', json: { [key]: sent } }), 200)).toEqual({ data: { uid } });
    }
    const after = await attributesIn(file());
    const original = JSON.parse(before) as { attributes: Json };
    for (const name of CUSTOM) {
      expect(JSON.stringify(after[name], null, 2)).toBe(JSON.stringify(original.attributes[name], null, 2));
      expect(await readFile(file(), 'utf8')).toContain(`"${name}": ${JSON.stringify(original.attributes[name], null, 2).replaceAll('\n', '\n    ')}`);
    }
    expect(JSON.stringify((await attributesIn(componentFile())).content)).toBe(JSON.stringify((JSON.parse(beforeNote) as { attributes: Json }).attributes.content));
    // Still served as before.
    expect((await list({ filters: { color: { $eqi: '#ff0000' } } })).map((d) => d.name)).toEqual(['Poppy']);
  });

  it('writes an edited custom field back as a custom field', async () => {
    const { data } = await expectJson<{ data: { schema: Json } }>(await request('/admin/api/content-types/api::swatch.swatch'), 200);
    const schema = asTheUiSendsIt(data.schema);
    const attributes = schema.attributes as Record<string, Json>;
    const edited = { ...schema, attributes: { ...attributes, color: { ...attributes.color, maxLength: 9 } } };
    await expectJson(await request('/admin/api/content-types/api::swatch.swatch', { method: 'PUT', json: { contentType: edited } }), 200);
    expect((await attributesIn(file())).color).toEqual({ type: 'customField', customField: 'plugin::color-picker.color', maxLength: 9, options: { format: 'hex' } });
    await dataOf(await post({ name: 'Long', color: '#FF000000' }), 201);
  });
});
