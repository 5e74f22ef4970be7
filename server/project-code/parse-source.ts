import type * as t from '@babel/types';

/** A project file as Babel's parser reads it, or why it could not. */
export type ParsedSource = { readonly ok: true; readonly program: t.Program } | { readonly ok: false; readonly reason: string };

type BabelParse = (typeof import('@babel/parser'))['parse'];
let parser: Promise<BabelParse> | null = null;

/** @babel/parser, loaded the first time a project has a file to read (most starts never need it). */
const loadParser = (): Promise<BabelParse> =>
  (parser ??= import('@babel/parser').then((m) => {
    // A CommonJS package: bundled (dist/cli), its exports come as `default` only.
    const parse = (m as { default?: { parse?: BabelParse } }).default?.parse ?? m.parse;
    if (typeof parse !== 'function') throw new Error('@babel/parser has no parse function');
    return parse;
  }));

/**
 * Parses a route, middleware or other project file without running it: TypeScript for `.ts`,
 * plain JavaScript otherwise, ES module or CommonJS as the file is written.
 */
export async function parseSource(text: string, typescript: boolean): Promise<ParsedSource> {
  const parse = await loadParser();
  try {
    const file = parse(text, { sourceType: 'unambiguous', plugins: typescript ? ['typescript'] : [], errorRecovery: false });
    return { ok: true, program: file.program };
  } catch (err) {
    return { ok: false, reason: `cannot be parsed (${err instanceof Error ? err.message : String(err)})` };
  }
}

/** The line a node starts on, for messages. */
export const lineOf = (node: t.Node): number => node.loc?.start.line ?? 0;

/** Strips what TypeScript adds around an expression (`x as T`, `x satisfies T`, `x!`, `<T>x`) and parentheses. */
export function unwrap(node: t.Expression): t.Expression {
  let current: t.Expression = node;
  for (;;) {
    switch (current.type) {
      case 'TSAsExpression':
      case 'TSSatisfiesExpression':
      case 'TSNonNullExpression':
      case 'TSTypeAssertion':
      case 'ParenthesizedExpression':
        current = current.expression;
        break;
      default:
        return current;
    }
  }
}
