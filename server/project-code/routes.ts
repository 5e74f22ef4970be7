import type * as t from '@babel/types';
import type { ModuleScope } from './module-scope.js';
import { lineOf, unwrap } from './parse-source.js';

/** A middleware a core route names: by uid (`api::page.page-populate`, `global::x`), or written inline. */
export type MiddlewareRef = { readonly kind: 'named'; readonly name: string; readonly line: number } | { readonly kind: 'inline'; readonly line: number };

/** What a core route's `config.<action>` sets. */
export interface ActionConfig {
  readonly middlewares: readonly MiddlewareRef[];
  /** Policies by name, or `inline` for a function. */
  readonly policies: readonly string[];
  /** `auth` when the route sets it (`false` makes the route public in Strapi). */
  readonly auth: 'set' | null;
}

/** A routes file as Hearth reads it. */
export type RoutesReading =
  | { readonly kind: 'core'; readonly uid: string; readonly actions: ReadonlyMap<string, ActionConfig>; readonly other: readonly string[] }
  | { readonly kind: 'custom'; readonly routes: readonly string[] }
  | { readonly kind: 'unknown'; readonly reason: string };

type Json = t.ObjectExpression;

/** The last name of a callee: `createCoreRouter` of `factories.createCoreRouter(...)` and the like. */
export function calleeName(node: t.Expression): string | null {
  const callee = unwrap(node);
  if (callee.type === 'Identifier') return callee.name;
  if (callee.type === 'MemberExpression' && !callee.computed && callee.property.type === 'Identifier') return callee.property.name;
  return null;
}

/** A call to a Strapi factory (`createCoreRouter`, `createCoreController`, ...), its uid and its other arguments. */
export function factoryCall(exported: ModuleScope['exported'], name: string): { uid: string | null; rest: t.Node[] } | null {
  if (!exported || exported.type === 'FunctionDeclaration') return null;
  const e = unwrap(exported);
  if (e.type !== 'CallExpression' || e.callee.type === 'V8IntrinsicIdentifier' || calleeName(e.callee) !== name) return null;
  const [first, ...rest] = e.arguments;
  return { uid: first?.type === 'StringLiteral' ? first.value : null, rest };
}

function property(obj: Json, key: string): t.Expression | null {
  for (const p of obj.properties) {
    if (p.type !== 'ObjectProperty') continue;
    const k = p.key.type === 'Identifier' && !p.computed ? p.key.name : p.key.type === 'StringLiteral' ? p.key.value : null;
    if (k === key) return unwrap(p.value as t.Expression);
  }
  return null;
}

const keysOf = (obj: Json): string[] =>
  obj.properties.flatMap((p) => (p.type === 'ObjectProperty' && p.key.type === 'Identifier' ? [p.key.name] : p.type === 'ObjectProperty' && p.key.type === 'StringLiteral' ? [p.key.value] : []));

function middlewareRef(node: t.Node): MiddlewareRef {
  if (node.type === 'StringLiteral') return { kind: 'named', name: node.value, line: lineOf(node) };
  if (node.type === 'ObjectExpression') {
    const name = property(node, 'name') ?? property(node, 'resolve');
    if (name?.type === 'StringLiteral') return { kind: 'named', name: name.value, line: lineOf(node) };
  }
  return { kind: 'inline', line: lineOf(node) };
}

function listOf(node: t.Expression | null): t.Node[] {
  return node?.type === 'ArrayExpression' ? node.elements.flatMap((e) => (e === null ? [] : [e])) : [];
}

function actionConfig(node: t.Expression): ActionConfig {
  if (node.type !== 'ObjectExpression') return { middlewares: [{ kind: 'inline', line: lineOf(node) }], policies: [], auth: null };
  const middlewares = listOf(property(node, 'middlewares')).map(middlewareRef);
  const policies = listOf(property(node, 'policies')).map((p) => {
    const ref = middlewareRef(p);
    return ref.kind === 'named' ? ref.name : 'an inline policy';
  });
  return { middlewares, policies, auth: property(node, 'auth') === null ? null : 'set' };
}

function customRoutes(obj: Json): string[] {
  return listOf(property(obj, 'routes')).map((r) => {
    if (r.type !== 'ObjectExpression') return `a route at line ${lineOf(r)}`;
    const method = property(r, 'method');
    const path = property(r, 'path');
    return method?.type === 'StringLiteral' && path?.type === 'StringLiteral' ? `${method.value} ${path.value}` : `a route at line ${lineOf(r)}`;
  });
}

/** Reads a file of `src/api/<api>/routes/`: a core router with its per-action config, custom routes, or neither. */
export function readRoutes(scope: ModuleScope, consts: ModuleScope['consts'] = scope.consts): RoutesReading {
  const call = factoryCall(scope.exported, 'createCoreRouter');
  if (call) {
    if (call.uid === null) return { kind: 'unknown', reason: 'createCoreRouter is not given a uid string' };
    const options = call.rest[0];
    const actions = new Map<string, ActionConfig>();
    const other: string[] = [];
    if (options === undefined) return { kind: 'core', uid: call.uid, actions, other };
    const obj = options.type === 'Identifier' ? consts.get(options.name) : options.type === 'ObjectExpression' ? options : undefined;
    if (obj?.type !== 'ObjectExpression') return { kind: 'unknown', reason: `line ${lineOf(options)}: the router options are not an object literal` };
    for (const key of keysOf(obj)) if (key !== 'config') other.push(key);
    const config = property(obj, 'config');
    if (config?.type === 'ObjectExpression') {
      for (const action of keysOf(config)) {
        const value = property(config, action);
        if (value) actions.set(action, actionConfig(value));
      }
    } else if (config) {
      other.push('config');
    }
    return { kind: 'core', uid: call.uid, actions, other };
  }
  const exported = scope.exported;
  const value = exported && exported.type !== 'FunctionDeclaration' ? unwrap(exported) : null;
  const obj = value?.type === 'Identifier' ? consts.get(value.name) : value;
  if (obj?.type === 'ObjectExpression' && property(obj, 'routes')) return { kind: 'custom', routes: customRoutes(obj) };
  return { kind: 'unknown', reason: 'exports neither createCoreRouter(...) nor { routes: [...] }' };
}
