import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// renderer/ has its own tsconfig: loaded by path, with the few signatures the test uses.
type Attribute = Record<string, unknown> & { type: string };
type Schema = { info: { displayName: string }; options?: Record<string, unknown>; pluginOptions?: Record<string, unknown>; attributes: Record<string, Attribute> };
interface Column {
  id: string;
  label: string;
  kind: string;
  sortable: boolean;
  labelField?: string | null;
}
interface ListView {
  availableColumns(schema: Schema, target: (uid: string) => Schema | undefined): Column[];
  defaultColumnIds(schema: Schema): string[];
  populateFor(columns: readonly Column[]): Record<string, unknown> | null;
}
const listView = (await import(resolve(import.meta.dirname, '../../renderer/features/content/list-view.ts'))) as ListView;

const category: Schema = { info: { displayName: 'Category' }, attributes: { name: { type: 'string' } } };
const article: Schema = {
  info: { displayName: 'Article' },
  options: { draftAndPublish: true },
  pluginOptions: { i18n: { localized: true } },
  attributes: {
    title: { type: 'string' },
    body: { type: 'blocks' },
    secret: { type: 'string', private: true },
    views: { type: 'integer' },
    cover: { type: 'media', multiple: false },
    category: { type: 'relation', relation: 'manyToOne', target: 'api::category.category' },
    seo: { type: 'component', component: 'shared.seo' },
  },
};
const lookup = (uid: string) => (uid === 'api::category.category' ? category : undefined);

describe('list columns', () => {
  it('offers short fields, media, relations (with the target main field), system columns, status and locales', () => {
    const columns = listView.availableColumns(article, lookup);
    expect(columns.map((c) => [c.id, c.kind, c.sortable])).toEqual([
      ['title', 'field', true],
      ['views', 'field', true],
      ['cover', 'media', false],
      ['category', 'relation', false],
      ['id', 'system', true],
      ['documentId', 'system', false],
      ['createdAt', 'system', true],
      ['updatedAt', 'system', true],
      ['status', 'status', false],
      ['locale', 'locale', false],
    ]);
    expect(columns.find((c) => c.id === 'category')?.labelField).toBe('name');
    expect(listView.defaultColumnIds(article)).toEqual(['title', 'views', 'status', 'locale', 'updatedAt']);
    expect(listView.defaultColumnIds(category)).toEqual(['name', 'updatedAt']);
  });

  it('populates only the relation and media columns shown, relations by their main field', () => {
    const columns = listView.availableColumns(article, lookup);
    expect(listView.populateFor(columns.filter((c) => ['title', 'cover', 'category'].includes(c.id)))).toEqual({ cover: true, category: { fields: ['name'] } });
    expect(listView.populateFor(columns.filter((c) => c.id === 'title'))).toBeNull();
  });
});
