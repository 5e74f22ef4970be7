import { lookupField } from '../schema/fields.js';
import type { Model, ScalarType } from '../schema/types.js';
import type { Row } from '../db/database.js';

/** Converts one stored value to Strapi's wire format for its type. */
export function outputValue(type: ScalarType, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'boolean':
      return value === true || value === 1 || value === '1';
    case 'biginteger':
    case 'timestamp':
      return String(value);
    case 'integer':
    case 'float':
    case 'decimal':
      return typeof value === 'number' ? value : Number(value);
    case 'json':
    case 'blocks':
      return typeof value === 'string' ? JSON.parse(value) : value;
    default:
      return typeof value === 'string' ? value : String(value);
  }
}

const defaults = new WeakMap<Model, readonly string[]>();

/**
 * The fields a response shows when `fields` is not given: `id`, `documentId`, every public scalar
 * attribute in schema order, the timestamps, and `locale` on localized types — Strapi's column order.
 * One frozen list per model, so the serialisation plan below is found by identity.
 */
export function defaultFields(model: Model): readonly string[] {
  const known = defaults.get(model);
  if (known) return known;
  const fields = model.modelType === 'contentType' ? ['id', 'documentId'] : ['id'];
  for (const attr of model.attributes.values()) {
    if (attr.kind === 'scalar' && !attr.private && attr.type !== 'password') fields.push(attr.name);
  }
  if (model.modelType === 'contentType') {
    fields.push('createdAt', 'updatedAt', 'publishedAt');
    if (model.localized) fields.push('locale');
  }
  const frozen = Object.freeze(fields);
  defaults.set(model, frozen);
  return frozen;
}

type Convert = (value: unknown) => unknown;
type Plan = readonly (readonly [string, Convert])[];

const converters = new Map<ScalarType, Convert>();
/** outputValue for one type, chosen once per plan entry rather than switched on per value. */
function converter(type: ScalarType): Convert {
  let convert = converters.get(type);
  if (!convert) {
    switch (type) {
      case 'integer':
      case 'float':
      case 'decimal':
        convert = (value) => (typeof value === 'number' ? value : outputValue(type, value));
        break;
      case 'json':
      case 'blocks':
        convert = (value) => outputValue(type, value);
        break;
      default:
        // Text-like types arrive as strings: returned as they are (null and others through outputValue).
        convert = outputValue(type, 'x') === 'x' ? (value) => (typeof value === 'string' ? value : outputValue(type, value)) : (value) => outputValue(type, value);
    }
    converters.set(type, convert);
  }
  return convert;
}

/** Per-model list of (field, type) to serialise, cached: the hot path of every response. */
const plans = new WeakMap<Model, Map<string, Plan>>();
/** The same plans by the identity of the field list (a query's list, or a model's default list). */
const plansByList = new WeakMap<Model, WeakMap<readonly string[], Plan>>();

function plan(model: Model, fields: readonly string[]): Plan {
  let byList = plansByList.get(model);
  if (!byList) {
    byList = new WeakMap();
    plansByList.set(model, byList);
  }
  const known = byList.get(fields);
  if (known) return known;
  let byKey = plans.get(model);
  if (!byKey) {
    byKey = new Map();
    plans.set(model, byKey);
  }
  const key = fields.join('\u0000');
  let result = byKey.get(key);
  if (!result) {
    result = fields.map((name) => {
      const field = lookupField(model, name);
      return [name, converter(field?.kind === 'scalar' ? field.type : 'string')] as const;
    });
    byKey.set(key, result);
  }
  byList.set(fields, result);
  return result;
}

/** Serialises a row's scalar fields, in `fields` order. */
export function serializeRow(model: Model, row: Row, fields: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, convert] of plan(model, fields)) out[name] = convert(row[name]);
  return out;
}
