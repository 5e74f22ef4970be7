import {
  getArgumentValues, getDirectiveValues, getNamedType, getNullableType, getVariableValues, GraphQLError, GraphQLIncludeDirective, GraphQLSkipDirective,
  isLeafType, isListType, isObjectType, type DocumentNode, type FragmentDefinitionNode, type GraphQLNamedType, type GraphQLSchema, type OperationDefinitionNode, type SelectionSetNode,
} from 'graphql';
import type { PaginationLimits } from '../query/pagination.js';
import { windowOf } from './resolve.js';

/**
 * The cost of an operation: how many entities it may return, before anything runs. Each path of
 * the selection (fragments and inline fragments expanded, every alias its own path) multiplies the
 * page size of each list field on it: its `pagination` argument as the resolver reads it
 * (`limit: -1` is the max limit), else the default limit; a relation list without pagination
 * counts the default limit too; a single relation or object counts 1; scalars count nothing.
 * The cost is the sum over the paths, so a depth-bounded query cannot fan out unbounded.
 *
 * The cost of a selection is linear in its parents' count, so each selection is costed once per
 * parent entity (`unit`) and each fragment once per request: a query of many fragment spreads
 * cannot make the estimate itself expensive.
 */
type Variables = Record<string, unknown>;

interface CostInput {
  readonly schema: GraphQLSchema;
  readonly operation: OperationDefinitionNode;
  readonly fragments: ReadonlyMap<string, FragmentDefinitionNode>;
  /** The operation's variables, coerced (graphql-js `getVariableValues`). */
  readonly variables: Variables;
  readonly limits: PaginationLimits;
}

function operationCost(input: CostInput): number {
  const { schema, fragments, variables, limits } = input;
  const memo = new Map<string, number>();

  const included = (node: Parameters<typeof getDirectiveValues>[1]): boolean =>
    getDirectiveValues(GraphQLSkipDirective, node, variables)?.if !== true && getDirectiveValues(GraphQLIncludeDirective, node, variables)?.if !== false;

  /** The page size a list field returns: its `pagination` argument, else the default limit. */
  const pageOf = (args: Variables): number => {
    try {
      return windowOf(args.pagination, limits).limit;
    } catch {
      // Mixing page and offset is refused by the resolver; until then count the most it could read.
      return limits.maxLimit ?? Number.MAX_SAFE_INTEGER;
    }
  };

  /**
   * Entities returned under one parent entity of type `type` by `set`; `page` is the page size of
   * the connection whose wrapper `type` is (its `nodes`), 1 elsewhere.
   */
  const unit = (set: SelectionSetNode | undefined, type: GraphQLNamedType, page: number): number => {
    let total = 0;
    const spread = new Set<string>(); // a fragment spread again in one selection adds nothing (graphql-js merges it)
    for (const s of set?.selections ?? []) {
      if (!included(s)) continue;
      if (s.kind === 'InlineFragment') {
        total += unit(s.selectionSet, (s.typeCondition && schema.getType(s.typeCondition.name.value)) || type, page);
        continue;
      }
      if (s.kind === 'FragmentSpread') {
        const fragment = fragments.get(s.name.value);
        if (!fragment || spread.has(fragment.name.value)) continue;
        spread.add(fragment.name.value);
        const key = `${fragment.name.value} ${page}`;
        let cost = memo.get(key);
        if (cost === undefined) {
          memo.set(key, 0); // a cycle is graphql-js's validation error; never loop here
          cost = unit(fragment.selectionSet, schema.getType(fragment.typeCondition.name.value) ?? type, page);
          memo.set(key, cost);
        }
        total += cost;
        continue;
      }
      const def = isObjectType(type) ? type.getFields()[s.name.value] : undefined;
      if (!def || isLeafType(getNamedType(def.type))) continue;
      const target = getNamedType(def.type);
      const args = def.args.length > 0 ? getArgumentValues(def, s, variables) : {};
      if (s.name.value.endsWith('_connection')) {
        // `{ nodes, pageInfo }`: the wrapper counts nothing, its nodes the page, pageInfo one.
        total += unit(s.selectionSet, target, pageOf(args));
        continue;
      }
      const list = isListType(getNullableType(def.type));
      const count = !list ? 1 : s.name.value === 'nodes' && def.args.length === 0 ? page : pageOf(args);
      total += count * (1 + unit(s.selectionSet, target, 1));
    }
    return total;
  };

  const root = schema.getRootType(input.operation.operation);
  return root ? unit(input.operation.selectionSet, root, 1) : 0;
}

/**
 * The 400 for an operation costing more than `max` entities (as the depth limit answers), or null.
 * Variables that do not coerce are left to execution, which refuses them before any resolver runs.
 */
export function costError(input: {
  schema: GraphQLSchema;
  document: DocumentNode;
  operation: OperationDefinitionNode;
  variables: Variables | undefined;
  limits: PaginationLimits;
  max: number;
}): GraphQLError | null {
  const { schema, document, operation, limits, max } = input;
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], input.variables ?? {});
  if (coerced.errors) return null;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === 'FragmentDefinition') fragments.set(d.name.value, d);
  const cost = operationCost({ schema, operation, fragments, variables: coerced.coerced, limits });
  if (cost <= max) return null;
  const shown = Number.isFinite(cost) && cost < Number.MAX_SAFE_INTEGER ? Math.round(cost).toLocaleString('en-US') : 'unbounded';
  return new GraphQLError(
    `The query may return too many entries: its cost is ${shown} entities, at most ${max.toLocaleString('en-US')} are accepted (pass smaller pagination limits or select fewer nested lists)`,
    { nodes: [operation], extensions: { code: 'BAD_USER_INPUT' } },
  );
}
