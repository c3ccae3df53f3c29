import { NullableString, Type } from '../../core/rest/schema';
import type { RequestContext } from '../../core/context';
import { toPublicUser } from '../user/user.legacy';
import { toLegacyLink } from '../link/link.legacy';
import { toLegacyResource } from '../resource/resource.legacy';
import { toLegacyProjectRef } from '../project/project.legacy';
import type { AccessChange, ChangeResult } from './transfer.service';

/** A preview (or an applied change) on the wire. */
export async function toLegacyChange(
  ctx: RequestContext,
  result: ChangeResult,
): Promise<Record<string, unknown>> {
  const p = result.preview;
  const change = (c: AccessChange) => ({ user: toPublicUser(ctx, c.user), before: c.before, after: c.after });
  return {
    action: p.action,
    applied: result.applied,
    resource: {
      unique_id: p.resource.uniqueId,
      resource_type: p.resource.type,
      name: ctx.services.resource.name(p.resource),
    },
    // the 3.2 client's `OwnershipTransfer` / `ProjectReassignment`: the record and what it moves
    // from and to (the same in a preview and once applied)
    resource_id: p.resource.uniqueId,
    ...(p.action === 'transfer_ownership'
      ? {
          current_owner: p.currentOwner ? toPublicUser(ctx, p.currentOwner) : null,
          previous_owner: p.currentOwner ? toPublicUser(ctx, p.currentOwner) : null,
          new_owner: p.newOwner ? toPublicUser(ctx, p.newOwner) : null,
        }
      : {
          current_project: toLegacyProjectRef(p.currentProject),
          new_project: toLegacyProjectRef(p.newProject),
          resource_mfid: p.resource.uniqueId,
          previous_project_id: p.currentProject?.projectId ?? null,
          previous_project_mfid: p.currentProject?.uniqueId ?? null,
          new_project_id: p.newProject?.projectId ?? null,
          new_project_mfid: p.newProject?.uniqueId ?? null,
        }),
    gains: p.gains.map(change),
    losses: p.losses.map(change),
    grants_affected: p.grantsAffected.map((g) => ({
      principal_type: g.principalType,
      principal_id: g.principalId,
      permission: g.permission,
      effect: g.effect,
      reason: g.reason,
    })),
    related: {
      links: p.related.links.map(toLegacyLink),
      files: p.related.files,
      datasets: p.related.datasets,
      samples: p.related.samples,
    },
    token: p.token,
    ...(result.applied ? { record: await toLegacyResource(ctx, p.resource, {}) } : {}),
  };
}

export const CHANGE = Type.Object(
  {
    action: Type.String(),
    applied: Type.Boolean(),
    resource_id: Type.String({ description: 'the record moved (its MFID)' }),
    previous_owner: Type.Optional(
      Type.Union([Type.Object({}), Type.Null()], { description: 'transfers: the owner before' }),
    ),
    new_owner: Type.Optional(Type.Union([Type.Object({}), Type.Null()], { description: 'transfers' })),
    previous_project_id: Type.Optional(
      NullableString({ description: 'reassignments: the project before (slug)' }),
    ),
    previous_project_mfid: Type.Optional(NullableString()),
    new_project_id: Type.Optional(NullableString({ description: 'reassignments: the new project (slug)' })),
    new_project_mfid: Type.Optional(NullableString()),
    resource: Type.Object({ unique_id: Type.String(), resource_type: Type.String(), name: NullableString() }),
    gains: Type.Array(Type.Object({})),
    losses: Type.Array(Type.Object({})),
    grants_affected: Type.Array(Type.Object({})),
    related: Type.Object({}),
    token: NullableString({ description: 'send back with confirm: true to apply' }),
    record: Type.Optional(Type.Object({})),
  },
  { title: 'AccessChangePreview' },
);
