import { GraphQLError, parse, validate, type DocumentNode, type GraphQLSchema, type ValidationRule } from 'graphql';

/**
 * Parsed and validated operations by their query text, as Apollo Server's document store keeps
 * them: a client sends the same few query texts again and again, and parsing and validating one
 * cost more than running it. Only documents that passed validation are kept, so a syntax or
 * validation error is found, and answered, exactly as without the cache. Validation depends on
 * the schema and on the locale codes (`I18NLocaleCode` literals are checked against them), so a
 * new schema or another set of codes empties the cache. Bounded by entries and by the total length
 * of the texts kept (the oldest read goes first).
 */
/** A query text parsed: its document (a kept one when the text was validated before), or its syntax error. */
export type ParsedDocument = { readonly kind: 'parsed'; readonly text: string; readonly document: DocumentNode } | { readonly kind: 'syntax'; readonly error: GraphQLError };

/** A parsed document validated: `memo` holds what later steps derive from the document alone (its cost when it has no variables), kept with it. */
export type CheckedDocument =
  | { readonly kind: 'valid'; readonly document: DocumentNode; readonly memo: Map<string, unknown> }
  | { readonly kind: 'invalid'; readonly errors: readonly GraphQLError[] };

export interface DocumentCacheLimits {
  /** Most documents kept. */
  readonly entries: number;
  /** Most characters of query text kept, all documents together; a longer text is checked every time. */
  readonly chars: number;
}

interface Kept {
  readonly document: DocumentNode;
  readonly memo: Map<string, unknown>;
}

export function createDocumentCache(args: { readonly rules: readonly ValidationRule[]; readonly limits: DocumentCacheLimits }) {
  const { rules, limits } = args;
  const kept = new Map<string, Kept>();
  let chars = 0;
  let against: { schema: GraphQLSchema; codes: string } | null = null;

  const keep = (text: string, document: DocumentNode): Kept => {
    const entry = { document, memo: new Map<string, unknown>() };
    if (text.length > limits.chars) return entry;
    while (kept.size > 0 && (kept.size >= limits.entries || chars + text.length > limits.chars)) {
      const oldest = kept.keys().next().value as string;
      kept.delete(oldest);
      chars -= oldest.length;
    }
    kept.set(text, entry);
    chars += text.length;
    return entry;
  };

  return {
    /** The document of a query text: the kept one, else parsed (a syntax error is GraphQLError's, as `parse` throws it). */
    parse(text: string): ParsedDocument {
      const hit = kept.get(text);
      if (hit) return { kind: 'parsed', text, document: hit.document };
      try {
        return { kind: 'parsed', text, document: parse(text) };
      } catch (err) {
        if (err instanceof GraphQLError) return { kind: 'syntax', error: err };
        throw err;
      }
    },
    /**
     * A parsed document checked against `schema`, `codes` being the locale codes its
     * `I18NLocaleCode` scalar accepts (in a stable order): the kept answer when this text passed
     * against the same schema and codes, else graphql-js's `validate` (a valid document is kept).
     */
    validate(schema: GraphQLSchema, codes: readonly string[], parsed: { readonly text: string; readonly document: DocumentNode }): CheckedDocument {
      const codesKey = codes.join('\n');
      if (against === null || against.schema !== schema || against.codes !== codesKey) {
        kept.clear();
        chars = 0;
        against = { schema, codes: codesKey };
      }
      const hit = kept.get(parsed.text);
      if (hit) {
        // Most recently read last: the oldest read is dropped first.
        kept.delete(parsed.text);
        kept.set(parsed.text, hit);
        return { kind: 'valid', ...hit };
      }
      const errors = validate(schema, parsed.document, rules);
      if (errors.length > 0) return { kind: 'invalid', errors };
      return { kind: 'valid', ...keep(parsed.text, parsed.document) };
    },
    /** Documents kept now (tests). */
    size: (): number => kept.size,
  };
}

export type DocumentCache = ReturnType<typeof createDocumentCache>;
