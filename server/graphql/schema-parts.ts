import type { GraphQLEnumType, GraphQLFieldConfigMap, GraphQLNamedType, GraphQLObjectType, GraphQLScalarType } from 'graphql';
import type { Registry } from '../schema/registry.js';
import type { ContentTypeModel, Model, ScalarAttribute } from '../schema/types.js';
import type { GraphqlContext } from './resolve.js';

/**
 * What the contributors of the `Mutation` type (mutations.ts for content types, and the media and
 * users files) build their fields from: the registry and the schema's own types, so each named
 * type is made once per schema.
 */
export interface SchemaParts {
  readonly registry: Registry;
  /** The content types the schema exposes (upload files, users and roles included). */
  readonly exposed: readonly ContentTypeModel[];
  readonly exposedUids: ReadonlySet<string>;
  /** The output type of a content type or component (`Article`, `ComponentSharedSeo`). */
  readonly objectOf: (model: Model) => GraphQLObjectType;
  /** The enum of an enumeration attribute (`ENUM_SPECIMEN_S_ENUM`), shared by output and input. */
  readonly enumOf: (typeName: string, attribute: ScalarAttribute) => GraphQLEnumType;
  /** Adds a named type to the schema (returned as given). */
  readonly remember: <T extends GraphQLNamedType>(type: T) => T;
  /** A named type already made, if any. */
  readonly named: (name: string) => GraphQLNamedType | undefined;
  readonly localeCode: GraphQLScalarType;
  readonly publicationStatus: GraphQLEnumType;
}

/** Root fields one contributor adds to `Mutation`. */
export type MutationFields = GraphQLFieldConfigMap<unknown, GraphqlContext>;
