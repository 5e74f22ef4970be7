import {
  GraphQLBoolean, GraphQLFloat, GraphQLID, GraphQLInputObjectType, GraphQLInt, GraphQLList, GraphQLNonNull, GraphQLScalarType, GraphQLString,
  valueFromASTUntyped, type GraphQLInputFieldConfigMap, type GraphQLInputType,
} from 'graphql';
import { isRecord } from '../errors/is-record.js';
import { FILE_UID, type ComponentModel, type Model } from '../schema/types.js';
import { componentTypeNameOf, dynamicZoneNameOf, scalarNameOf, typeNameOf } from './names.js';
import type { SchemaParts } from './schema-parts.js';
import { DateScalar, DateTimeScalar, JSONScalar, LongScalar, TimeScalar } from './scalars.js';

/**
 * The input types of Strapi's mutations: `ArticleInput` (every attribute optional, private ones
 * included; relations as documentIds, media as file ids), `ComponentSharedSeoInput` (with `id`, to
 * update a component in place) and a dynamic zone's input scalar (`ArticleBlocksDynamicZoneInput`,
 * items tagged with `__typename`); and the translation of a mutation's `data` to the body a REST
 * write takes.
 */

const SCALARS: Record<ReturnType<typeof scalarNameOf>, GraphQLScalarType> = {
  String: GraphQLString, Int: GraphQLInt, Long: LongScalar, Float: GraphQLFloat, Boolean: GraphQLBoolean,
  Date: DateScalar, Time: TimeScalar, DateTime: DateTimeScalar, JSON: JSONScalar,
};

type Raw = Record<string, unknown>;

const nameOf = (model: Model): string => (model.modelType === 'component' ? componentTypeNameOf(model) : typeNameOf(model));

/**
 * A dynamic zone's input: an object whose `__typename` names a component (`ComponentSharedQuote`),
 * read as REST's `{ __component: 'shared.quote', ...fields }`. A name that is no component is
 * Strapi's `Component not found` (a 400 before anything runs); a component the zone does not allow
 * is accepted here and left out of the write (restData), as Strapi does.
 */
function dynamicZoneInput(parts: SchemaParts, typeName: string, attribute: string, uids: readonly string[]): GraphQLScalarType {
  const name = `${dynamicZoneNameOf(typeName, attribute)}Input`;
  const known = parts.named(name);
  if (known instanceof GraphQLScalarType) return known;
  const allowed = uids.map((uid) => parts.registry.component(uid)).filter((c): c is ComponentModel => c !== undefined).map(componentTypeNameOf);
  const read = (value: unknown): Raw => {
    const typename = isRecord(value) ? value.__typename : undefined;
    const component = parts.registry.components.find((c) => componentTypeNameOf(c) === typename);
    if (!isRecord(value) || !component) throw new Error(`Component not found. expected one of: ${allowed.join(', ')}`);
    const { __typename: _typename, ...fields } = value;
    return { __component: component.uid, ...fields };
  };
  return parts.remember(new GraphQLScalarType({ name, parseValue: read, parseLiteral: (node, variables) => read(valueFromASTUntyped(node, variables)) }));
}

/** `XInput` of a content type or `ComponentXInput` of a component: every attribute optional. */
export function inputOf(parts: SchemaParts, model: Model): GraphQLInputObjectType {
  const typeName = nameOf(model);
  const name = `${typeName}Input`;
  const known = parts.named(name);
  if (known instanceof GraphQLInputObjectType) return known;
  return parts.remember(
    new GraphQLInputObjectType({
      name,
      fields: () => {
        const fields: GraphQLInputFieldConfigMap = {};
        if (model.modelType === 'component') fields.id = { type: GraphQLID };
        for (const a of model.attributes.values()) {
          const type = inputFieldOf(parts, model, typeName, a.name);
          if (type) fields[a.name] = { type };
        }
        if (model.modelType === 'contentType') {
          fields.publishedAt = { type: DateTimeScalar };
          if (!model.localized) fields.locale = { type: GraphQLString };
        }
        return fields;
      },
    }),
  );
}

/** The input type of one attribute, or undefined when it is not written through GraphQL (morphs, hidden targets, localizations). */
function inputFieldOf(parts: SchemaParts, model: Model, typeName: string, attribute: string): GraphQLInputType | undefined {
  const a = model.attributes.get(attribute);
  if (!a) return undefined;
  switch (a.kind) {
    case 'scalar':
      return a.type === 'enumeration' ? parts.enumOf(typeName, a) : SCALARS[scalarNameOf(a.type)];
    case 'media':
      if (!parts.exposedUids.has(FILE_UID)) return undefined;
      return a.multiple ? new GraphQLList(GraphQLID) : GraphQLID;
    case 'relation':
      if (!parts.exposedUids.has(a.target)) return undefined;
      return a.toMany ? new GraphQLList(GraphQLID) : GraphQLID;
    case 'component': {
      const component = parts.registry.component(a.component);
      if (!component) return undefined;
      return a.repeatable ? new GraphQLList(inputOf(parts, component)) : inputOf(parts, component);
    }
    case 'dynamiczone':
      return new GraphQLList(new GraphQLNonNull(dynamicZoneInput(parts, typeName, a.name, a.components)));
    case 'localizations':
      return undefined;
  }
}

/**
 * A mutation's `data` as the body a REST write takes: components (and their `id`) and
 * dynamic-zone entries shaped as REST reads them; entries of a component the zone does not allow
 * are left out (Strapi drops them silently). Relations (documentIds), media (file ids) and scalars
 * are REST's values already.
 */
export function restData(model: Model, input: unknown, parts: Pick<SchemaParts, 'registry'>): unknown {
  if (!isRecord(input)) return input;
  const out: Raw = {};
  for (const [key, value] of Object.entries(input)) {
    const a = model.attributes.get(key);
    if (key === 'id' && model.modelType === 'component') out.id = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
    else if (a?.kind === 'component' && value !== null && value !== undefined) {
      const component = parts.registry.component(a.component);
      out[key] = component === undefined ? value : Array.isArray(value) ? value.map((v) => restData(component, v, parts)) : restData(component, value, parts);
    } else if (a?.kind === 'dynamiczone' && Array.isArray(value)) {
      out[key] = value
        .filter((entry) => isRecord(entry) && typeof entry.__component === 'string' && a.components.includes(entry.__component))
        .map((entry: Raw) => {
          const component = parts.registry.component(String(entry.__component));
          return component ? restData(component, entry, parts) : entry;
        });
    } else out[key] = value;
  }
  return out;
}
