import type { FieldNode, GraphQLFieldResolver } from 'graphql';

/**
 * What the plain executor (plain-execute.ts) knows about resolvers: which nested resolvers have a
 * value it can read without calling them (a populated relation, a component list), and which root
 * resolvers it may run ahead of graphql-js, their result then handed to graphql-js's own call
 * (replayed) when graphql-js answers the request after all.
 */

/** A direct value's answer when the field needs its resolver (a read through the relation loader). */
export const NEEDS_RESOLVER: unique symbol = Symbol('needs its resolver');

/** The value of a field for `parent`, without GraphQLResolveInfo; NEEDS_RESOLVER when only the resolver can answer it. */
export type DirectValue<C> = (parent: unknown, context: C, node: FieldNode) => unknown;

/** Any resolver, whatever its context and arguments (kept by identity only). */
type AnyResolver = GraphQLFieldResolver<unknown, never, never>;

const directs = new WeakMap<AnyResolver, DirectValue<never>>();
const replayable = new WeakSet<AnyResolver>();

/** Registers `direct` as the resolver's value when it can be read without calling it. */
export function withDirect<C, R extends GraphQLFieldResolver<unknown, C>>(resolve: R, direct: DirectValue<C>): R {
  directs.set(resolve, direct as DirectValue<never>);
  return resolve;
}

export const directOf = <C>(resolve: AnyResolver): DirectValue<C> | undefined => directs.get(resolve) as DirectValue<C> | undefined;

/** A root resolver's outcome, run ahead by the plain executor: returned (a promise or a value) or thrown. */
export type Prefetched = { readonly kind: 'value'; readonly value: unknown } | { readonly kind: 'threw'; readonly error: unknown };

/**
 * A root query resolver that reads without side effects and answers, when the request's context
 * holds its prefetched outcome (by response key), that outcome instead of running again.
 */
export function replaying<C extends { readonly prefetched?: Map<string, Prefetched> }, A>(resolve: GraphQLFieldResolver<unknown, C, A>): GraphQLFieldResolver<unknown, C, A> {
  const wrapped: GraphQLFieldResolver<unknown, C, A> = (parent, args, context, info) => {
    const key = info.path.prev === undefined ? String(info.path.key) : null;
    const known = key === null ? undefined : context.prefetched?.get(key);
    if (known === undefined) return resolve(parent, args, context, info);
    if (known.kind === 'threw') throw known.error;
    return known.value;
  };
  replayable.add(wrapped);
  return wrapped;
}

export const isReplaying = (resolve: AnyResolver): boolean => replayable.has(resolve);
