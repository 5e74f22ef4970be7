import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { collection, writeProject } from '../helpers/project.js';
import type { TestServer } from '../helpers/server.js';
import { STRAPI_FIXTURES_DIR } from '../helpers/transcripts.js';

/**
 * A content model unlike the recorded fixture's, for the GraphQL/REST differential suite: names
 * that stress Strapi's naming (multi-word `blog-post`, the `person`/`people` pair,
 * `product-variant`, dashed component categories and names), every attribute kind, enumerations
 * whose values are no GraphQL names, i18n and draft & publish on some types, a single type.
 */
type Json = Record<string, unknown>;
const localized = { pluginOptions: { i18n: { localized: true } } };
const shared = { pluginOptions: { i18n: { localized: false } } };

/** Values the enumerations hold (Strapi names them `in_stock`, `Out_of_stock`, ...). */
export const STOCK = ['in-stock', 'Out of stock', 'pre_order'] as const;
export const UNITS = ['mm', 'cm', 'in'] as const;

const components: Record<string, Json> = {
  'product-parts.spec-line': { attributes: { label: { type: 'string' }, amount: { type: 'float' }, unit: { type: 'enumeration', enum: [...UNITS] } } },
  'product-parts.spec-group': {
    attributes: {
      title: { type: 'string' },
      lines: { type: 'component', repeatable: true, component: 'product-parts.spec-line' },
      icon: { type: 'media', multiple: false, allowedTypes: ['images', 'files'] },
    },
  },
  'page-blocks.hero-banner': { attributes: { heading: { type: 'string' }, image: { type: 'media', multiple: false, allowedTypes: ['images', 'files'] } } },
  'page-blocks.call-to-action': {
    attributes: {
      label: { type: 'string' }, url: { type: 'string' }, target: { type: 'relation', relation: 'oneToOne', target: 'api::person.person' },
      links: { type: 'relation', relation: 'oneToMany', target: 'api::tag.tag' },
    },
  },
};

const blogPost = collection('blog-post', 'blog-posts', {
  title: { type: 'string', required: true, ...localized },
  slug: { type: 'uid', targetField: 'title' },
  body: { type: 'richtext', ...localized },
  content: { type: 'blocks', ...localized },
  summary: { type: 'text', ...localized },
  contactEmail: { type: 'email', ...shared },
  stock: { type: 'enumeration', enum: [...STOCK], ...shared },
  views: { type: 'integer', ...shared },
  bigViews: { type: 'biginteger', ...shared },
  price: { type: 'decimal', ...shared },
  rating: { type: 'float', ...shared },
  featured: { type: 'boolean', ...shared },
  publishDate: { type: 'date', ...shared },
  readTime: { type: 'time', ...shared },
  scheduledAt: { type: 'datetime', ...shared },
  meta: { type: 'json', ...shared },
  secret: { type: 'password', ...shared },
  internalNote: { type: 'string', private: true, ...shared },
  cover: { type: 'media', multiple: false, allowedTypes: ['images', 'files'], ...shared },
  gallery: { type: 'media', multiple: true, allowedTypes: ['images', 'files'], ...shared },
  author: { type: 'relation', relation: 'manyToOne', target: 'api::person.person', inversedBy: 'posts' },
  tags: { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag', inversedBy: 'blogPosts' },
  relatedVariant: { type: 'relation', relation: 'oneToOne', target: 'api::product-variant.product-variant' },
  seeAlso: { type: 'relation', relation: 'manyToMany', target: 'api::blog-post.blog-post' },
  reviewer: { type: 'relation', relation: 'manyToOne', target: 'plugin::users-permissions.user' },
  specs: { type: 'component', repeatable: true, component: 'product-parts.spec-group', ...shared },
  sections: { type: 'dynamiczone', components: ['page-blocks.hero-banner', 'page-blocks.call-to-action'], ...shared },
}, { draftAndPublish: true, localized: true });

const person = collection('person', 'people', {
  name: { type: 'string', required: true },
  email: { type: 'email' },
  age: { type: 'integer' },
  posts: { type: 'relation', relation: 'oneToMany', target: 'api::blog-post.blog-post', mappedBy: 'author' },
  badge: { type: 'relation', relation: 'oneToOne', target: 'api::tag.tag', inversedBy: 'holder' },
});

const tag = collection('tag', 'tags', {
  label: { type: 'string', unique: true },
  blogPosts: { type: 'relation', relation: 'manyToMany', target: 'api::blog-post.blog-post', mappedBy: 'tags' },
  holder: { type: 'relation', relation: 'oneToOne', target: 'api::person.person', mappedBy: 'badge' },
});

const productVariant = collection('product-variant', 'product-variants', {
  sku: { type: 'string', required: true },
  stock: { type: 'enumeration', enum: [...STOCK] },
  weight: { type: 'decimal' },
  spec: { type: 'component', repeatable: false, component: 'product-parts.spec-group' },
  owners: { type: 'relation', relation: 'oneToMany', target: 'api::person.person' },
}, { draftAndPublish: true });

const siteSetting = collection('site-setting', 'site-settings', {
  siteName: { type: 'string', ...localized },
  footer: { type: 'component', repeatable: false, component: 'product-parts.spec-line', ...shared },
  hero: { type: 'dynamiczone', components: ['page-blocks.hero-banner'], ...shared },
}, { kind: 'singleType', localized: true });

/** Writes the project folder and returns its root. */
export const writeDifferentialProject = (): Promise<string> =>
  writeProject({ types: { 'blog-post': blogPost, person, tag, 'product-variant': productVariant, 'site-setting': siteSetting }, components });

/** The seeded documents' ids. */
export interface Seeded {
  readonly files: number[];
  readonly people: string[];
  readonly tags: string[];
  readonly variants: string[];
  readonly posts: string[];
}

/** Seeds the model through REST only: uploads, people, tags, variants, posts (en, one fr, one draft only), two users, the single type. */
export async function seedDifferential(server: TestServer, token: string): Promise<Seeded> {
  const call = async (method: string, path: string, data: unknown): Promise<Json> => {
    const res = await server.request(path, { method, token, json: { data } });
    const body = (await res.json()) as { data: Json };
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(body)}`);
    return body.data;
  };
  const upload = async (file: string, type: string): Promise<number> => {
    const form = new FormData();
    form.append('files', new Blob([readFileSync(join(STRAPI_FIXTURES_DIR, file))], { type }), file);
    const res = await server.request('/api/upload', { method: 'POST', token, body: form });
    const [made] = (await res.json()) as Json[];
    if (!made) throw new Error(`upload ${file}: ${res.status}`);
    return Number(made.id);
  };
  const id = (d: Json): string => String(d.documentId);
  const files = [await upload('red-400x300.png', 'image/png'), await upload('notes.txt', 'text/plain'), await upload('blue-64x48.jpg', 'image/jpeg')];
  const tags: string[] = [];
  for (const label of ['alpha', 'beta', 'gamma', 'delta']) tags.push(id(await call('POST', '/api/tags', { label })));
  const people: string[] = [];
  for (const [i, name] of ['Ada', 'Brian', 'Chloé', 'Dmitri'].entries()) {
    people.push(id(await call('POST', '/api/people', { name, email: `${name.toLowerCase()}@example.com`, age: 20 + i * 7, badge: tags[i] })));
  }
  const spec = (title: string, n: number) => ({ title, icon: files[1], lines: Array.from({ length: n }, (_, i) => ({ label: `${title}-${i}`, amount: i + 0.5, unit: UNITS[i % 3] })) });
  const variants: string[] = [];
  for (const [i, sku] of ['SKU-1', 'SKU-2', 'SKU-3'].entries()) {
    variants.push(id(await call('POST', `/api/product-variants${i === 2 ? '?status=draft' : ''}`, { sku, stock: STOCK[i], weight: 1.25 * (i + 1), spec: spec(`v${i}`, i + 1), owners: people.slice(0, i + 1) })));
  }
  const paragraph = (text: string) => [{ type: 'paragraph', children: [{ type: 'text', text }] }];
  const posts: string[] = [];
  const base = (i: number): Json => ({
    title: `Post ${i}`, body: `# Heading ${i}\n\nSome *markdown*.`, content: paragraph(`block ${i}`), summary: `Summary ${i % 3}`,
    contactEmail: `post${i}@example.com`, stock: STOCK[i % 3], views: i * 10, bigViews: String(9_000_000_000 + i), price: 9.99 + i, rating: i / 4,
    featured: i % 2 === 0, publishDate: `2024-0${1 + (i % 9)}-15`, readTime: `0${i % 10}:30:00.000`, scheduledAt: `2024-06-0${1 + (i % 9)}T10:00:00.000Z`,
    meta: { n: i, list: [i, 'x'], nested: { ok: i % 2 === 0 } }, secret: `secret-${i}`, internalNote: `note ${i}`,
    cover: files[i % 3], gallery: i % 2 === 0 ? [files[0], files[2]] : [], author: people[i % 4], tags: tags.slice(0, i % 4),
    relatedVariant: i < 2 ? variants[i] : null, specs: [spec(`p${i}a`, 2), spec(`p${i}b`, 1)],
    sections: [
      { __component: 'page-blocks.hero-banner', heading: `Hero ${i}`, image: files[0] },
      { __component: 'page-blocks.call-to-action', label: `Go ${i}`, url: `https://example.com/${i}`, target: people[(i + 1) % 4], links: tags.slice(i % 2, 4) },
    ],
  });
  for (let i = 0; i < 6; i++) posts.push(id(await call('POST', '/api/blog-posts', base(i))));
  await call('PUT', `/api/blog-posts/${posts[0]}?locale=fr`, { ...base(0), title: 'Billet 0', summary: 'Résumé', slug: 'billet-0' });
  await call('PUT', `/api/blog-posts/${posts[1]}?status=draft`, { title: 'Post 1 (edited draft)' });
  posts.push(id(await call('POST', '/api/blog-posts?status=draft', { ...base(6), title: 'Draft only' })));
  const users: string[] = [];
  for (const username of ['ursula', 'victor']) {
    const res = await server.request('/api/auth/local/register', { method: 'POST', json: { username, email: `${username}@example.com`, password: 'Passw0rd!' } });
    if (!res.ok) throw new Error(`register ${username}: ${res.status} ${await res.text()}`);
    users.push(String(((await res.json()) as { user: Json }).user.documentId));
  }
  // A self relation and a relation to users, on the published en versions.
  await call('PUT', `/api/blog-posts/${posts[2]}`, { seeAlso: [posts[0], posts[3]], reviewer: users[0] });
  await call('PUT', `/api/blog-posts/${posts[3]}`, { seeAlso: [posts[2]], reviewer: users[1] });
  await call('PUT', '/api/site-setting', { siteName: 'Hearth test', footer: { label: 'f', amount: 1, unit: 'cm' }, hero: [{ __component: 'page-blocks.hero-banner', heading: 'Welcome', image: files[2] }] });
  return { files, people, tags, variants, posts };
}
