import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { blocksSchema, surelyValidBlocks } from '../../server/documents/blocks-schema.js';
import { validateEntity, type EntityValidationOptions } from '../../server/documents/validate.js';
import { yup } from '../../server/documents/yup-setup.js';
import { loadProject } from '../../server/schema/load.js';
import { buildRegistry, type Registry } from '../../server/schema/registry.js';
import type { ContentTypeModel } from '../../server/schema/types.js';
import { USERS_PERMISSIONS } from '../../server/users/models.js';
import { collection, writeProject } from '../helpers/project.js';

const text = (t: string, marks: Record<string, boolean> = {}) => ({ type: 'text', text: t, ...marks });
const file = {
  name: 'a.png',
  alternativeText: null,
  url: '/uploads/a.png',
  caption: 'A caption',
  width: 10,
  height: 20,
  formats: { thumbnail: { url: '/uploads/t.png' } },
  hash: 'a_1',
  ext: '.png',
  mime: 'image/png',
  size: 1.5,
  previewUrl: null,
  provider: 'local',
  provider_metadata: null,
  createdAt: '2024-01-01T00:00:00.000Z',
  updatedAt: '2024-01-01T00:00:00.000Z',
};
/** Every node kind and optional field Strapi's blocks format has. */
const corpus = (): unknown[] => [
  { type: 'heading', level: 2, children: [text('A heading')] },
  { type: 'paragraph', children: [text('One '), text('all marks', { bold: true, italic: false, underline: true, strikethrough: true, code: true }), { type: 'link', url: 'https://example.com/x', children: [text('link')] }, { type: 'link', url: '/relative', children: [] }] },
  { type: 'quote', children: [text('')] },
  { type: 'list', format: 'ordered', children: [{ type: 'list-item', children: [text('Item')] }, { type: 'list', format: 'unordered', children: [{ type: 'list-item', children: [] }] }] },
  { type: 'code', language: 'ts', children: [text('let a = 1;')] },
  { type: 'code', language: null, children: [text('')] },
  { type: 'image', image: file, children: [text('')] },
];

const yupAccepts = (value: unknown) =>
  blocksSchema()
    .validate(value, { abortEarly: false })
    .then(
      () => true,
      () => false,
    );

/** A deterministic generator (mulberry32), so a failure is replayed by its seed. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const VALUES: unknown[] = [null, '', 0, 1, 7, 1.5, '1', '2', true, false, {}, [], 'x', 'text', 'link', 'list', 'list-item', 'paragraph', 'ordered', 'javascript:alert(1)', 'data:x', [{ type: 'text', text: 'x' }], { type: 'text', text: 5 }];
const KEYS = ['type', 'text', 'children', 'level', 'format', 'url', 'image', 'language', 'bold', 'name', 'width', 'formats', 'alternativeText', 'constructor', 'toString', '__proto__', 'extra'];

/** Every object or array inside a value (the value included). */
function containers(value: unknown, out: (Record<string, unknown> | unknown[])[] = []): (Record<string, unknown> | unknown[])[] {
  if (typeof value !== 'object' || value === null) return out;
  out.push(value as Record<string, unknown>);
  for (const child of Object.values(value)) containers(child, out);
  return out;
}

/** One to three random edits of a valid value: a key removed, a value replaced, a key added (JSON.parse keeps `__proto__` as an own key). */
function mutate(next: () => number): unknown {
  const value = JSON.parse(JSON.stringify(corpus())) as unknown;
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  for (let edits = 1 + Math.floor(next() * 3); edits > 0; edits--) {
    const target = pick(containers(value));
    const keys = Object.keys(target);
    const key = next() < 0.7 && keys.length > 0 ? pick(keys) : pick(KEYS);
    const replacement = JSON.parse(JSON.stringify({ v: pick(VALUES) })).v as unknown;
    if (Array.isArray(target)) {
      if (next() < 0.5) target.splice(Math.floor(next() * (target.length + 1)), next() < 0.5 ? 1 : 0, replacement);
      else target.length = Math.floor(next() * (target.length + 1));
    } else if (next() < 0.3) delete target[key];
    else Object.assign(target, JSON.parse(`{${JSON.stringify(key)}: ${JSON.stringify(replacement) ?? 'null'}}`) as Record<string, unknown>);
  }
  return value;
}

describe('surelyValidBlocks: a check without yup that never accepts what yup refuses', () => {
  it('accepts every node kind in its written form', async () => {
    expect(surelyValidBlocks(corpus())).toBe(true);
    expect(await yupAccepts(corpus())).toBe(true);
    expect(surelyValidBlocks([])).toBe(true);
  });

  it('refuses what yup refuses, or what yup casts or crashes on', async () => {
    for (const value of [null, 'x', [{ type: 'paragraph', children: [] }], [{ type: 'heading', level: '2', children: [text('a')] }], [{ type: 'paragraph', children: [{ type: 'text', text: 5 }] }], [{ type: 'image', image: { ...file, formats: JSON.parse('{"constructor": 1}') as unknown }, children: [] }], [{ type: 'paragraph', children: [text('a')], extra: 1 }]]) {
      expect(surelyValidBlocks(value)).toBe(false);
    }
  });

  it('on 4,000 random edits of valid values, whatever it accepts yup accepts', async () => {
    const next = random(17);
    let accepted = 0;
    for (let i = 0; i < 4000; i++) {
      const value = mutate(next);
      if (!surelyValidBlocks(value)) continue;
      accepted++;
      expect({ i, accepted: await yupAccepts(value) }).toEqual({ i, accepted: true });
    }
    expect(accepted).toBeGreaterThan(100);
  });
});

describe('validateEntity with checkOnly (the publish check)', () => {
  let registry: Registry;
  let model: ContentTypeModel;
  beforeAll(async () => {
    const dir = await writeProject({
      types: {
        page: collection('page', 'pages', {
          title: { type: 'string', required: true },
          body: { type: 'blocks' },
          part: { type: 'component', component: 'parts.rich', repeatable: false },
          parts: { type: 'component', component: 'parts.rich', repeatable: true },
          zone: { type: 'dynamiczone', components: ['parts.rich'] },
        }),
      },
      components: { 'parts.rich': { attributes: { body: { type: 'blocks' }, label: { type: 'string', required: true } } } },
    });
    registry = buildRegistry(await loadProject(dir, USERS_PERMISSIONS));
    const found = registry.contentTypes.find((m) => m.uid === 'api::page.page');
    if (!found) throw new Error('no page model');
    model = found;
  });
  afterEach(() => vi.restoreAllMocks());

  const options = (checkOnly: boolean): EntityValidationOptions => ({
    mode: 'creation',
    isDraft: false,
    locale: null,
    entity: null,
    isUnique: async () => true,
    checkRelations: async () => null,
    checkOnly,
  });
  /** A page with `body` at the root and in a single component, `listed` in a repeatable component's items and a dynamic zone's. */
  const page = (body: unknown, title: unknown = 'T', listed: unknown = body) => ({
    title,
    body,
    part: { body, label: 'a' },
    parts: [
      { body: listed, label: 'b' },
      { body: listed, label: 'c' },
    ],
    zone: [{ __component: 'parts.rich', body: listed, label: 'd' }],
  });
  const outcome = (data: Record<string, unknown>, checkOnly: boolean) =>
    validateEntity(model, data, registry, options(checkOnly)).then(
      () => 'valid',
      (err: unknown) => err,
    );

  it('does not walk blocks that surely pass at the root and in single components (those in lists are walked)', async () => {
    const objectProto = Object.getPrototypeOf(yup.object()) as { _validate: (...args: never[]) => unknown };
    const walked = vi.spyOn(objectProto, '_validate');
    const count = async (data: Record<string, unknown>, checkOnly: boolean) => {
      walked.mockClear();
      expect(await outcome(data, checkOnly)).toBe('valid');
      return walked.mock.calls.length;
    };
    const unwalked = await count(page([], 'T', corpus()), false);
    expect(await count(page(corpus()), true)).toBe(unwalked);
    expect(await count(page(corpus()), false)).toBeGreaterThan(unwalked);
  });

  it('gives the same errors as the full check (status, message, details and their order)', async () => {
    const invalid = [{ type: 'paragraph', children: [] }, ...corpus()];
    const cases = [
      page(corpus(), null),
      page(invalid, null),
      { ...page(corpus()), part: { body: corpus(), label: null }, parts: [{ body: [{ type: 'nope' }], label: null }, { body: corpus(), label: null }] },
      { ...page(corpus(), 'T', invalid), part: { body: invalid, label: 5 }, zone: [{ __component: 'parts.rich', body: corpus(), label: null }, { __component: 'parts.rich', body: invalid, label: null }] },
    ];
    for (const data of cases) {
      const full = await outcome(data, false);
      expect(full).not.toBe('valid');
      expect(await outcome(data, true)).toEqual(full);
      expect(JSON.stringify(await outcome(data, true))).toBe(JSON.stringify(full));
    }
  });
});
