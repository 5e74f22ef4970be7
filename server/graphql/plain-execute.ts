import {
  getArgumentValues, getVariableValues, GraphQLList, GraphQLNonNull, GraphQLObjectType, isLeafType, type DocumentNode, type ExecutionResult, type FieldNode,
  type FragmentDefinitionNode, type GraphQLField, type GraphQLLeafType, type GraphQLOutputType, type GraphQLResolveInfo, type GraphQLSchema, type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { directOf, isReplaying, NEEDS_RESOLVER, type DirectValue, type Prefetched } from './direct.js';

/**
 * A query executor for the plain shape most reads have: root lists and documents whose nested
 * fields are scalars, enums, `__typename`, objects, components and relations the root's populate
 * loaded. graphql-js completes every field through a resolve-info object, a type check per value
 * and promise bookkeeping (about 2 microseconds a field: half of a 25-entry list's cost); this
 * walks a plan built once per document. It answers only what it is sure graphql-js answers the
 * same: anything else (directives, fragments on other types, unions, other resolvers, a mutation)
 * is `null` before anything runs, and whatever happens while completing (an error, a null in a
 * non-null field, a value a scalar refuses, a relation only the loader reads) hands the request
 * to graphql-js with the root fields' outcomes already in `prefetched`, so nothing is read twice.
 */
type Raw = Record<string, unknown>;

type Out =
  | { readonly kind: 'leaf'; readonly nonNull: boolean; readonly type: GraphQLLeafType }
  | { readonly kind: 'list'; readonly nonNull: boolean; readonly item: Out }
  | { readonly kind: 'object'; readonly nonNull: boolean; readonly plan: ObjectPlan };

interface FieldPlan {
  readonly key: string;
  readonly name: string;
  readonly node: FieldNode;
  readonly direct: DirectValue<unknown> | undefined;
  /** null: `__typename` (the type's name). */
  readonly out: Out | null;
}

interface ObjectPlan {
  readonly type: GraphQLObjectType;
  readonly fields: readonly FieldPlan[];
}

interface RootPlan {
  readonly fields: ReadonlyArray<{ readonly key: string; readonly nodes: readonly FieldNode[]; readonly def: GraphQLField<unknown, unknown>; readonly out: Out }>;
  readonly rootType: GraphQLObjectType;
  /** The document's fragments by name, collected once with the plan. */
  readonly fragments: Fragments;
}

/** Thrown while planning or completing: graphql-js answers instead. */
class Unplain extends Error {}
const unplain = (): never => {
  throw new Unplain();
};

type Fragments = Record<string, FragmentDefinitionNode>;

/** The fields of selection sets on `type` by response key, as graphql-js collects them, for the shapes planned here. */
function collect(type: GraphQLObjectType, sets: readonly (SelectionSetNode | undefined)[], fragments: Fragments): Map<string, FieldNode[]> {
  const out = new Map<string, FieldNode[]>();
  const visited = new Set<string>();
  const walk = (set: SelectionSetNode | undefined): void => {
    for (const s of set?.selections ?? []) {
      if ((s.directives?.length ?? 0) > 0) unplain();
      if (s.kind === 'Field') {
        const key = s.alias?.value ?? s.name.value;
        // Answers are plain objects (V8 builds and prints them faster than graphql-js's prototype-less ones): no key may name their prototype.
        if (key === '__proto__') unplain();
        const known = out.get(key);
        if (known) known.push(s);
        else out.set(key, [s]);
      } else if (s.kind === 'InlineFragment') {
        if (s.typeCondition && s.typeCondition.name.value !== type.name) unplain();
        walk(s.selectionSet);
      } else {
        if (visited.has(s.name.value)) continue;
        visited.add(s.name.value);
        const fragment = fragments[s.name.value];
        if (!fragment) continue;
        if (fragment.typeCondition.name.value !== type.name) unplain();
        walk(fragment.selectionSet);
      }
    }
  };
  for (const set of sets) walk(set);
  return out;
}

function outOf(type: GraphQLOutputType, nodes: readonly FieldNode[], fragments: Fragments, nonNull = false): Out {
  if (type instanceof GraphQLNonNull) return outOf(type.ofType as GraphQLOutputType, nodes, fragments, true);
  if (type instanceof GraphQLList) return { kind: 'list', nonNull, item: outOf(type.ofType as GraphQLOutputType, nodes, fragments) };
  if (isLeafType(type)) return { kind: 'leaf', nonNull, type };
  if (!(type instanceof GraphQLObjectType) || type.isTypeOf) return unplain();
  return { kind: 'object', nonNull, plan: objectPlan(type, nodes.map((n) => n.selectionSet), fragments) };
}

function objectPlan(type: GraphQLObjectType, sets: readonly (SelectionSetNode | undefined)[], fragments: Fragments): ObjectPlan {
  const defs = type.getFields();
  const fields: FieldPlan[] = [];
  for (const [key, nodes] of collect(type, sets, fragments)) {
    const node = nodes[0] as FieldNode;
    const name = node.name.value;
    if (name === '__typename') {
      fields.push({ key, name, node, direct: undefined, out: null });
      continue;
    }
    if (name.startsWith('__')) unplain();
    const def = defs[name];
    if (!def) continue; // graphql-js leaves an unknown field out (validation refused it before)
    const direct = def.resolve ? directOf<unknown>(def.resolve) : undefined;
    if (def.resolve && !direct) unplain();
    fields.push({ key, name, node, direct, out: outOf(def.type, nodes, fragments) });
  }
  return { type, fields };
}

/** The plan of a query operation, or null when it is not of the plain shape. */
export function planOf(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode): RootPlan | null {
  const rootType = schema.getQueryType();
  if (operation.operation !== 'query' || !rootType || (operation.directives?.length ?? 0) > 0) return null;
  const fragments: Fragments = {};
  for (const d of document.definitions) if (d.kind === 'FragmentDefinition') fragments[d.name.value] = d;
  try {
    const defs = rootType.getFields();
    const fields: Array<RootPlan['fields'][number]> = [];
    for (const [key, nodes] of collect(rootType, [operation.selectionSet], fragments)) {
      const def = defs[(nodes[0] as FieldNode).name.value];
      if (!def?.resolve || !isReplaying(def.resolve)) return null;
      // The whole selection is plain, or nothing runs here.
      fields.push({ key, nodes, def, out: outOf(def.type, nodes, fragments) });
    }
    return { fields, rootType, fragments };
  } catch (err) {
    if (err instanceof Unplain) return null;
    throw err;
  }
}

function complete(out: Out, value: unknown, context: unknown): unknown {
  if (value instanceof Error) return unplain();
  if (value === null || value === undefined) return out.nonNull ? unplain() : null;
  if (out.kind === 'leaf') {
    const serialized: unknown = out.type.serialize(value);
    return serialized === null || serialized === undefined ? unplain() : serialized;
  }
  if (out.kind === 'list') {
    if (!Array.isArray(value)) return unplain();
    return value.map((item: unknown) => complete(out.item, item, context));
  }
  return completeObject(out.plan, value, context);
}

function completeObject(plan: ObjectPlan, source: unknown, context: unknown): Raw {
  const result: Raw = {};
  for (const f of plan.fields) {
    if (f.out === null) {
      result[f.key] = plan.type.name;
      continue;
    }
    let value: unknown;
    if (f.direct) {
      value = f.direct(source, context, f.node);
      if (value === NEEDS_RESOLVER) return unplain();
    } else {
      value = typeof source === 'object' && source !== null ? (source as Raw)[f.name] : typeof source === 'function' ? unplain() : undefined;
      if (typeof value === 'function') return unplain();
    }
    result[f.key] = complete(f.out, value, context);
  }
  return result;
}

/**
 * Runs a planned query: its root resolvers (their outcomes kept in `prefetched`), then the plain
 * completion. Null: graphql-js must answer (with `prefetched` it does not run the roots again).
 */
export async function executePlain(args: {
  readonly schema: GraphQLSchema;
  readonly document: DocumentNode;
  readonly operation: OperationDefinitionNode;
  readonly plan: RootPlan;
  readonly variableValues: Record<string, unknown> | undefined;
  readonly contextValue: { readonly prefetched?: Map<string, Prefetched> };
}): Promise<ExecutionResult | null> {
  const { schema, operation, plan, contextValue } = args;
  const prefetched = contextValue.prefetched;
  if (!prefetched) return null;
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], args.variableValues ?? {}, { maxErrors: 50 });
  if (coerced.errors) return null;
  const { fragments } = plan;
  const pending: Array<Promise<unknown>> = [];
  for (const { key, nodes, def } of plan.fields) {
    let fieldArgs: Raw;
    try {
      fieldArgs = getArgumentValues(def, nodes[0] as FieldNode, coerced.coerced);
    } catch {
      return null;
    }
    const info: GraphQLResolveInfo = {
      fieldName: def.name, fieldNodes: nodes, returnType: def.type, parentType: plan.rootType, path: { prev: undefined, key, typename: plan.rootType.name },
      schema, fragments, rootValue: undefined, operation, variableValues: coerced.coerced,
    };
    try {
      const value: unknown = def.resolve?.(undefined, fieldArgs, contextValue, info);
      prefetched.set(key, { kind: 'value', value });
      // Handled here too: a rejection graphql-js meets later (replayed) is never an unhandled one meanwhile.
      if (value instanceof Promise) {
        value.catch(() => undefined);
        pending.push(value);
      }
    } catch (error) {
      prefetched.set(key, { kind: 'threw', error });
      return null;
    }
  }
  const settled = await Promise.allSettled(pending);
  if (settled.some((s) => s.status === 'rejected')) return null;
  try {
    const data: Raw = {};
    for (const { key, out } of plan.fields) {
      const known = prefetched.get(key);
      const value = known?.kind === 'value' ? (known.value instanceof Promise ? await known.value : known.value) : undefined;
      data[key] = complete(out, value, contextValue);
    }
    return { data };
  } catch {
    // Unplain, or an error a field's completion raised (a scalar refusing its value): graphql-js answers it, as it would have.
    return null;
  }
}
