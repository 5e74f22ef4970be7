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
        else if (!seen.has(s.name.value)) deepest = Math.max(deepest, depthOf(fragments.get(s.name.value)?.selectionSet, new Set([...seen, s.name.value])));
        if (deepest > max) return deepest;
      }
      return deepest;
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
