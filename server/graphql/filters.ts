import { GraphQLBoolean, GraphQLID, GraphQLInputObjectType, GraphQLList, type GraphQLInputFieldConfigMap, type GraphQLInputType, type GraphQLScalarType } from 'graphql';
import { FILTER_OPERATORS } from './names.js';

/** `StringFilterInput` and its siblings: the 22 operators over one scalar (`null`/`notNull` are Boolean). */
export function scalarFilterInput(scalar: GraphQLScalarType, name = `${scalar.name}FilterInput`): GraphQLInputObjectType {
  const self: GraphQLInputObjectType = new GraphQLInputObjectType({
    name,
    fields: () => {
      const fields: GraphQLInputFieldConfigMap = {};
      for (const op of FILTER_OPERATORS) {
        let type: GraphQLInputType = scalar;
        if (op === 'and' || op === 'or' || op === 'in' || op === 'notIn' || op === 'between') type = new GraphQLList(scalar);
        else if (op === 'not') type = self;
        else if (op === 'null' || op === 'notNull') type = GraphQLBoolean;
        fields[op] = { type };
      }
      return fields;
    },
  });
  return self;
}

export const idFilterInput = (): GraphQLInputObjectType => scalarFilterInput(GraphQLID, 'IDFilterInput');

const OPERATORS: ReadonlySet<string> = new Set(FILTER_OPERATORS);

/**
 * GraphQL filters (`{ title: { eq: "x" }, or: [...] }`) as the REST query string's
 * (`{ title: { $eq: "x" }, $or: [...] }`): the one parser in `query/` reads both.
 */
export function toRestFilters(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toRestFilters);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) out[OPERATORS.has(key) ? `$${key}` : key] = toRestFilters(v);
  return out;
}
