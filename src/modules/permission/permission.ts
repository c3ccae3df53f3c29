/**
 * The permission ladder and what each level allows. This table is the single statement of the
 * rules; policies consult it, the README reproduces it.
 *
 *   viewer < contributor < editor < admin < owner
 */
export const PERMISSIONS = ['viewer', 'contributor', 'editor', 'admin', 'owner'] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** Levels the access routes may grant; `owner` moves only through ownership transfer. */
export const GRANTABLE_PERMISSIONS = ['viewer', 'contributor', 'editor', 'admin'] as const;
export type GrantablePermission = (typeof GRANTABLE_PERMISSIONS)[number];

export type Action =
  /** see the record and everything attached to it */
  | 'read'
  /** add files, thumbnails, metadata, keywords and links */
  | 'contribute'
  /** change the record's own fields; delete files and thumbnails */
  | 'update'
  /** grant and revoke access, make public or private, request deletion */
  | 'manage'
  /** transfer ownership, reassign to another project */
  | 'own';

export const ACTION_LEVEL: Record<Action, Permission> = {
  read: 'viewer',
  contribute: 'contributor',
  update: 'editor',
  manage: 'admin',
  own: 'owner',
};

export function rank(p: Permission | null | undefined): number {
  return p ? PERMISSIONS.indexOf(p) + 1 : 0;
}

export function higher(a: Permission | null, b: Permission | null): Permission | null {
  return rank(a) >= rank(b) ? a : b;
}

export function allows(p: Permission | null, action: Action): boolean {
  return rank(p) >= rank(ACTION_LEVEL[action]);
}

/** Why an action is refused: the level it needs and the level held. */
export function refusal(action: Action, what: string, held: Permission | null): string {
  return `You may not ${action} ${what}: it needs ${ACTION_LEVEL[action]} permission, you hold ${held ?? 'none'}`;
}

export function isGrantable(value: unknown): value is GrantablePermission {
  return typeof value === 'string' && (GRANTABLE_PERMISSIONS as readonly string[]).includes(value);
}

/** Who a grant is given to. */
export const PRINCIPAL_TYPES = ['user', 'project', 'group'] as const;
export type PrincipalType = (typeof PRINCIPAL_TYPES)[number];

/** What a grant is given on: every record with an owner. */
export const RESOURCE_TYPES = ['dataset', 'sample', 'project', 'instrument'] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];
