import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { collection, expectJson, writeProject, type Doc } from '../helpers/project.js';
import { fixture } from '../uploads/helpers.js';
import { adminRequest, registerOwner } from './helpers.js';

let server: TestServer;
let admin: ReturnType<typeof adminRequest>;
let session: string;

type File = { id: number; name: string; url: string; formats: Record<string, { url: string }> | null } & Record<string, unknown>;

beforeAll(async () => {
  const schemas = await writeProject({
    types: {
      article: collection(
        'article',
        'articles',
        {
          title: { type: 'string' },
          cover: { type: 'media', multiple: false, allowedTypes: ['images'] },
          body: { type: 'blocks' },
          notes: { type: 'richtext' },
          seo: { type: 'component', repeatable: false, component: 'shared.seo' },
          sections: { type: 'dynamiczone', components: ['shared.text', 'shared.seo'] },
        },
        { draftAndPublish: true },
      ),
    },
    components: {
      'shared.seo': { attributes: { metaTitle: { type: 'string' }, intro: { type: 'blocks' } } },
      'shared.text': { attributes: { md: { type: 'richtext' }, content: { type: 'blocks' } } },
    },
  });
  server = await startTestServer({ schemas });
  session = await registerOwner(server);
  admin = adminRequest(server, session);
});
afterAll(() => server.close());

async function upload(name: string, bytes: Buffer, type: string): Promise<File> {
  const form = new FormData();
  form.append('files', new Blob([bytes], { type }), name);
  const [file] = await expectJson<File[]>(await server.request('/api/upload', { method: 'POST', body: form, token: session }), 201);
  if (!file) throw new Error('no file');
  return file;
}

const IMAGE_FIELDS = ['name', 'alternativeText', 'url', 'caption', 'width', 'height', 'formats', 'hash', 'ext', 'mime', 'size', 'previewUrl', 'provider', 'provider_metadata', 'createdAt', 'updatedAt'];
/** A blocks image node as Strapi's editor writes it (the file object; `url` may be replaced, `id` left out). */
function imageNode(file: File, change: { url?: string; withId?: boolean } = {}) {
  const image: Record<string, unknown> = Object.fromEntries(IMAGE_FIELDS.map((k) => [k, file[k]]));
  if (change.withId !== false) image.id = file.id;
  if (change.url) image.url = change.url;
  return { type: 'image', image, children: [{ type: 'text', text: '' }] };
}
const paragraph = (text: string) => ({ type: 'paragraph', children: [{ type: 'text', text }] });

async function create(data: Record<string, unknown>): Promise<Doc> {
  return (await expectJson<{ data: Doc }>(await server.request('/api/articles', { method: 'POST', token: session, json: { data } }), 201)).data;
}
const whereUsed = async (file: File) => (await expectJson<{ data: unknown[] }>(await admin(`/admin/api/upload/files/${file.id}/where-used`), 200)).data;
/** One row of the answer (the draft and published versions of a document count once). */
const usage = (doc: Doc, field: string) => ({ uid: 'api::article.article', documentId: doc.documentId, locale: null, field, displayName: 'article', title: doc.title });

describe('where-used of files inside blocks and rich text', () => {
  it('counts image nodes of blocks and urls in rich text, in attributes, components and dynamic zones, and nothing that only looks alike', async () => {
    const red = await upload('red.png', fixture('red-400x300.png'), 'image/png');
    const blue = await upload('blue.jpg', fixture('blue-64x48.jpg'), 'image/jpeg');
    const thumbnail = red.formats?.thumbnail?.url;
    if (!thumbnail) throw new Error('red.png has no thumbnail');
    // Files whose ids start with red's (red 1 -> 10..19): an image node of one of them holds `"id":1` as a prefix.
    const others: File[] = [];
    while (others.length === 0 || !others.some((f) => String(f.id).startsWith(String(red.id)) && f.id !== red.id)) {
      others.push(await upload(`other-${others.length}.jpg`, fixture('blue-64x48.jpg'), 'image/jpeg'));
    }
    const lookalike = others.at(-1);
    if (!lookalike) throw new Error('no look-alike');

    const walk = await create({ title: 'Harbour walk', body: [paragraph('Above the harbour:'), imageNode(red), paragraph('end')], seo: { metaTitle: 'walk', intro: [imageNode(red)] } });
    const markdown = await create({ title: 'Markdown', notes: `Intro\n\n![small](${thumbnail})\n` });
    const zone = await create({
      title: 'Zone',
      sections: [
        { __component: 'shared.text', md: `See ![blue](${blue.url}).`, content: [paragraph('x')] },
        // Strapi's editor prefixes the backend URL and a node may carry no id: the url alone counts.
        { __component: 'shared.text', content: [imageNode(red, { url: `http://localhost:1337${red.url}`, withId: false })] },
      ],
    });
    const cover = await create({ title: 'Cover', cover: blue.id });
    // Look-alikes: red's url as plain text of a blocks paragraph, and another file's image node.
    const decoy = await create({ title: 'Decoy', body: [paragraph(`The file is at ${red.url} and ${thumbnail}`), imageNode(lookalike)] });

    expect(await whereUsed(red)).toEqual(
      [usage(walk, 'body'), usage(walk, 'seo.intro'), usage(markdown, 'notes'), usage(zone, 'sections.content')].sort((a, b) =>
        `${a.documentId}\u0000${a.field}` < `${b.documentId}\u0000${b.field}` ? -1 : 1,
      ),
    );
    expect(await whereUsed(blue)).toEqual([usage(cover, 'cover'), usage(zone, 'sections.md')].sort((a, b) => (a.documentId < b.documentId ? -1 : 1)));
    expect(await whereUsed(lookalike)).toEqual([usage(decoy, 'body')]);

    // Removing the image from the body leaves the component's.
    await expectJson(await server.request(`/api/articles/${walk.documentId}`, { method: 'PUT', token: session, json: { data: { body: [paragraph('no image')] } } }), 200);
    expect(await whereUsed(red)).toContainEqual(usage(walk, 'seo.intro'));
    expect(await whereUsed(red)).not.toContainEqual(usage(walk, 'body'));
  });
});
