import { Kind, type FragmentDefinitionNode, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';

/**
 * Whether the field being resolved selects the sub-field `name` directly (through inline and
 * named fragments too), so a loader can leave out columns nobody asked for.
 */
export function selectsField(info: GraphQLResolveInfo, name: string): boolean {
  const seen = new Set<string>();
  const within = (set: SelectionSetNode | undefined): boolean =>
    (set?.selections ?? []).some((s) => {
      if (s.kind === Kind.FIELD) return s.name.value === name;
      if (s.kind === Kind.INLINE_FRAGMENT) return within(s.selectionSet);
      if (seen.has(s.name.value)) return false;
      seen.add(s.name.value);
      const fragment = info.fragments[s.name.value] as FragmentDefinitionNode | undefined;
      return within(fragment?.selectionSet);
    });
  return info.fieldNodes.some((node) => within(node.selectionSet));
}
