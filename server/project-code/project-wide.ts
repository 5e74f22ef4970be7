import { baseName, dirsIn, readModule, sourcesIn } from './files.js';
import { unwrap } from './parse-source.js';
import type { ProjectCodeItem } from './types.js';
import type * as t from '@babel/types';

const item = (file: string, message: string): ProjectCodeItem => ({ file, uid: null, api: null, status: 'not-run', message });

/** The plugin names `config/plugins.(js|ts)` configures (`({ env }) => ({ seo: {...} })` or a plain object), or null. */
function pluginNames(exported: t.Expression | t.FunctionDeclaration | null): string[] | null {
  if (!exported || exported.type === 'FunctionDeclaration') return null;
  let value = unwrap(exported);
  if (value.type === 'ArrowFunctionExpression' && value.body.type !== 'BlockStatement') value = unwrap(value.body);
  if (value.type !== 'ObjectExpression') return null;
  return value.properties.flatMap((p) =>
    p.type === 'ObjectProperty' && (p.key.type === 'Identifier' || p.key.type === 'StringLiteral') ? [p.key.type === 'Identifier' ? p.key.name : p.key.value] : [],
  );
}

/** Whether `src/index` has `register` or `bootstrap` with code in them (Strapi's generated file has empty ones). */
function hasStartupCode(exported: t.Expression | t.FunctionDeclaration | null): boolean {
  if (!exported || exported.type === 'FunctionDeclaration') return exported !== null;
  const value = unwrap(exported);
  if (value.type !== 'ObjectExpression') return true;
  return value.properties.some((p) => {
    if (p.type === 'ObjectMethod') return p.body.body.length > 0;
    if (p.type !== 'ObjectProperty') return true;
    const fn = unwrap(p.value as t.Expression);
    if (fn.type === 'ArrowFunctionExpression' || fn.type === 'FunctionExpression') return fn.body.type !== 'BlockStatement' || fn.body.body.length > 0;
    return true;
  });
}

/** Project-wide code: policies, `src/index` register/bootstrap, plugins in config/plugins, plugin extensions' strapi-server. */
export async function scanProjectWide(root: string): Promise<ProjectCodeItem[]> {
  const items: ProjectCodeItem[] = [];
  for (const file of await sourcesIn(root, 'src/policies')) items.push(item(file, `policy global::${baseName(file)}, not run`));
  for (const file of (await sourcesIn(root, 'src')).filter((f) => baseName(f) === 'index')) {
    const read = await readModule(root, file);
    if (!read.ok || hasStartupCode(read.scope.exported)) items.push(item(file, 'register/bootstrap code, not run'));
  }
  for (const file of (await sourcesIn(root, 'config')).filter((f) => baseName(f) === 'plugins')) {
    const read = await readModule(root, file);
    const names = read.ok ? pluginNames(read.scope.exported) : null;
    if (names === null) items.push(item(file, 'plugin configuration, not read'));
    else for (const name of names) items.push(item(file, `plugin "${name}" configured, not run`));
  }
  for (const plugin of await dirsIn(`${root}/src/extensions`)) {
    for (const file of (await sourcesIn(root, `src/extensions/${plugin}`)).filter((f) => baseName(f) === 'strapi-server')) {
      items.push(item(file, `extension of the ${plugin} plugin's code, not run`));
    }
  }
  return items;
}
