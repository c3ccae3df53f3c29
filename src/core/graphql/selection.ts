import {
  Kind,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLResolveInfo,
  type SelectionSetNode,
} from 'graphql';

/**
 * The sub-fields `nodes` select (through inline and named fragments), by field name: aliases of
 * one field come together, each with its own node (arguments, sub-selection). Directives are
 * not evaluated: a field under `@skip`/`@include` counts as selected.
 */
export function selectedFields(
  nodes: readonly FieldNode[],
  fragments: GraphQLResolveInfo['fragments'],
): Map<string, FieldNode[]> {
  const fields = new Map<string, FieldNode[]>();
  const seen = new Set<string>();
  const visit = (set: SelectionSetNode | undefined): void => {
    for (const s of set?.selections ?? []) {
      if (s.kind === Kind.FIELD) {
        const name = s.name.value;
        const list = fields.get(name);
        if (list) list.push(s);
        else fields.set(name, [s]);
      } else if (s.kind === Kind.INLINE_FRAGMENT) {
        visit(s.selectionSet);
      } else if (!seen.has(s.name.value)) {
        seen.add(s.name.value);
        visit((fragments[s.name.value] as FragmentDefinitionNode | undefined)?.selectionSet);
      }
    }
  };
  for (const node of nodes) visit(node.selectionSet);
  return fields;
}

/**
 * Whether the field being resolved selects the sub-field `name` directly (through inline and
 * named fragments too), so a loader can leave out columns nobody asked for.
 */
export function selectsField(info: GraphQLResolveInfo, name: string): boolean {
  return selectedFields(info.fieldNodes, info.fragments).has(name);
}
