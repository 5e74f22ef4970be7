import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// renderer/ is checked by its own tsconfig (bundler resolution, DOM): loaded by path, so the server's
// tsconfig does not compile browser code. These are the few signatures the tests use.
type Attribute = Record<string, unknown> & { type: string };
type Schema = { info: { displayName: string }; attributes: Record<string, Attribute> };
type Lookup = (uid: string) => Schema | undefined;
interface Validation {
  validateForm(args: { schema: Schema; values: Record<string, unknown>; lookup: Lookup; draft: boolean }): Map<string, string>;
}
interface Messages {
  humanMessage(args: { message: string; path: string[]; field: { name: string; attribute: Attribute } | null }): string;
  serverFieldErrors(args: { error: unknown; schema: Schema; values: Record<string, unknown>; lookup: Lookup }): { errors: Map<string, string>; server: Map<string, string> };
}
interface Errors {
  errorFromBody(status: number, body: unknown): unknown;
}
const content = resolve(import.meta.dirname, '../../renderer/features/content');
const validation = (await import(resolve(content, 'validation.ts'))) as Validation;
const messages = (await import(resolve(content, 'server-messages.ts'))) as Messages;
const errors = (await import(resolve(content, '../../api/errors.ts'))) as Errors;

const quote: Schema = { info: { displayName: 'Quote' }, attributes: { text: { type: 'text', required: true }, author: { type: 'string', maxLength: 5 } } };
const seo: Schema = { info: { displayName: 'Seo' }, attributes: { metaTitle: { type: 'string', maxLength: 80 } } };
const article: Schema = {
  info: { displayName: 'Article' },
  attributes: {
    title: { type: 'string', required: true, minLength: 3 },
    slug: { type: 'uid', targetField: 'title' },
    email: { type: 'email' },
    views: { type: 'integer', min: 0, max: 100 },
    code: { type: 'string', regex: '^[a-z]+$' },
    seo: { type: 'component', component: 'shared.seo', repeatable: false },
    quotes: { type: 'component', component: 'shared.quote', repeatable: true, max: 2 },
    zone: { type: 'dynamiczone', components: ['shared.quote', 'shared.seo'] },
  },
};
const lookup: Lookup = (uid) => (uid === 'shared.quote' ? quote : uid === 'shared.seo' ? seo : undefined);
const row = (values: Record<string, unknown>, component?: string) => ({ key: 'k', ...(component ? { component } : {}), values });

describe('validateForm: the browser checks Strapi\'s rules before sending', () => {
  it.each([
    ['required', { title: '' }, false, ['title', 'Title is required']],
    ['minLength', { title: 'ab' }, false, ['title', 'At least 3 characters']],
    ['uid pattern', { title: 'ok!', slug: 'a b' }, true, ['slug', 'Only letters, digits and - _ . ~']],
    ['email', { title: 'abc', email: 'nope' }, true, ['email', 'Must be a valid email']],
    ['max', { title: 'abc', views: '101' }, true, ['views', 'At most 100']],
    ['min', { title: 'abc', views: '-1' }, true, ['views', 'At least 0']],
    ['whole number', { title: 'abc', views: '1.5' }, true, ['views', 'Must be a whole number']],
    ['regex', { title: 'abc', code: 'A1' }, true, ['code', 'Must match the pattern ^[a-z]+$']],
    ['maxLength in a component', { title: 'abc', seo: { metaTitle: 'x'.repeat(81) } }, true, ['seo.metaTitle', 'At most 80 characters']],
    ['required in a repeatable component', { title: 'abc', quotes: [row({ text: 'fine' }), row({ text: '' })] }, false, ['quotes.1.text', 'Text is required']],
    ['in a dynamic-zone entry', { title: 'abc', zone: [row({ text: 'x', author: 'Longer name' }, 'shared.quote')] }, true, ['zone.0.author', 'At most 5 characters']],
    ['component count', { title: 'abc', quotes: [row({ text: 'a' }), row({ text: 'b' }), row({ text: 'c' })] }, true, ['quotes', 'At most 2 entries']],
  ])('%s', (_name, values, draft, expected) => {
    expect([...validation.validateForm({ schema: article, values, lookup, draft })]).toEqual([expected]);
  });

  it('a draft skips required and minLength, as Strapi does; valid values give nothing', () => {
    expect(validation.validateForm({ schema: article, values: { title: '' }, lookup, draft: true }).size).toBe(0);
    expect(validation.validateForm({ schema: article, values: { title: 'ab' }, lookup, draft: true }).size).toBe(0);
    expect(validation.validateForm({ schema: article, values: { title: 'Fine', slug: 'fine-1', email: 'a@b.co', views: '5', code: 'abc' }, lookup, draft: false }).size).toBe(0);
  });
});

describe('humanMessage: the server\'s yup wording in an editor\'s words', () => {
  const field = (name: string, attribute: Attribute) => ({ name, attribute });
  it.each([
    ['title must be a `string` type, but the final value was: `null`.', ['title'], field('title', { type: 'string' }), 'Title is required'],
    ['s_required must be defined.', ['s_required'], field('s_required', { type: 'string' }), 'S required is required'],
    ['slug must match the following: "/^[A-Za-z0-9-_.~]*$/"', ['slug'], field('slug', { type: 'uid' }), 'Only letters, digits and - _ . ~'],
    ['s_regex must match the following: "/^[a-z]+$/"', ['s_regex'], field('s_regex', { type: 'string', regex: '^[a-z]+$' }), 'Must match the pattern ^[a-z]+$'],
    ['s_string must be at least 2 characters', ['s_string'], null, 'At least 2 characters'],
    ['title must be at most 80 characters', ['title'], null, 'At most 80 characters'],
    ['s_int must be less than or equal to 100', ['s_int'], null, 'At most 100'],
    ['s_int must be greater than or equal to 3', ['s_int'], null, 'At least 3'],
    ['s_email must be a valid email', ['s_email'], null, 'Must be a valid email'],
    ['This attribute must be unique', ['s_unique'], null, 'Already used by another entry: must be unique'],
    ['blocks[0].text must be a `string` type, but the final value was: `5`.', ['blocks', '0', 'text'], null, 'Must be text'],
    ['quotes field must have at least 2 items', ['quotes'], null, 'At least 2 entries'],
    ['Something only the server knows', ['x'], null, 'Something only the server knows'],
  ])('%s', (message, path, at, expected) => {
    expect(messages.humanMessage({ message, path, field: at })).toBe(expected);
  });

  it('maps details.errors[].path onto the form, inside components and dynamic zones, keeping the server text', () => {
    const error = errors.errorFromBody(400, {
      data: null,
      error: {
        status: 400,
        name: 'ValidationError',
        message: '2 errors occurred',
        details: {
          errors: [
            { path: ['seo', 'metaTitle'], message: 'seo.metaTitle must be at most 80 characters', name: 'ValidationError' },
            { path: ['zone', '0', 'author'], message: 'zone[0].author must be at most 5 characters', name: 'ValidationError' },
          ],
        },
      },
    });
    const values = { seo: { metaTitle: 'x' }, zone: [row({ author: 'Longer' }, 'shared.quote')] };
    const mapped = messages.serverFieldErrors({ error, schema: article, values, lookup });
    expect([...mapped.errors]).toEqual([
      ['seo.metaTitle', 'At most 80 characters'],
      ['zone.0.author', 'At most 5 characters'],
    ]);
    expect(mapped.server.get('zone.0.author')).toBe('zone[0].author must be at most 5 characters');
  });
});
