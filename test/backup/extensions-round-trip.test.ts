import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collection, dataOf, expectJson, writeProject } from '../helpers/project.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { exportTo, importFrom, treeOf } from './helpers.js';
import { fileExtension, STRAPI_FILE_ATTRIBUTES, STRAPI_USER_ATTRIBUTES, userExtension } from '../helpers/strapi-plugin-schemas.js';

/**
 * A project that extends plugin types (`src/extensions/users-permissions/content-types/user` with
 * a `job` and the `reviews` a review's `author` points back to, `src/extensions/upload/content-types/file`
 * with a `credit` and a `license`): its extension files travel in the archive beside the other
 * schemas, and the values of the extra columns and link tables with the tables, so the restored
 * data dir serves the same answers. Runs the compiled CLI.
 */

const UP = 'plugin::users-permissions';

const USER_EXTENSION = userExtension({
  ...STRAPI_USER_ATTRIBUTES,
  reviews: { type: 'relation', relation: 'oneToMany', target: 'api::review.review', mappedBy: 'author' },
  job: { type: 'string' },
});

const FILE_EXTENSION = fileExtension({
  ...STRAPI_FILE_ATTRIBUTES,
  credit: { type: 'string' },
  license: { type: 'enumeration', enum: ['cc-by', 'cc0'], default: 'cc-by' },
});

async function writeExtension(root: string, plugin: string, name: string, schema: unknown): Promise<void> {
  const dir = join(root, 'src', 'extensions', plugin, 'content-types', name);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'schema.json'), JSON.stringify(schema, null, 2));
}

const READS = ['/api/users?populate[0]=reviews&sort=id', '/api/reviews?populate[author]=true&populate[photo]=true&sort=id', '/api/upload/files?sort=id'];

let root: string;
let project: string;
let token: string;
let before: Record<string, string>;

async function capture(server: TestServer): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const path of READS) {
    const res = await server.request(path, { token });
    out[path] = `${res.status} ${await res.text()}`;
  }
  return out;
}

async function seed(server: TestServer): Promise<void> {
  token = await server.token('full-access');
  const form = new FormData();
  form.append('files', new Blob(['a photo'], { type: 'text/plain' }), 'photo.txt');
  const [file] = await expectJson<{ id: number }[]>(await server.request('/api/upload', { method: 'POST', token, body: form }), 201);
  const fileId = file?.id ?? 0;
  await server.server.services.database.db.updateTable<string>('hearth_files').set({ credit: 'Ann Example', license: 'cc0' }).where('id', '=', fileId).execute();
  const review = await dataOf(await server.request('/api/reviews', { method: 'POST', token, json: { data: { content: 'Great soup', photo: fileId } } }), 201);
  const { roles } = await expectJson<{ roles: { id: number; type: string }[] }>(await server.request('/api/users-permissions/roles', { token }), 200);
  const role = roles.find((r) => r.type === 'authenticated')?.id;
  await expectJson(
    await server.request('/api/users', { method: 'POST', token, json: { username: 'chef', email: 'chef@example.com', password: 'chef-pass', role, job: 'cook', reviews: [review.id] } }),
    201,
  );
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'hearth-backup-extensions-'));
  project = await writeProject(
    {
      types: {
        review: collection('review', 'reviews', {
          content: { type: 'text' },
          photo: { type: 'media', multiple: false },
          author: { type: 'relation', relation: 'manyToOne', target: `${UP}.user`, inversedBy: 'reviews' },
        }),
      },
    },
    join(root, 'project'),
  );
  await writeExtension(project, 'users-permissions', 'user', USER_EXTENSION);
  await writeExtension(project, 'upload', 'file', FILE_EXTENSION);
  const source = await startTestServer({ dataDir: join(root, 'source'), schemas: project });
  try {
    await seed(source);
    before = await capture(source);
  } finally {
    await source.close();
  }
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('hearth export and import of a project that extends plugin types', () => {
  it('carries the extension schemas in the archive, and the extra values with the tables', async () => {
    expect(before['/api/users?populate[0]=reviews&sort=id']).toContain('"job":"cook"');
    expect(before['/api/upload/files?sort=id']).toContain('"credit":"Ann Example","license":"cc0"');
    const archive = join(root, 'site.tar.gz');
    expect(await exportTo(join(root, 'source'), archive)).toMatchObject({ code: 0, stdout: '' });
    const target = join(root, 'restored');
    expect(await importFrom(archive, target)).toMatchObject({ code: 0, stdout: '', stderr: expect.stringMatching(/^imported /) });
    const schemaFiles = await treeOf(join(target, 'schema'));
    expect(Object.keys(schemaFiles).sort()).toEqual([
      'src/api/review/content-types/review/schema.json',
      'src/extensions/upload/content-types/file/schema.json',
      'src/extensions/users-permissions/content-types/user/schema.json',
    ]);
    const original = await treeOf(project);
    for (const [file, hash] of Object.entries(schemaFiles)) expect(hash).toBe(original[file]);
    const restored = await startTestServer({ dataDir: target, schemas: join(target, 'schema') });
    try {
      expect(await capture(restored)).toEqual(before);
    } finally {
      await restored.close();
    }
  });
});
