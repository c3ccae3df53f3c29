import { Arg, Ctx, ID, Mutation, Resolver } from 'type-graphql';
import type { RequestContext } from '../../core/context';
import { toProjectRef } from '../project/project.types';
import type { PermissionLevelEnum } from '../access/access.types';
import { toLinked } from '../link/link.types';
import type { AccessChange, ChangeResult } from './transfer.service';
import { ChangePreviewType } from './transfer.types';

const change = (c: AccessChange) => ({
  user: c.user,
  before: c.before as PermissionLevelEnum | null,
  after: c.after as PermissionLevelEnum | null,
});

function toPreview(ctx: RequestContext, result: ChangeResult): ChangePreviewType {
  const p = result.preview;
  ctx.canonical.add(p.resource.record);
  return {
    action: p.action,
    applied: result.applied,
    resourceId: p.resource.uniqueId,
    resource: p.resource.record,
    currentOwner: p.currentOwner ?? null,
    newOwner: p.newOwner ?? null,
    currentProject: toProjectRef(p.currentProject),
    newProject: toProjectRef(p.newProject),
    gains: p.gains.map(change),
    losses: p.losses.map(change),
    grantsAffected: p.grantsAffected,
    related: { ...p.related, links: p.related.links.map(toLinked) },
    token: p.token,
  };
}

const CONFIRM = { defaultValue: false, description: 'false: preview only (nothing changes); true: apply.' };
const TOKEN = {
  nullable: true,
  description: 'The token of a preview: the confirm then fails (CONFLICT) if anything changed since.',
};

@Resolver()
export class TransferResolver {
  @Mutation(() => ChangePreviewType, {
    description:
      'Transfers the ownership of a dataset, sample, project or instrument (needs owner permission): a preview unless confirm is true.',
  })
  async transferOwnership(
    @Arg('id', () => ID, { description: 'The MFID of the record (projects also by slug).' }) id: string,
    @Arg('newOwner', { description: 'The new owner: ORCID, MFID, username or email.' }) newOwner: string,
    @Arg('confirm', CONFIRM) confirm: boolean,
    @Arg('token', () => String, TOKEN) token: string | undefined,
    @Ctx() ctx: RequestContext,
  ): Promise<ChangePreviewType> {
    return toPreview(
      ctx,
      await ctx.services.transfer.transferOwnership(ctx, id, { newOwner, confirm, token }),
    );
  }

  @Mutation(() => ChangePreviewType, {
    description:
      'Reassigns a dataset or sample to another project (needs owner permission on it and contributor on the project): a preview unless confirm is true.',
  })
  async reassignProject(
    @Arg('id', () => ID, { description: 'The MFID of the dataset or sample.' }) id: string,
    @Arg('projectId', () => String, { nullable: true, description: 'The new project slug.' })
    projectId: string | undefined,
    @Arg('projectMfid', () => String, { nullable: true, description: 'The new project MFID (must agree).' })
    projectMfid: string | undefined,
    @Arg('confirm', CONFIRM) confirm: boolean,
    @Arg('token', () => String, TOKEN) token: string | undefined,
    @Ctx() ctx: RequestContext,
  ): Promise<ChangePreviewType> {
    return toPreview(
      ctx,
      await ctx.services.transfer.reassignProject(ctx, id, { projectId, projectMfid, confirm, token }),
    );
  }
}
