import type { FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../core/context';
import { forbidden, notFound } from '../../core/errors';
import { allows } from '../permission/permission';
import type { ResourceService } from '../resource/resource.service';
import type { Publication } from './publication.entity';

/**
 * Who may see and change a publication (docs/publications.md). A published or withdrawn one is
 * read by everyone (a withdrawn one as its tombstone). A draft is read and changed by its
 * creator, platform admins and whoever may manage every one of its datasets (the `manage` that
 * visibility and grants need); anyone else gets what a missing id gets (404). Creating,
 * publishing and making a new version need `manage` on every dataset, checked on the dataset
 * rows as locked by the write's transaction.
 */
export class PublicationPolicy {
  constructor(private readonly resources: ResourceService) {}

  /** The filter of publication lists: published and withdrawn ones, and the caller's own drafts. */
  visibleWhere(ctx: RequestContext): FilterQuery<Publication> {
    if (ctx.isPlatformAdmin) return {};
    if (!ctx.isAuthenticated) return { state: { $ne: 'draft' } };
    return { $or: [{ state: { $ne: 'draft' } }, { creatorId: ctx.userId }] };
  }

  /** The publication when the caller may read it; 404 otherwise. */
  async assertCanRead(ctx: RequestContext, pub: Publication | null, id: string): Promise<Publication> {
    if (pub && (pub.state !== 'draft' || (await this.mayEdit(ctx, pub)))) return pub;
    throw notFound('Publication', id);
  }

  /**
   * The publication when the caller may change it (its creator, platform admins, managers of
   * all its datasets): 404 when they may not read it, 403 when they may read but not change it.
   */
  async assertCanEdit(ctx: RequestContext, pub: Publication | null, id: string): Promise<Publication> {
    const readable = await this.assertCanRead(ctx, pub, id);
    if (!(await this.mayEdit(ctx, readable)))
      throw forbidden(
        'You may not change this publication: it needs its creator, or manage permission on all its datasets',
      );
    return readable;
  }

  private async mayEdit(ctx: RequestContext, pub: Publication): Promise<boolean> {
    if (!ctx.isAuthenticated) return false;
    if (ctx.isPlatformAdmin || pub.creatorId === ctx.userId) return true;
    const problems = await this.managementProblems(ctx, ctx.em, pub.datasetIds, false);
    return problems.length === 0;
  }

  /**
   * Checks that the caller may manage every one of these datasets, on their rows as `em` reads
   * them (locked, in the id order, when `lock`: inside the write's transaction, so a permission
   * revoked meanwhile is seen). 404 for a dataset that is missing or unreadable (alike, as a
   * grant or a webhook naming one), 403 naming the first one the caller may read but not manage.
   */
  async assertManagesAll(
    ctx: RequestContext,
    em: EntityManager,
    datasetIds: readonly string[],
    lock: boolean,
  ): Promise<void> {
    const problems = await this.managementProblems(ctx, em, datasetIds, lock);
    const missing = problems.find((p) => p.refused === null);
    if (missing) throw notFound('Dataset', missing.id);
    if (problems.length) throw forbidden(problems[0].refused ?? 'You may not manage these datasets');
  }

  private async managementProblems(
    ctx: RequestContext,
    em: EntityManager,
    datasetIds: readonly string[],
    lock: boolean,
  ): Promise<{ id: string; refused: string | null }[]> {
    const problems: { id: string; refused: string | null }[] = [];
    const scoped = lock ? ctx.within(em) : ctx;
    // in id order: two transactions locking overlapping lists cannot deadlock
    for (const id of [...datasetIds].sort()) {
      const row = await this.resources.ownershipRow(em, 'dataset', id, lock);
      const permission = row
        ? await this.resources.permissionOf(scoped, {
            type: 'dataset',
            uniqueId: row.uniqueId,
            ownerId: row.ownerId,
            projectMfid: row.projectMfid,
            instrumentMfid: row.instrumentMfid,
            public: row.public ?? false,
          })
        : null;
      if (!permission) problems.push({ id, refused: null });
      else if (!allows(permission, 'manage'))
        problems.push({
          id,
          refused: `You may not publish dataset ${id}: it needs admin permission, you hold ${permission}`,
        });
    }
    return problems;
  }
}
