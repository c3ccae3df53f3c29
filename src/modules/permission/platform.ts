import type { RequestContext } from '../../core/context';
import { forbidden } from '../../core/errors';
import type { PlatformRole } from '../../core/auth/privilege';

/**
 * What a platform role may create (docs/access-control.md, "Platform roles and privilege mode"),
 * decided on the role the caller acts with on this request (`ctx.platformRole`), so an
 * administrator in `normal` mode creates exactly what an ordinary member does:
 *
 * | role          | datasets, samples | projects, instruments | for another owner | users, service accounts |
 * |---------------|-------------------|-----------------------|-------------------|-------------------------|
 * | `none`        | no                | no                    | no                | no                      |
 * | `contributor` | yes               | no                    | service accounts  | no                      |
 * | `admin`       | yes               | yes                   | yes               | yes                     |
 *
 * Everything else (reading, changing records through grants and memberships) is the same for
 * `none` and `contributor`.
 */
export type CreatedKind = 'dataset' | 'sample' | 'project' | 'instrument';

/** The account capabilities `/account/profile` reports (the client's `AccountCapabilities`). */
export interface AccountCapabilities {
  canManageServiceAccounts: boolean;
  canManageUsers: boolean;
  canCreateProject: boolean;
  canRegisterInstrument: boolean;
  canCreateSample: boolean;
  canCreateDataset: boolean;
  canCreateForOthers: boolean;
}

const RANK: Record<PlatformRole, number> = { none: 0, contributor: 1, admin: 2 };

/** The least role that creates each kind. */
const CREATES: Record<CreatedKind, PlatformRole> = {
  dataset: 'contributor',
  sample: 'contributor',
  project: 'admin',
  instrument: 'admin',
};

export function roleCreates(role: PlatformRole, kind: CreatedKind): boolean {
  return RANK[role] >= RANK[CREATES[kind]];
}

/** 403 unless the caller's effective platform role creates `kind`. */
export function assertRoleCreates(ctx: RequestContext, kind: CreatedKind): void {
  const role = ctx.platformRole;
  if (roleCreates(role, kind)) return;
  const needed =
    CREATES[kind] === 'admin' ? 'platform administrators' : 'the contributor and admin platform roles';
  throw forbidden(`Creating ${kind}s is for ${needed} (you act as ${role})`);
}

/** The caller's account capabilities, from the role they act with on this request. */
export function accountCapabilities(ctx: RequestContext): AccountCapabilities {
  const role = ctx.platformRole;
  const admin = role === 'admin';
  return {
    canManageServiceAccounts: admin,
    canManageUsers: admin,
    canCreateProject: roleCreates(role, 'project'),
    canRegisterInstrument: roleCreates(role, 'instrument'),
    canCreateSample: roleCreates(role, 'sample'),
    canCreateDataset: roleCreates(role, 'dataset'),
    canCreateForOthers: admin || (ctx.caller.user.isServiceAccount && roleCreates(role, 'dataset')),
  };
}
