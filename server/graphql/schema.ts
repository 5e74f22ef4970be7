import {
  GraphQLBoolean, GraphQLEnumType, GraphQLFloat, GraphQLID, GraphQLInputObjectType, GraphQLInt, GraphQLList, GraphQLNonNull, GraphQLObjectType,
  GraphQLSchema, GraphQLString, GraphQLUnionType, type GraphQLFieldConfig, type GraphQLFieldConfigArgumentMap, type GraphQLFieldConfigMap, type GraphQLInputFieldConfigMap,
  type GraphQLNamedType, type GraphQLOutputType, type GraphQLScalarType,
} from 'graphql';
import type { Registry } from '../schema/registry.js';
import { FILE_UID, type Attribute, type ComponentModel, type ContentTypeModel, type Model, type ScalarAttribute } from '../schema/types.js';
import { idFilterInput, scalarFilterInput } from './filters.js';
import { componentTypeNameOf, dynamicZoneNameOf, enumNameOf, enumValueNameOf, listQueryOf, scalarNameOf, singleQueryOf, typeNameOf } from './names.js';
import { connectionOf, relationList, relationOne, rootResolvers, toManyField, type GraphqlContext } from './resolve.js';
import { meField } from './me.js';
import { contentMutations } from './mutations.js';
import { mediaMutations } from './mutations-media.js';
import { usersMutations } from './mutations-users.js';
import { inputOf } from './inputs.js';
import { localeQueries } from './locales.js';
import { relatedField } from './related.js';
import type { MutationFields, SchemaParts } from './schema-parts.js';
import { ROLE_UID, USER_UID } from '../users/models.js';
import { DateScalar, DateTimeScalar, JSONScalar, LongScalar, TimeScalar, localeCodeScalar } from './scalars.js';

/**
 * The GraphQL schema Strapi's plugin generates, built from the registry (queries and mutations).
 * Built once per registry object: a builder edit makes a new registry, so
 * the next request gets a new schema.
 */

const SCALARS: Record<ReturnType<typeof scalarNameOf>, GraphQLScalarType> = {
  String: GraphQLString, Int: GraphQLInt, Long: LongScalar, Float: GraphQLFloat, Boolean: GraphQLBoolean,
  Date: DateScalar, Time: TimeScalar, DateTime: DateTimeScalar, JSON: JSONScalar,
};
const FILTERS = Object.fromEntries(
  Object.entries(SCALARS).map(([name, scalar]) => [name, scalarFilterInput(scalar)]),
) as Record<keyof typeof SCALARS, GraphQLInputObjectType>;
const ID_FILTER = idFilterInput();

const ErrorType = new GraphQLObjectType({ name: 'Error', fields: { code: { type: new GraphQLNonNull(GraphQLString) }, message: { type: GraphQLString } } });
const PaginationType = new GraphQLObjectType({
  name: 'Pagination',
  fields: { total: { type: new GraphQLNonNull(GraphQLInt) }, page: { type: new GraphQLNonNull(GraphQLInt) }, pageSize: { type: new GraphQLNonNull(GraphQLInt) }, pageCount: { type: new GraphQLNonNull(GraphQLInt) } },
});
const PublicationStatus = new GraphQLEnumType({ name: 'PublicationStatus', values: { DRAFT: { value: 'draft' }, PUBLISHED: { value: 'published' } } });
const PUBLICATION_FILTERS = ['NEVER_PUBLISHED', 'HAS_PUBLISHED_VERSION', 'MODIFIED', 'UNMODIFIED', 'NEVER_PUBLISHED_DOCUMENT', 'HAS_PUBLISHED_VERSION_DOCUMENT', 'PUBLISHED_WITHOUT_DRAFT', 'PUBLISHED_WITH_DRAFT'];
const PublicationFilter = new GraphQLEnumType({
  name: 'PublicationFilter',
  values: Object.fromEntries(PUBLICATION_FILTERS.map((v) => [v, { value: v.toLowerCase().replaceAll('_', '-') }])),
});
const PaginationArg = new GraphQLInputObjectType({
  name: 'PaginationArg',
  fields: { page: { type: GraphQLInt }, pageSize: { type: GraphQLInt }, start: { type: GraphQLInt }, limit: { type: GraphQLInt } },
});

/** Attributes the API shows (private ones never; `localizations` is added by hand). */
const visible = (model: Model): Attribute[] => [...model.attributes.values()].filter((a) => !a.private && a.kind !== 'localizations');

export function buildGraphqlSchema(args: { registry: Registry; localeCodes: () => ReadonlySet<string> }): GraphQLSchema {
  const { registry } = args;
  const localeCode = localeCodeScalar(args.localeCodes);
  const exposed = [registry.model(FILE_UID), registry.model(ROLE_UID), registry.model(USER_UID), ...registry.contentTypes].filter(
    (m): m is ContentTypeModel => m?.modelType === 'contentType',
  );
  const exposedUids = new Set(exposed.map((m) => m.uid));
  const named = new Map<string, GraphQLNamedType>();
  const remember = <T extends GraphQLNamedType>(type: T): T => (named.set(type.name, type), type);
  const nameOf = (model: Model): string => (model.modelType === 'component' ? componentTypeNameOf(model) : typeNameOf(model));

  const enumOf = (typeName: string, attribute: ScalarAttribute): GraphQLEnumType => {
    const name = enumNameOf(typeName, attribute.name);
    const known = named.get(name);
    if (known instanceof GraphQLEnumType) return known;
    return remember(new GraphQLEnumType({ name, values: Object.fromEntries((attribute.enum ?? []).map((v) => [enumValueNameOf(v), { value: v }])) }));
  };
  const scalarOut = (typeName: string, a: ScalarAttribute): GraphQLOutputType => (a.type === 'enumeration' ? enumOf(typeName, a) : SCALARS[scalarNameOf(a.type)]);

  const filtersOf = (model: Model): GraphQLInputObjectType => {
    const name = `${nameOf(model)}FiltersInput`;
    const known = named.get(name);
    if (known instanceof GraphQLInputObjectType) return known;
    const self: GraphQLInputObjectType = remember(
      new GraphQLInputObjectType({
        name,
        fields: () => {
          const fields: GraphQLInputFieldConfigMap = {};
          if (model.modelType === 'contentType') fields.documentId = { type: ID_FILTER };
          for (const a of visible(model)) {
            if (a.kind === 'scalar') fields[a.name] = { type: FILTERS[scalarNameOf(a.type)] };
            else if (a.kind === 'relation' && exposedUids.has(a.target)) fields[a.name] = { type: filtersOf(registry.model(a.target) as Model) };
            else if (a.kind === 'component') fields[a.name] = { type: filtersOf(registry.component(a.component) as ComponentModel) };
          }
          if (model.modelType === 'contentType') {
            for (const ts of ['createdAt', 'updatedAt', 'publishedAt']) fields[ts] = { type: FILTERS.DateTime };
            if (model.localized) Object.assign(fields, { locale: { type: FILTERS.String }, localizations: { type: self } });
          }
          Object.assign(fields, { and: { type: new GraphQLList(self) }, or: { type: new GraphQLList(self) }, not: { type: self } });
          return fields;
        },
      }),
    );
    return self;
  };

  const listArgs = (target: Model): GraphQLFieldConfigArgumentMap => ({
    filters: { type: filtersOf(target) },
    pagination: { type: PaginationArg, defaultValue: {} },
    sort: { type: new GraphQLList(GraphQLString), defaultValue: [] },
  });

  const dynamicZoneOf = (typeName: string, attribute: string, uids: readonly string[]): GraphQLUnionType =>
    remember(
      new GraphQLUnionType({
        name: dynamicZoneNameOf(typeName, attribute),
        types: () => [...uids.map((uid) => objectOf(registry.component(uid) as ComponentModel)), ErrorType],
        resolveType: (value: { __component?: string }) => {
          const component = value.__component === undefined ? undefined : registry.component(value.__component);
          return component && uids.includes(component.uid) ? componentTypeNameOf(component) : 'Error';
        },
      }),
    );

  const relationCollectionOf = (target: Model): GraphQLObjectType => {
    const name = `${nameOf(target)}RelationResponseCollection`;
    const known = named.get(name);
    if (known instanceof GraphQLObjectType) return known;
    return remember(new GraphQLObjectType({ name, fields: () => ({ nodes: { type: nonNullList(objectOf(target)) } }) }));
  };
  const toManyFields = (fields: GraphQLFieldConfigMap<unknown, GraphqlContext>, name: string, target: Model, owner: Model): void => {
    fields[`${name}_connection`] = { type: relationCollectionOf(target), args: listArgs(target), resolve: connectionOf(name, owner) };
    fields[name] = { type: new GraphQLNonNull(new GraphQLList(objectOf(target))), args: listArgs(target), resolve: relationList(name, owner) };
  };

  let related: GraphQLFieldConfig<unknown, GraphqlContext> | undefined;
  function objectOf(model: Model): GraphQLObjectType {
    const name = nameOf(model);
    const known = named.get(name);
    if (known instanceof GraphQLObjectType) return known;
    const fileModel = registry.model(FILE_UID) as Model;
    return remember(
      new GraphQLObjectType({
        name,
        fields: () => {
          const fields: GraphQLFieldConfigMap<unknown, GraphqlContext> = {};
          fields[model.modelType === 'component' ? 'id' : 'documentId'] = { type: new GraphQLNonNull(GraphQLID) };
          for (const a of visible(model)) {
            if (a.kind === 'scalar') {
              const type = scalarOut(name, a);
              fields[a.name] = { type: a.required ? new GraphQLNonNull(type) : type };
            } else if (a.kind === 'media') {
              if (a.multiple) toManyFields(fields, a.name, fileModel, model);
              else fields[a.name] = { type: objectOf(fileModel), resolve: relationOne(a.name, model) };
            } else if (a.kind === 'relation' && exposedUids.has(a.target)) {
              const target = registry.model(a.target) as Model;
              if (a.toMany) toManyFields(fields, a.name, target, model);
              else fields[a.name] = { type: objectOf(target), resolve: relationOne(a.name, model) };
            } else if (a.kind === 'component') {
              const component = registry.component(a.component) as ComponentModel;
              fields[a.name] = a.repeatable ? { type: new GraphQLList(objectOf(component)), args: listArgs(component), resolve: relationList(a.name, model) } : { type: objectOf(component) };
            } else if (a.kind === 'dynamiczone') {
              fields[a.name] = { type: new GraphQLList(dynamicZoneOf(name, a.name, a.components)), resolve: toManyField(a.name) };
            }
          }
          if (model.modelType === 'contentType') {
            if (model.uid === FILE_UID) fields.related = (related ??= relatedField({ registry, nameOf, members: () => morphMembers() }));
            for (const ts of ['createdAt', 'updatedAt', 'publishedAt']) fields[ts] = { type: DateTimeScalar };
            if (model.localized) {
              fields.locale = { type: GraphQLString };
              toManyFields(fields, 'localizations', model, model);
            }
          }
          return fields;
        },
      }),
    );
  }

  const query: GraphQLFieldConfigMap<unknown, GraphqlContext> = {};
  const locales = localeQueries({
    pagination: PaginationType, paginationArg: PaginationArg, stringFilter: FILTERS.String, dateTimeFilter: FILTERS.DateTime, idFilter: ID_FILTER,
    publicationStatus: PublicationStatus, publicationFilter: PublicationFilter,
  });
  remember(locales.type);
  /** `GenericMorph`'s members in Strapi's order: components, upload files, locales, then the other exposed types. */
  const morphMembers = (): GraphQLObjectType[] => [
    ...registry.components.map((c) => objectOf(c)),
    ...exposed.filter((m) => m.uid === FILE_UID).map((m) => objectOf(m)),
    locales.type,
    ...exposed.filter((m) => m.uid !== FILE_UID).map((m) => objectOf(m)),
  ];
  for (const model of exposed) {
    const type = objectOf(model);
    const status = {
      status: { type: PublicationStatus, defaultValue: 'published' },
      hasPublishedVersion: { type: GraphQLBoolean },
      publicationFilter: { type: PublicationFilter },
      ...(model.localized ? { locale: { type: localeCode, description: 'The locale to use for the query' } } : {}),
    };
    const resolvers = rootResolvers(model);
    if (model.kind === 'singleType') {
      query[singleQueryOf(model)] = { type, args: status, resolve: resolvers.single };
      continue;
    }
    const collection = remember(
      new GraphQLObjectType({ name: `${typeNameOf(model)}EntityResponseCollection`, fields: { nodes: { type: nonNullList(type) }, pageInfo: { type: new GraphQLNonNull(PaginationType) } } }),
    );
    query[singleQueryOf(model)] = { type, args: { documentId: { type: new GraphQLNonNull(GraphQLID) }, ...status }, resolve: resolvers.one };
    query[`${listQueryOf(model)}_connection`] = { type: collection, args: { ...listArgs(model), ...status }, resolve: resolvers.connection };
    query[listQueryOf(model)] = { type: new GraphQLNonNull(new GraphQLList(type)), args: { ...listArgs(model), ...status }, resolve: resolvers.list };
    // Strapi lists the i18n plugin's locale queries right after the upload plugin's.
    if (model.uid === FILE_UID) Object.assign(query, locales.fields);
  }
  if (registry.contentType(USER_UID)) query.me = meField;
  const parts: SchemaParts = { registry, exposed, exposedUids, objectOf, enumOf, remember, named: (n) => named.get(n), localeCode, publicationStatus: PublicationStatus };
  // `Mutation` is assembled from contributors, each in its own file: content types (mutations.ts), then media and users.
  const mutation: MutationFields = { ...contentMutations(parts), ...mediaMutations(parts), ...usersMutations({ ...parts, inputOf: (model) => inputOf(parts, model) }) };
  return new GraphQLSchema({
    query: new GraphQLObjectType({ name: 'Query', fields: query }),
    mutation: Object.keys(mutation).length > 0 ? new GraphQLObjectType({ name: 'Mutation', fields: mutation }) : undefined,
    types: [...named.values(), ...registry.components.map((c) => objectOf(c)), localeCode],
  });
}

const nonNullList = (type: GraphQLOutputType): GraphQLOutputType => new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(type)));

