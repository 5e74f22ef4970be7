import { GraphQLError, type ASTVisitor, type FragmentDefinitionNode, type SelectionSetNode, type ValidationContext } from 'graphql';

/**
 * A validation rule refusing operations whose selections nest deeper than `max` fields (fragments
 * expanded; a fragment that spreads itself is graphql-js's own error): a 400 `BAD_USER_INPUT`
 * before anything runs, instead of a read that runs away. Strapi sets no depth limit by default
 * (transcript 139 nests 8 levels), so Hearth's limit sits above what clients send.
 */
export function maxDepthRule(max: number) {
  return (context: ValidationContext): ASTVisitor => {
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const definition of context.getDocument().definitions) {
      if (definition.kind === 'FragmentDefinition') fragments.set(definition.name.value, definition);
    }
    const depthOf = (set: SelectionSetNode | undefined, seen: ReadonlySet<string>): number => {
      let deepest = 0;
      for (const s of set?.selections ?? []) {
        if (s.kind === 'Field') deepest = Math.max(deepest, s.name.value.startsWith('__') ? 0 : 1 + depthOf(s.selectionSet, seen));
        else if (s.kind === 'InlineFragment') deepest = Math.max(deepest, depthOf(s.selectionSet, seen));
        else if (!seen.has(s.name.value)) deepest = Math.max(deepest, fragmentDepth(s.name.value, seen));
        if (deepest > max) return deepest;
      }
      return deepest;
    };
    // A fragment's depth does not depend on where it is spread: measured once, so fragments spreading
    // each other twice (2^n paths) cost n walks, not 2^n.
    const measured = new Map<string, number>();
    const fragmentDepth = (name: string, seen: ReadonlySet<string>): number => {
      let depth = measured.get(name);
      if (depth === undefined) {
        depth = depthOf(fragments.get(name)?.selectionSet, new Set([...seen, name]));
        measured.set(name, depth);
      }
      return depth;
    };
    return {
      OperationDefinition(node) {
        if (depthOf(node.selectionSet, new Set()) > max) {
          context.reportError(new GraphQLError(`The query is nested too deeply: at most ${max} levels of fields are accepted`, { nodes: [node], extensions: { code: 'BAD_USER_INPUT' } }));
        }
      },
    };
  };
}
