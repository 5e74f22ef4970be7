import type * as t from '@babel/types';
import { lineOf, unwrap } from './parse-source.js';

/**
 * A value a middleware assigns to `ctx.query`, proved to be built only from literals, consts of
 * the same file holding literals, spreads of those, and reads of the client's own query
 * (`ctx.query.locale`). Evaluated per request against the query the client sent.
 */
export type ValuePlan =
  | { readonly kind: 'literal'; readonly value: string | number | boolean | null | undefined }
  | { readonly kind: 'object'; readonly parts: readonly ObjectPart[] }
  | { readonly kind: 'array'; readonly parts: readonly ArrayPart[] }
  | { readonly kind: 'client'; readonly path: readonly string[] };
type ObjectPart = { readonly kind: 'prop'; readonly key: string; readonly value: ValuePlan } | { readonly kind: 'spread'; readonly value: ValuePlan };
type ArrayPart = { readonly kind: 'item'; readonly value: ValuePlan } | { readonly kind: 'spread'; readonly value: ValuePlan };

/** Why an expression is not a value Hearth can prove; caught inside project-code/ and reported, never thrown out of it. */
export class Unproven extends Error {
  override readonly name = 'Unproven';
}

/** What compiling an expression can see: the file's consts and the middleware's `ctx` parameter. */
export interface PlanScope {
  readonly consts: ReadonlyMap<string, t.Expression>;
  /** The name of the `ctx` parameter of the request handler. */
  readonly ctx: string;
}

/** `ctx.query.a.b` (optional chaining allowed) as the path `[a, b]`; null when the chain is not rooted at `ctx.query`. */
export function clientPath(node: t.Expression, ctx: string): string[] | null {
  const path: string[] = [];
  let current = unwrap(node);
  while (current.type === 'MemberExpression' || current.type === 'OptionalMemberExpression') {
    const p = current.property;
    if (!current.computed && p.type === 'Identifier') path.unshift(p.name);
    else if (current.computed && p.type === 'StringLiteral') path.unshift(p.value);
    else return null;
    current = unwrap(current.object);
  }
  if (current.type !== 'Identifier' || current.name !== ctx || path[0] !== 'query') return null;
  return path.slice(1);
}

function propKey(prop: t.ObjectProperty): string {
  const key = prop.key;
  if (!prop.computed && key.type === 'Identifier') return key.name;
  if (key.type === 'StringLiteral') return key.value;
  if (key.type === 'NumericLiteral') return String(key.value);
  throw new Unproven(`line ${lineOf(prop)}: a computed key`);
}

function compileObject(node: t.ObjectExpression, scope: PlanScope, seen: ReadonlySet<string>): ValuePlan {
  const parts: ObjectPart[] = node.properties.map((prop): ObjectPart => {
    if (prop.type === 'SpreadElement') return { kind: 'spread', value: compile(prop.argument, scope, seen) };
    if (prop.type === 'ObjectMethod') throw new Unproven(`line ${lineOf(prop)}: a method`);
    const key = propKey(prop);
    if (key === '__proto__') throw new Unproven(`line ${lineOf(prop)}: a __proto__ key`);
    if (prop.value.type === 'AssignmentPattern' || prop.value.type.endsWith('Pattern')) throw new Unproven(`line ${lineOf(prop)}: a pattern`);
    return { kind: 'prop', key, value: compile(prop.value as t.Expression, scope, seen) };
  });
  return { kind: 'object', parts };
}

function compileArray(node: t.ArrayExpression, scope: PlanScope, seen: ReadonlySet<string>): ValuePlan {
  const parts = node.elements.map((el): ArrayPart => {
    if (el === null) throw new Unproven(`line ${lineOf(node)}: an array with a hole`);
    if (el.type === 'SpreadElement') return { kind: 'spread', value: compile(el.argument, scope, seen) };
    return { kind: 'item', value: compile(el, scope, seen) };
  });
  return { kind: 'array', parts };
}

function compileIdentifier(node: t.Identifier, scope: PlanScope, seen: ReadonlySet<string>): ValuePlan {
  if (node.name === 'undefined') return { kind: 'literal', value: undefined };
  const init = scope.consts.get(node.name);
  if (!init) throw new Unproven(`line ${lineOf(node)}: "${node.name}" is not a const of this file`);
  if (seen.has(node.name)) throw new Unproven(`line ${lineOf(node)}: "${node.name}" refers to itself`);
  return compile(init, scope, new Set([...seen, node.name]));
}

/** Compiles an expression to a plan, or throws Unproven naming the line and what is not literal there. */
export function compile(expression: t.Expression, scope: PlanScope, seen: ReadonlySet<string> = new Set()): ValuePlan {
  const node = unwrap(expression);
  switch (node.type) {
    case 'StringLiteral':
    case 'NumericLiteral':
    case 'BooleanLiteral':
      return { kind: 'literal', value: node.value };
    case 'NullLiteral':
      return { kind: 'literal', value: null };
    case 'TemplateLiteral':
      if (node.expressions.length > 0) break;
      return { kind: 'literal', value: node.quasis.map((q) => q.value.cooked ?? q.value.raw).join('') };
    case 'UnaryExpression':
      if (node.operator === '-' && node.argument.type === 'NumericLiteral') return { kind: 'literal', value: -node.argument.value };
      break;
    case 'ObjectExpression':
      return compileObject(node, scope, seen);
    case 'ArrayExpression':
      return compileArray(node, scope, seen);
    case 'Identifier':
      return compileIdentifier(node, scope, seen);
    case 'MemberExpression':
    case 'OptionalMemberExpression': {
      const path = clientPath(node, scope.ctx);
      if (path) return { kind: 'client', path };
      break;
    }
    default:
      break;
  }
  throw new Unproven(`line ${lineOf(node)}: ${describe(node)} is not a literal`);
}

function describe(node: t.Expression): string {
  if (node.type === 'CallExpression' || node.type === 'OptionalCallExpression') return 'a function call';
  if (node.type === 'TemplateLiteral') return 'a template with expressions';
  if (node.type === 'ConditionalExpression' || node.type === 'LogicalExpression') return 'a condition';
  if (node.type === 'MemberExpression' || node.type === 'OptionalMemberExpression') return 'a property read';
  return `a ${node.type}`;
}

type Json = Record<string, unknown>;

/** The value a plan gives for the query a client sent (JavaScript's own spread rules). */
export function evaluate(plan: ValuePlan, client: Json): unknown {
  switch (plan.kind) {
    case 'literal':
      return plan.value;
    case 'client': {
      let value: unknown = client;
      for (const key of plan.path) value = typeof value === 'object' && value !== null ? (value as Json)[key] : undefined;
      return value;
    }
    case 'object': {
      // No prototype: a `__proto__` key read from the client's query stays an ordinary key.
      const out: Json = Object.create(null) as Json;
      for (const part of plan.parts) {
        if (part.kind === 'prop') out[part.key] = evaluate(part.value, client);
        else Object.assign(out, { ...(evaluate(part.value, client) as Json) });
      }
      return out;
    }
    case 'array': {
      const out: unknown[] = [];
      for (const part of plan.parts) {
        const value = evaluate(part.value, client);
        if (part.kind === 'item') out.push(value);
        // JavaScript would throw on a spread of something not iterable (a 500 in Strapi): nothing is added.
        else if (Array.isArray(value) || typeof value === 'string') out.push(...value);
      }
      return out;
    }
  }
}
