import { GraphQLObjectType, GraphQLSchema, GraphQLString, specifiedRules, type ASTVisitor, type DocumentNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { createDocumentCache } from '../../server/graphql/document-cache.js';

/** The GraphQL document cache (issue 18): what it keeps, for how long, and what empties it. */
const schemaOf = () => new GraphQLSchema({ query: new GraphQLObjectType({ name: 'Query', fields: { a: { type: GraphQLString }, b: { type: GraphQLString } } }) });

const documentOf = (cache: ReturnType<typeof createDocumentCache>, schema: GraphQLSchema, text: string, codes: readonly string[] = ['en']): DocumentNode => {
  const parsed = cache.parse(text);
  if (parsed.kind !== 'parsed') throw new Error(`syntax error in ${text}`);
  const checked = cache.validate(schema, codes, parsed);
  if (checked.kind !== 'valid') throw new Error(`invalid: ${text}`);
  return checked.document;
};

describe('GraphQL document cache', () => {
  it('answers a kept text with the same document', () => {
    const cache = createDocumentCache({ rules: specifiedRules, limits: { entries: 10, chars: 1000 } });
    const schema = schemaOf();
    const first = documentOf(cache, schema, '{ a }');
    expect(documentOf(cache, schema, '{ a }')).toBe(first);
    expect(cache.size()).toBe(1);
  });

  it('keeps neither a syntax error nor an invalid document, and answers them the same again', () => {
    const cache = createDocumentCache({ rules: specifiedRules, limits: { entries: 10, chars: 1000 } });
    const schema = schemaOf();
    const syntax = cache.parse('{ a');
    expect(syntax.kind).toBe('syntax');
    expect(cache.parse('{ a')).toEqual(syntax);
    const parsed = cache.parse('{ nope }');
    if (parsed.kind !== 'parsed') throw new Error('parsed');
    const invalid = cache.validate(schema, ['en'], parsed);
    expect(invalid.kind).toBe('invalid');
    expect(cache.validate(schema, ['en'], parsed)).toEqual(invalid);
    expect(cache.size()).toBe(0);
  });

  it('drops the least recently read text past its entries or characters, and never keeps a text longer than them all', () => {
    const cache = createDocumentCache({ rules: specifiedRules, limits: { entries: 2, chars: 20 } });
    const schema = schemaOf();
    const a = documentOf(cache, schema, '{ a }');
    documentOf(cache, schema, '{ b }');
    documentOf(cache, schema, '{ a }'); // read again: '{ b }' is now the oldest
    documentOf(cache, schema, '{ a b }');
    expect(cache.size()).toBe(2);
    expect(documentOf(cache, schema, '{ a }')).toBe(a);
    documentOf(cache, schema, '{ a: a b: b c: a }'); // 18 characters: the others go
    expect(cache.size()).toBe(1);
    documentOf(cache, schema, `{ ${'a '.repeat(20)}}`);
    expect(cache.size()).toBe(1);
  });

  it('validates a kept text again for another schema or other locale codes', () => {
    let validations = 0;
    const counting = (): ASTVisitor => ({ Document: () => void (validations += 1) });
    const cache = createDocumentCache({ rules: [...specifiedRules, counting], limits: { entries: 10, chars: 1000 } });
    const schema = schemaOf();
    documentOf(cache, schema, '{ a }');
    documentOf(cache, schema, '{ a }');
    expect(validations).toBe(1);
    documentOf(cache, schema, '{ a }', ['en', 'fr']);
    documentOf(cache, schema, '{ a }', ['en', 'fr']);
    expect(validations).toBe(2);
    documentOf(cache, schemaOf(), '{ a }', ['en', 'fr']);
    expect(validations).toBe(3);
    expect(cache.size()).toBe(1);
  });
});
