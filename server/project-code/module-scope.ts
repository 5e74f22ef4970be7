import type * as t from '@babel/types';
import { lineOf, unwrap } from './parse-source.js';

/** What the top level of a module declares: its consts and what it exports as the default. */
export interface ModuleScope {
  /** `const NAME = <expression>` at the top level (exported or not), by name. */
  readonly consts: ReadonlyMap<string, t.Expression>;
  /** Top-level function declarations, by name. */
  readonly functions: ReadonlyMap<string, t.FunctionDeclaration>;
  /** `export default X` or `module.exports = X`; null when the module exports neither. */
  readonly exported: t.Expression | t.FunctionDeclaration | null;
  /** Top-level statements that do something when the module loads (not declarations), as `line N`. */
  readonly effects: readonly string[];
}

const isModuleExports = (node: t.LVal | t.OptionalMemberExpression): boolean =>
  node.type === 'MemberExpression' &&
  node.object.type === 'Identifier' &&
  node.object.name === 'module' &&
  !node.computed &&
  node.property.type === 'Identifier' &&
  node.property.name === 'exports';

function addDeclaration(decl: t.Declaration, consts: Map<string, t.Expression>, functions: Map<string, t.FunctionDeclaration>): void {
  if (decl.type === 'VariableDeclaration') {
    for (const d of decl.declarations) {
      if (decl.kind === 'const' && d.id.type === 'Identifier' && d.init) consts.set(d.id.name, unwrap(d.init));
    }
  } else if (decl.type === 'FunctionDeclaration' && decl.id) {
    functions.set(decl.id.name, decl);
  }
}

/** Reads the top level of a parsed module (ES module or CommonJS). */
export function moduleScope(program: t.Program): ModuleScope {
  const consts = new Map<string, t.Expression>();
  const functions = new Map<string, t.FunctionDeclaration>();
  let exported: ModuleScope['exported'] = null;
  const effects: string[] = [];
  for (const statement of program.body) {
    switch (statement.type) {
      case 'ImportDeclaration':
      case 'TSTypeAliasDeclaration':
      case 'TSInterfaceDeclaration':
      case 'TSImportEqualsDeclaration':
      case 'TSModuleDeclaration':
      case 'EmptyStatement':
        break;
      case 'VariableDeclaration':
      case 'FunctionDeclaration':
        addDeclaration(statement, consts, functions);
        break;
      case 'ExportNamedDeclaration':
        if (statement.declaration) addDeclaration(statement.declaration, consts, functions);
        break;
      case 'ExportDefaultDeclaration': {
        const decl = statement.declaration;
        if (decl.type === 'FunctionDeclaration') exported = decl;
        else if (decl.type !== 'ClassDeclaration' && decl.type !== 'TSDeclareFunction') exported = unwrap(decl);
        break;
      }
      case 'ExpressionStatement': {
        const e = statement.expression;
        if (e.type === 'AssignmentExpression' && e.operator === '=' && isModuleExports(e.left)) exported = unwrap(e.right);
        else effects.push(`line ${lineOf(statement)}`);
        break;
      }
      default:
        effects.push(`line ${lineOf(statement)}`);
    }
  }
  return { consts, functions, exported, effects };
}
