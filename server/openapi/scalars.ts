import type { ScalarAttribute } from '../schema/types.js';
import { assertNeverType } from './never.js';
import type { JsonSchema } from './schema-set.js';

/** Blocks (the rich-text editor's JSON): a list of nodes, each with a `type` and usually `children`. */
const BLOCKS: JsonSchema = {
  type: 'array',
  items: {
    type: 'object',
    required: ['type'],
    properties: { type: { type: 'string' }, children: { type: 'array', items: { type: 'object', additionalProperties: true } } },
    additionalProperties: true,
  },
};

/** Length and pattern constraints a string attribute declares. */
function stringRules(attr: ScalarAttribute): JsonSchema {
  return {
    ...(attr.minLength !== undefined ? { minLength: attr.minLength } : {}),
    ...(attr.maxLength !== undefined ? { maxLength: attr.maxLength } : {}),
    ...(attr.regex !== undefined ? { pattern: attr.regex } : {}),
  };
}

/** Bounds a number attribute declares. */
const numberRules = (attr: ScalarAttribute): JsonSchema => ({
  ...(attr.min !== undefined ? { minimum: attr.min } : {}),
  ...(attr.max !== undefined ? { maximum: attr.max } : {}),
});

/**
 * A scalar attribute's value as the content API answers it (documents/serialize.ts outputValue):
 * bigintegers and timestamps are strings, decimals numbers, times `HH:mm:ss.SSS`.
 */
export function scalarOut(attr: ScalarAttribute): JsonSchema {
  const described = attr.customField ? { description: `Custom field ${attr.customField.uid}` } : {};
  return { ...scalarOf(attr, 'out'), ...described };
}

/** A scalar attribute's value as a create or update accepts it. */
export function scalarIn(attr: ScalarAttribute): JsonSchema {
  return scalarOf(attr, 'in');
}

function scalarOf(attr: ScalarAttribute, way: 'in' | 'out'): JsonSchema {
  const input = way === 'in';
  switch (attr.type) {
    case 'string':
    case 'text':
    case 'richtext':
    case 'password':
      return { type: 'string', ...(input ? stringRules(attr) : {}) };
    case 'uid':
      return { type: 'string', ...(input ? { pattern: attr.regex ?? '^[A-Za-z0-9-_.~]*$' } : {}) };
    case 'email':
      return { type: 'string', format: 'email', ...(input ? stringRules(attr) : {}) };
    case 'enumeration':
      return { type: 'string', enum: [...(attr.enum ?? [])] };
    case 'integer':
      return { type: 'integer', ...numberRules(attr) };
    case 'float':
    case 'decimal':
      return { type: 'number', ...numberRules(attr) };
    case 'biginteger':
      return input ? { type: ['string', 'integer'], pattern: '^-?[0-9]+$' } : { type: 'string', pattern: '^-?[0-9]+$' };
    case 'boolean':
      return { type: 'boolean' };
    case 'date':
      return { type: 'string', format: 'date' };
    case 'time':
      return { type: 'string', pattern: input ? '^[0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]{1,3})?)?$' : '^[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}$' };
    case 'datetime':
      return { type: 'string', format: 'date-time' };
    case 'timestamp':
      return input ? { type: ['string', 'integer'] } : { type: 'string', description: 'Milliseconds since the epoch, as a string' };
    case 'json':
      return {};
    case 'blocks':
      return BLOCKS;
    default:
      return assertNeverType(attr.type);
  }
}
