import { afterAll, beforeAll, expect } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { seedDifferential, writeDifferentialProject, type Seeded } from './differential-model.js';
import { setEnumFields, type Selection } from './differential-reshape.js';

/**
 * The differential suites' server: Hearth on the differential model (differential-model.ts),
 * locales en and fr, a full-access token, seeded through REST; and the selections they share.
 */
type Json = Record<string, unknown>;

/** Starts the server before the file's tests and closes it after; returns its request helpers. */
export function useDifferentialServer() {
  let started: { server: TestServer; token: string; seeded: Seeded } | undefined;
  beforeAll(async () => {
    const server = await startTestServer({ schemas: await writeDifferentialProject() });
    const token = await server.token('full-access');
    await server.server.services.locales.add({ code: 'fr' });
    started = { server, token, seeded: await seedDifferential(server, token) };
    setEnumFields(['stock', 'unit']);
  });
  afterAll(async () => {
    await started?.server.close();
  });
  const state = () => {
    if (!started) throw new Error('the differential server is not started');
    return started;
  };
  const gql = async (query: string, variables: Json = {}): Promise<{ status: number; body: Json }> => {
    const res = await state().server.request('/graphql', { method: 'POST', json: { query, variables }, token: state().token });
    return { status: res.status, body: (await res.json()) as Json };
  };
  /** A REST read that must answer 200. */
  const rest = async (path: string): Promise<Json> => {
    const res = await state().server.request(path, { token: state().token });
    const body = (await res.json()) as Json;
    expect({ path, status: res.status }).toEqual({ path, status: 200 });
    return body;
  };
  /** The one root field of a GraphQL answer that must have no errors. */
  const gqlRoot = async (query: string): Promise<unknown> => {
    const { status, body } = await gql(query);
    expect({ query, status, errors: body.errors }).toEqual({ query, status: 200, errors: undefined });
    return Object.values(body.data as Json)[0];
  };
  return { state, gql, rest, gqlRoot };
}

export const FILE: Selection = ['documentId', 'name', 'alternativeText', 'caption', 'focalPoint', 'width', 'height', 'formats', 'hash', 'ext', 'mime', 'size', 'url', 'previewUrl', 'provider', 'provider_metadata', 'createdAt', 'updatedAt', 'publishedAt'];
export const LINE: Selection = ['id', 'label', 'amount', 'unit'];
export const GROUP: Selection = ['id', 'title', { name: 'lines', select: LINE }, { name: 'icon', select: ['name'] }];
export const POST_SCALARS: Selection = [
  'documentId', 'title', 'slug', 'body', 'content', 'summary', 'contactEmail', 'stock', 'views', 'bigViews', 'price', 'rating', 'featured',
  'publishDate', 'readTime', 'scheduledAt', 'meta', 'createdAt', 'updatedAt', 'publishedAt', 'locale',
];
export const POST_FULL: Selection = [
  ...POST_SCALARS,
  { name: 'cover', select: FILE }, { name: 'gallery', select: FILE }, { name: 'author', select: ['documentId', 'name', 'email', 'age'] },
  { name: 'tags', select: ['documentId', 'label'] }, { name: 'relatedVariant', select: ['documentId', 'sku', 'stock', 'weight'] },
  { name: 'specs', select: GROUP },
  { zone: 'sections', on: { 'page-blocks.hero-banner': ['id', 'heading', { name: 'image', select: ['name'] }], 'page-blocks.call-to-action': ['id', 'label', 'url', { name: 'target', select: ['name'] }] } },
];
export const TITLE: Selection = ['documentId', 'title'];
