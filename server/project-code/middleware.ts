import type * as t from '@babel/types';
import type { ModuleScope } from './module-scope.js';
import { lineOf, unwrap } from './parse-source.js';
import { clientPath, compile, evaluate, Unproven, type ValuePlan } from './value-plan.js';

/** The `ctx.query` keys a route middleware may set for Hearth to apply them. */
export const APPLIED_QUERY_KEYS = ['populate', 'fields', 'filters', 'sort', 'pagination'] as const;
const APPLIED = new Set<string>(APPLIED_QUERY_KEYS);

/** One assignment of a middleware, in order: `ctx.query.key = value` or `ctx.query = value`. */
export type QueryStep = { readonly kind: 'set'; readonly key: string; readonly value: ValuePlan } | { readonly kind: 'replace'; readonly value: ValuePlan };

/** What a middleware file was proved to do: only query assignments (then the keys they set), or why not. */
export type MiddlewareReading = { readonly ok: true; readonly steps: readonly QueryStep[]; readonly keys: readonly string[] } | { readonly ok: false; readonly reason: string };

type Fn = t.ArrowFunctionExpression | t.FunctionExpression | t.FunctionDeclaration;

function functionOf(node: t.Expression | t.FunctionDeclaration | null, scope: ModuleScope, what: string): Fn {
  const n = node === null || node.type === 'FunctionDeclaration' ? node : unwrap(node);
  if (n?.type === 'ArrowFunctionExpression' || n?.type === 'FunctionExpression' || n?.type === 'FunctionDeclaration') return n;
  if (n?.type === 'Identifier') return functionOf(scope.consts.get(n.name) ?? scope.functions.get(n.name) ?? null, scope, what);
  throw new Unproven(n ? `line ${lineOf(n)}: ${what} is not a function written in this file` : `${what} is missing`);
}

/** Calls that only log (`strapi.log.info(...)`, `console.log(...)`): they change nothing Hearth answers. */
function isLogging(node: t.Expression): boolean {
  const e = unwrap(node);
  if (e.type !== 'CallExpression' || e.callee.type !== 'MemberExpression') return false;
  const target = e.callee.object;
  if (target.type === 'Identifier') return target.name === 'console';
  return target.type === 'MemberExpression' && target.object.type === 'Identifier' && target.object.name === 'strapi' && !target.computed && target.property.type === 'Identifier' && target.property.name === 'log';
}

/** `next()` or `await next()` (what a `return` may also give back). */
function isNextCall(node: t.Expression | null | undefined, next: string): boolean {
  if (!node) return false;
  const e = unwrap(node.type === 'AwaitExpression' ? node.argument : node);
  return e.type === 'CallExpression' && e.arguments.length === 0 && e.callee.type === 'Identifier' && e.callee.name === next;
}

/** The handler a factory `(config, { strapi }) => ...` returns. */
function handlerOf(factory: Fn, scope: ModuleScope): Fn {
  if (factory.body.type !== 'BlockStatement') return functionOf(factory.body, scope, 'the returned handler');
  for (const statement of factory.body.body) {
    if (statement.type === 'ExpressionStatement' && isLogging(statement.expression)) continue;
    if (statement.type === 'ReturnStatement') return functionOf(statement.argument ?? null, scope, 'the returned handler');
    throw new Unproven(`line ${lineOf(statement)}: the factory runs code before returning its handler`);
  }
  throw new Unproven(`line ${lineOf(factory)}: the factory returns no handler`);
}

function checkKeys(value: ValuePlan): void {
  // A whole new query: keys beyond the applied ones only as the client's own (`locale: ctx.query.locale`).
  if (value.kind !== 'object') throw new Unproven('ctx.query is replaced by something that is not an object literal');
  for (const part of value.parts) {
    if (part.kind === 'spread') {
      if (part.value.kind === 'client' && part.value.path.length === 0) continue;
      const spread = evaluate(part.value, {});
      const extra = Object.keys(typeof spread === 'object' && spread !== null ? spread : {}).filter((k) => !APPLIED.has(k));
      if (extra.length > 0) throw new Unproven(`a spread sets ${extra.map((k) => `ctx.query.${k}`).join(', ')}`);
    } else if (!APPLIED.has(part.key) && !(part.value.kind === 'client' && part.value.path.length === 1 && part.value.path[0] === part.key)) {
      throw new Unproven(`sets ctx.query.${part.key}`);
    }
  }
}

function stepOf(statement: t.ExpressionStatement, ctx: string, consts: ModuleScope['consts']): QueryStep {
  const e = unwrap(statement.expression);
  const line = lineOf(statement);
  if (e.type !== 'AssignmentExpression' || e.operator !== '=' || e.left.type !== 'MemberExpression') {
    throw new Unproven(`line ${line}: a statement other than an assignment to ctx.query`);
  }
  const path = clientPath(e.left, ctx);
  if (path === null) throw new Unproven(`line ${line}: an assignment to something other than ctx.query`);
  const value = compile(e.right, { consts, ctx });
  if (path.length === 0) {
    checkKeys(value);
    return { kind: 'replace', value };
  }
  const key = path[0] ?? '';
  if (path.length > 1 || !APPLIED.has(key)) throw new Unproven(`line ${line}: sets ctx.query.${path.join('.')}`);
  return { kind: 'set', key, value };
}

const keysOf = (steps: readonly QueryStep[]): string[] => {
  const keys = new Set<string>();
  for (const step of steps) {
    if (step.kind === 'set') keys.add(step.key);
    else if (step.value.kind === 'object') for (const p of step.value.parts) if (p.kind === 'prop' && APPLIED.has(p.key)) keys.add(p.key);
  }
  return [...keys];
};

function readHandler(handler: Fn, consts: ModuleScope['consts']): QueryStep[] {
  const [ctxParam, nextParam] = handler.params;
  if (ctxParam?.type !== 'Identifier' || nextParam?.type !== 'Identifier') throw new Unproven(`line ${lineOf(handler)}: the handler does not take (ctx, next)`);
  const ctx = ctxParam.name;
  const next = nextParam.name;
  const body = handler.body.type === 'BlockStatement' ? handler.body.body : null;
  if (body === null) {
    if (isNextCall(handler.body as t.Expression, next)) return [];
    throw new Unproven(`line ${lineOf(handler)}: the handler does more than call next()`);
  }
  const steps: QueryStep[] = [];
  for (const [i, statement] of body.entries()) {
    const last = i === body.length - 1;
    const nextHere = statement.type === 'ReturnStatement' ? isNextCall(statement.argument, next) : statement.type === 'ExpressionStatement' && isNextCall(statement.expression, next);
    if (nextHere) {
      if (!last) throw new Unproven(`line ${lineOf(body[i + 1] ?? statement)}: code runs after the controller answers`);
      return steps;
    }
    if (statement.type === 'ExpressionStatement' && isLogging(statement.expression)) continue;
    if (statement.type !== 'ExpressionStatement') throw new Unproven(`line ${lineOf(statement)}: a statement other than an assignment to ctx.query (${statement.type})`);
    steps.push(stepOf(statement, ctx, consts));
  }
  throw new Unproven(`line ${lineOf(handler)}: the handler never calls ${next}()`);
}

/**
 * Reads a route middleware (`export default (config, { strapi }) => async (ctx, next) => { ... }`,
 * or `module.exports = ...`): proved when its handler only logs, assigns literal
 * populate/fields/filters/sort/pagination values to `ctx.query`, then calls `next()` last.
 */
export function readMiddleware(scope: ModuleScope): MiddlewareReading {
  try {
    if (scope.effects.length > 0) throw new Unproven(`${scope.effects[0]}: runs code when loaded`);
    const handler = handlerOf(functionOf(scope.exported, scope, 'the exported middleware'), scope);
    const steps = readHandler(handler, scope.consts);
    return { ok: true, steps, keys: keysOf(steps) };
  } catch (err) {
    if (err instanceof Unproven) return { ok: false, reason: err.message };
    throw err;
  }
}

/** The query a route's middlewares leave for the controller, from the one the client sent. */
export function applySteps(steps: readonly QueryStep[], query: Record<string, unknown>): Record<string, unknown> {
  let current: Record<string, unknown> = { ...query };
  for (const step of steps) {
    if (step.kind === 'set') current[step.key] = evaluate(step.value, current);
    else current = { ...(evaluate(step.value, current) as Record<string, unknown>) };
  }
  for (const key of Object.keys(current)) if (current[key] === undefined) delete current[key];
  return current;
}
