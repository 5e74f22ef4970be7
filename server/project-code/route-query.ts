import type { ContentTypeModel } from '../schema/types.js';
import type { ProjectCode } from './index.js';

/** The core-route actions a type's default populate serves. */
const DEFAULT_POPULATE_ACTIONS = new Set(['find', 'findOne']);

/**
 * The query a core route hands its controller, from the one the client sent: first the type's
 * default populate (`pluginOptions.hearth.defaultPopulate`, `find` and `findOne` only), used when
 * the client sends no populate; then the project's proved route middlewares, which override what
 * they assign whatever the client sent, as Strapi runs them before its controller.
 */
export function routeQuery(input: { code: ProjectCode; model: ContentTypeModel; action: string; query: Record<string, unknown> }): Record<string, unknown> {
  const { code, model, action, query } = input;
  const withDefault =
    model.defaultPopulate !== undefined && DEFAULT_POPULATE_ACTIONS.has(action) && query.populate === undefined ? { ...query, populate: model.defaultPopulate } : query;
  return code.routeQuery(model.uid, action, withDefault);
}
