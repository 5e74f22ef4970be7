import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildSchema, GraphQLInputObjectType, GraphQLObjectType, GraphQLSchema, isInputObjectType, isObjectType, lexicographicSortSchema, printType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { buildGraphqlSchema } from '../../server/graphql/schema.js';
import { loadProject } from '../../server/schema/load.js';
import { buildRegistry } from '../../server/schema/registry.js';
import { USERS_PERMISSIONS } from '../../server/users/models.js';
import { FIXTURE_PROJECT } from '../helpers/server.js';

/**
 * The SDL Hearth generates for the public fixture project equals the one Strapi 5.54's GraphQL
 * plugin printed (`test/fixtures/strapi/graphql/schema.graphql`), ordering aside, minus what Hearth
 * does not expose yet. NOT_YET is the to-do list of the next slice: each entry removed must come
 * with the types or fields it names.
 */
const NOT_YET = {
  /** Whole types Strapi prints that Hearth does not generate yet. */
  types: [
    // UploadFile.related's union: Hearth's has no review-workflow or permission members (those types are not exposed).
    'GenericMorph',
    // Plugin content types not exposed yet: review workflows, users & permissions' permissions.
    'ReviewWorkflowsWorkflow', 'ReviewWorkflowsWorkflowEntityResponseCollection', 'ReviewWorkflowsWorkflowFiltersInput', 'ReviewWorkflowsWorkflowInput',
    'ReviewWorkflowsWorkflowStage', 'ReviewWorkflowsWorkflowStageEntityResponseCollection', 'ReviewWorkflowsWorkflowStageFiltersInput',
    'ReviewWorkflowsWorkflowStageInput', 'ReviewWorkflowsWorkflowStageRelationResponseCollection',
    'UsersPermissionsPermission', 'UsersPermissionsPermissionFiltersInput', 'UsersPermissionsPermissionRelationResponseCollection',
  ],
  /** Fields of types Hearth generates that it does not have yet (`Type.field`). */
  fields: [
    'Query.reviewWorkflowsWorkflow', 'Query.reviewWorkflowsWorkflows', 'Query.reviewWorkflowsWorkflows_connection',
    'Query.reviewWorkflowsWorkflowStage', 'Query.reviewWorkflowsWorkflowStages', 'Query.reviewWorkflowsWorkflowStages_connection',
    // Mutations of types not exposed yet.
    'Mutation.createReviewWorkflowsWorkflow', 'Mutation.updateReviewWorkflowsWorkflow', 'Mutation.deleteReviewWorkflowsWorkflow',
    'Mutation.createReviewWorkflowsWorkflowStage', 'Mutation.updateReviewWorkflowsWorkflowStage', 'Mutation.deleteReviewWorkflowsWorkflowStage',
    // Hearth's roles have no permissions relation (permissions are a table of their own).
    'UsersPermissionsRole.permissions', 'UsersPermissionsRole.permissions_connection', 'UsersPermissionsRoleFiltersInput.permissions', 'UsersPermissionsRoleInput.permissions',
  ],
};

/** Every named type printed alone (descriptions kept), fields in order, minus NOT_YET. */
function printed(schema: GraphQLSchema): Map<string, string> {
  const out = new Map<string, string>();
  const skipFields = new Set(NOT_YET.fields);
  for (const type of Object.values(lexicographicSortSchema(schema).getTypeMap())) {
    if (type.name.startsWith('__') || NOT_YET.types.includes(type.name)) continue;
    if (['String', 'Int', 'Float', 'Boolean', 'ID'].includes(type.name)) continue;
    let kept = type;
    if (isObjectType(type) || isInputObjectType(type)) {
      const config = type.toConfig();
      const fields = Object.fromEntries(Object.entries(config.fields).filter(([name]) => !skipFields.has(`${type.name}.${name}`)));
      kept = isObjectType(type) ? new GraphQLObjectType({ ...(config as ReturnType<GraphQLObjectType['toConfig']>), fields: fields as never }) : new GraphQLInputObjectType({ ...(config as ReturnType<GraphQLInputObjectType['toConfig']>), fields: fields as never });
    }
    out.set(type.name, printType(kept));
  }
  return out;
}

describe('GraphQL schema', () => {
  it('prints the SDL Strapi 5.54 generates for the fixture project (ordering aside, minus NOT_YET)', async () => {
    const registry = buildRegistry(await loadProject(FIXTURE_PROJECT, USERS_PERMISSIONS));
    const ours = printed(buildGraphqlSchema({ registry, localeCodes: () => new Set(['en']) }));
    const strapi = printed(buildSchema(readFileSync(resolve(import.meta.dirname, '../fixtures/strapi/graphql/schema.graphql'), 'utf8')));
    expect([...ours.keys()].sort()).toEqual([...strapi.keys()].sort());
    for (const [name, text] of strapi) expect(ours.get(name), name).toBe(text);
  });
});
