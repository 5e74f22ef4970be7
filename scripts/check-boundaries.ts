// The import-boundary check of `npm run lint`: dependency-cruiser resolves every import (type-only ones
// too) and checks the path rules of .dependency-cruiser.cjs; this file adds what it cannot say, no cycles
// between server folders, on the same graph. Usage: tsx scripts/check-boundaries.ts
import { resolve } from 'node:path';
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';

/** The folders the check reads, relative to the project root (those that exist). */
export const CHECKED_FOLDERS = ['server', 'main', 'renderer', 'scripts', 'test', 'bench'];

/** What the check found: one line per rule breach and one per folder cycle. */
export interface BoundaryReport {
  readonly breaches: readonly string[];
  readonly cycles: readonly string[];
}

/** The node a server module belongs to: its folder under server/, or the file itself at server/'s root. */
export function folderOf(path: string): string | null {
  const parts = path.split('/');
  if (parts[0] !== 'server' || parts.length < 2) return null;
  return parts.length === 2 ? path : `${parts[0]}/${parts[1]}`;
}

/** What the cycle search reads of a cruised module: its path and the paths its imports resolve to. */
export interface ModuleImports {
  readonly source: string;
  readonly dependencies: readonly { readonly resolved: string }[];
}

/** Folder-level cycles: each strongly connected group of server folders, with one file -> file import per edge. */
export function folderCycles(modules: readonly ModuleImports[]): string[] {
  const edges = new Map<string, Map<string, string>>();
  for (const module of modules) {
    const from = folderOf(module.source);
    if (from === null) continue;
    for (const dependency of module.dependencies) {
      const to = folderOf(dependency.resolved);
      if (to === null || to === from) continue;
      const out = edges.get(from) ?? new Map<string, string>();
      if (!out.has(to)) out.set(to, `${module.source} -> ${dependency.resolved}`);
      edges.set(from, out);
    }
  }
  return stronglyConnected(edges).map((group) => {
    const members = new Set(group);
    const inside = group.flatMap((from) =>
      [...(edges.get(from) ?? new Map<string, string>())].filter(([to]) => members.has(to)).map(([, example]) => `    ${example}`),
    );
    return [`cycle between ${group.join(', ')}:`, `  shortest: ${shortestCycle(group, edges).join(' -> ')}`, ...inside].join('\n');
  });
}

/** The shortest way from the group's first folder back to it, inside the group (breadth first). */
function shortestCycle(group: readonly string[], edges: ReadonlyMap<string, ReadonlyMap<string, string>>): string[] {
  const [start] = group;
  if (start === undefined) return [];
  const members = new Set(group);
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let node = queue.shift(); node !== undefined; node = queue.shift()) {
    for (const next of (edges.get(node) ?? new Map<string, string>()).keys()) {
      if (!members.has(next) || cameFrom.has(next)) continue;
      cameFrom.set(next, node);
      if (next === start) queue.length = 0;
      else queue.push(next);
    }
  }
  const path = [start];
  for (let node = cameFrom.get(start); node !== undefined && node !== start; node = cameFrom.get(node)) path.unshift(node);
  return [start, ...path];
}

/** Tarjan's algorithm; returns the groups of more than one node, members sorted. */
function stronglyConnected(edges: ReadonlyMap<string, ReadonlyMap<string, string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node) ?? 0);
    stack.push(node);
    onStack.add(node);
    for (const next of (edges.get(node) ?? new Map<string, string>()).keys()) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) ?? 0, index.get(next) ?? 0));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
      onStack.delete(member);
      group.push(member);
      if (member === node) break;
    }
    if (group.length > 1) groups.push(group.sort());
  };
  for (const node of [...edges.keys()].sort()) if (!index.has(node)) visit(node);
  return groups;
}

/** Cruises `folders` under `root` with the rules of `root`/.dependency-cruiser.cjs and `root`/tsconfig.json. */
export async function checkBoundaries(root: string, folders: readonly string[] = CHECKED_FOLDERS): Promise<BoundaryReport> {
  const options = await extractDepcruiseOptions(resolve(root, '.dependency-cruiser.cjs'));
  const fileName = resolve(root, 'tsconfig.json');
  const tsConfig = extractTSConfig(fileName);
  // Paths in the rules are relative to baseDir; the resolver's tsconfig is named absolutely so any cwd works.
  const { output } = await cruise([...folders], { ...options, baseDir: root, tsConfig: { fileName } }, {}, { tsConfig });
  if (typeof output === 'string') throw new Error('dependency-cruiser answered text, expected a result object');
  return report(output);
}

function report(result: ICruiseResult): BoundaryReport {
  const breaches = (result.summary.violations ?? []).map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`);
  return { breaches, cycles: folderCycles(result.modules) };
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const root = resolve(import.meta.dirname, '..');
  const { existsSync } = await import('node:fs');
  const { breaches, cycles } = await checkBoundaries(
    root,
    CHECKED_FOLDERS.filter((f) => existsSync(resolve(root, f))),
  );
  for (const line of [...breaches, ...cycles]) process.stderr.write(`${line}\n`);
  const count = breaches.length + cycles.length;
  process.stdout.write(count === 0 ? 'import boundaries: ok\n' : `import boundaries: ${breaches.length} breaches, ${cycles.length} folder cycles\n`);
  process.exitCode = count === 0 ? 0 : 1;
}
