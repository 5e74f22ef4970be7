/** A JSON Schema object as OpenAPI 3.1 carries it (JSON Schema 2020-12). */
export type JsonSchema = Readonly<Record<string, unknown>>;

/**
 * The named schemas of one document (`components.schemas`), built on first use: a schema is only
 * present when something the caller may call refers to it, so a document never describes a type
 * its reader may not reach.
 */
export interface SchemaSet {
  /** A `$ref` to the schema `name`, building it with `build` the first time (recursion-safe). */
  ref(name: string, build: () => JsonSchema): JsonSchema;
  /** Every schema built so far, by name, sorted for a stable document. */
  all(): Record<string, JsonSchema>;
}

/** An empty set of named schemas. */
export function createSchemaSet(): SchemaSet {
  const schemas = new Map<string, JsonSchema>();
  return {
    ref(name, build) {
      if (!schemas.has(name)) {
        // Claimed before building, so a type that reaches itself (a relation to its own type) ends.
        schemas.set(name, {});
        schemas.set(name, build());
      }
      return { $ref: `#/components/schemas/${name}` };
    },
    all() {
      return Object.fromEntries([...schemas.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    },
  };
}

/** `PascalCase` of a name made of words separated by `-`, `_`, `.` or `::`. */
export const pascal = (name: string): string =>
  name
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== '')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');

/** The schema as itself or null (a `type` list when the schema has one type, else `oneOf`). */
export function nullable(schema: JsonSchema): JsonSchema {
  const { type } = schema;
  if (typeof type !== 'string') return { oneOf: [schema, { type: 'null' }] };
  const values = schema.enum;
  return { ...schema, type: [type, 'null'], ...(Array.isArray(values) ? { enum: [...values, null] } : {}) };
}
