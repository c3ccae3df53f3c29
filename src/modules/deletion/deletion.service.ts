import type { EntityManager } from '@mikro-orm/postgresql';
import { LockMode } from '@mikro-orm/core';
import type { RequestContext } from '../../core/context';
import { conflict, notFound, validationError } from '../../core/errors';
import { uniquely } from '../../core/db/unique';
import { optionalText, parseIntegerId } from '../../core/input';
import type { OffsetPage } from '../../core/db/page';
import {
  capitalize,
  subjectOfRow,
  type AnyResource,
  type ResourceService,
} from '../resource/resource.service';
import { DeletionRequest } from './deletion-request.entity';
import { DeletionAudit } from './deletion-audit.entity';
import { ResourceRemoval, type DeletableType, type RemovalTarget } from '../removal/removal';
import type { DeletionPolicy } from './deletion.policy';
import type { EventService } from '../outbox/event.service';
import {
  auditPage,
  requestPage,
  type DeletionAuditFilter,
  type DeletionRequestFilter,
} from './deletion.query';

interface ResourceSnapshot {
  name: string | null;
  projectId: string | null;
  projectMfid: string | null;
}

/**
 * Deletion is requested, then reviewed (spec 1.11, 3; who may: `DeletionPolicy`). A request
 * needs `manage` on the dataset or sample; it removes nothing, but hides the resource from
 * collections and searches while pending. Platform admins list, approve or reject requests;
 * approval removes the resource for good through the removal hooks (one transaction, object
 * cleanup after commit) and leaves an audit entry that outlives it.
 */
export class DeletionService {
  readonly removal = new ResourceRemoval();

  constructor(
    private readonly resources: ResourceService,
    private readonly policy: DeletionPolicy,
    private readonly events: EventService,
  ) {}

  /**
   * Records a pending request. The permission check and the insert share one transaction
   * holding the resource's row lock, so the check sees the owner and project the request is
   * recorded against.
   */
  async request(ctx: RequestContext, resourceId: string, reason: unknown): Promise<DeletionRequest> {
    const text = optionalText(reason, 'reason');
    const r = await this.resources.find(ctx, resourceId);
    const type = deletableType(r);
    const snapshot = await this.snapshot(ctx, r);
    const request = await ctx.em.transactional(async (tx) => {
      const row = await this.resources.ownershipRow(tx, type, r.uniqueId, true);
      if (!row) throw notFound(capitalize(type), r.uniqueId);
      await this.policy.assertMayRequest(ctx.within(tx), subjectOfRow(type, row));
      const request = tx.create(DeletionRequest, {
        resourceId: r.uniqueId,
        resourceType: type,
        resourceName: snapshot.name,
        projectId: snapshot.projectId,
        projectMfid: snapshot.projectMfid,
        requesterId: ctx.userId,
        reason: text,
      });
      await uniquely(() => tx.flush(), `a deletion request for ${r.uniqueId} is already pending`);
      await this.emitReview(tx, ctx.userId, request, 'deletion.requested');
      return request;
    });
    ctx.loaders.pendingDeletion.clear(r.uniqueId);
    return request;
  }

  /**
   * Withdraws a pending request: its requester (or a platform admin, who may reject it anyway),
   * while it is pending (409 once reviewed; a request of someone else is 404, as it is
   * unreadable to them). The row goes, and a
   * `deletion.withdrawn` event with the note keeps it in the resource's history.
   */
  async withdraw(ctx: RequestContext, id: unknown, note: unknown): Promise<DeletionRequest> {
    const requestId = parseIntegerId(id);
    const text = optionalText(note, 'notes');
    const request = await ctx.em.transactional(async (tx) => {
      const request = await tx.findOne(
        DeletionRequest,
        { id: requestId },
        { lockMode: LockMode.PESSIMISTIC_WRITE },
      );
      if (!request || (request.requesterId !== ctx.userId && !this.policy.mayReview(ctx)))
        throw notFound('Deletion request', String(requestId));
      if (request.status !== 'pending')
        throw conflict(`deletion request ${requestId} was already ${request.status}`);
      await this.events.emit(tx, {
        type: 'deletion.withdrawn',
        actorId: ctx.userId,
        resourceId: request.resourceId,
        resourceType: request.resourceType,
        payload: { request_id: request.id, notes: text },
      });
      tx.remove(request);
      await tx.flush();
      return request;
    });
    ctx.loaders.pendingDeletion.clear(request.resourceId);
    return request;
  }

  /**
   * A page of deletion requests. Platform administrators see every request; anyone else sees
   * only the requests they made (whatever the scope), so `reviewable` is empty for them.
   */
  async list(
    ctx: RequestContext,
    filter: DeletionRequestFilter,
    page: { limit: number; offset: number },
  ): Promise<OffsetPage<DeletionRequest>> {
    return requestPage(ctx.em, ctx.userId, this.policy.mayReview(ctx), filter, page);
  }

  /** The requests of these ids (platform admins, as `get`; nothing for anyone else), in one statement. */
  async readable(ctx: RequestContext, ids: readonly number[]): Promise<DeletionRequest[]> {
    if (!this.policy.mayReview(ctx) || !ids.length) return [];
    return ctx.em.find(DeletionRequest, { id: { $in: [...ids] } });
  }

  /** The audit entries of these ids (platform admins, as `getAudit`; nothing for anyone else). */
  async readableAudit(ctx: RequestContext, ids: readonly number[]): Promise<DeletionAudit[]> {
    if (!this.policy.mayReview(ctx) || !ids.length) return [];
    return ctx.em.find(DeletionAudit, { id: { $in: [...ids] } });
  }

  /** Whether the caller reviews deletion requests (platform administrators, in their effective mode). */
  mayReview(ctx: RequestContext): boolean {
    return this.policy.mayReview(ctx);
  }

  async get(ctx: RequestContext, id: unknown): Promise<DeletionRequest> {
    this.policy.assertMayReview(ctx);
    const request = await ctx.em.findOne(DeletionRequest, { id: parseIntegerId(id) });
    if (!request) throw notFound('Deletion request', String(id));
    return request;
  }

  /** Approves (removing the resource) or rejects a pending request; 409 once reviewed. */
  async review(
    ctx: RequestContext,
    id: unknown,
    rawStatus: unknown,
    notes: unknown,
  ): Promise<DeletionRequest> {
    this.policy.assertMayReview(ctx);
    const requestId = parseIntegerId(id);
    if (rawStatus !== 'approved' && rawStatus !== 'rejected') {
      throw validationError('status', 'must be approved or rejected');
    }
    const reviewerNotes = optionalText(notes, 'reviewer_notes');
    const { request, after, target } = await ctx.em.transactional(async (tx) => {
      const request = await tx.findOne(
        DeletionRequest,
        { id: requestId },
        { lockMode: LockMode.PESSIMISTIC_WRITE },
      );
      if (!request) throw notFound('Deletion request', String(requestId));
      if (request.status !== 'pending')
        throw conflict(`deletion request ${requestId} was already ${request.status}`);
      Object.assign(request, {
        status: rawStatus,
        reviewerId: ctx.userId,
        reviewerNotes,
        reviewTime: new Date(),
      });
      await tx.flush();
      await this.emitReview(
        tx,
        ctx.userId,
        request,
        rawStatus === 'approved' ? 'deletion.approved' : 'deletion.rejected',
      );
      const target: RemovalTarget = { uniqueId: request.resourceId, type: request.resourceType };
      const snapshot = {
        name: request.resourceName ?? null,
        projectId: request.projectId ?? null,
        projectMfid: request.projectMfid ?? null,
      };
      const after =
        rawStatus === 'approved' ? await this.removeIn(tx, target, snapshot, request, ctx.userId) : [];
      return { request, after, target };
    });
    await this.removal.afterCommit(after, ctx.log, target);
    return request;
  }

  /**
   * Removes a resource now (platform admins). Without `force` it needs an approved request
   * (409 otherwise); a pending request is closed as approved by the removal. Answers whether it
   * was removed by this call: false when an approval already removed it (the 3.1 client
   * approves, then deletes: the second step finds the audit entry and succeeds instead of
   * answering 404).
   */
  async deleteNow(ctx: RequestContext, resourceId: string, force: boolean): Promise<boolean> {
    this.policy.assertMayReview(ctx);
    if (!(await this.resources.detect(ctx.em, resourceId))) {
      const removed = await ctx.em.count(DeletionAudit, { resourceId });
      if (removed > 0) return false;
    }
    const r = await this.resources.find(ctx, resourceId);
    const target: RemovalTarget = { uniqueId: r.uniqueId, type: deletableType(r) };
    const snapshot = await this.snapshot(ctx, r);
    const after = await ctx.em.transactional(async (tx) => {
      const requests = await tx.find(
        DeletionRequest,
        { resourceId: r.uniqueId, status: { $in: ['pending', 'approved'] } },
        { orderBy: { id: 'desc' } },
      );
      const approved = requests.find((q) => q.status === 'approved');
      if (!approved && !force) {
        throw conflict(
          `resource ${r.uniqueId} has no approved deletion request: approve one, or delete with force=True`,
        );
      }
      const request = approved ?? requests.at(0) ?? null;
      if (request?.status === 'pending') {
        Object.assign(request, {
          status: 'approved',
          reviewerId: ctx.userId,
          reviewerNotes: request.reviewerNotes ?? 'approved by a forced deletion',
          reviewTime: new Date(),
        });
        await tx.flush();
        await this.emitReview(tx, ctx.userId, request, 'deletion.approved');
      }
      return this.removeIn(tx, target, snapshot, request, ctx.userId);
    });
    await this.removal.afterCommit(after, ctx.log, target);
    return true;
  }

  /**
   * A page of the audit, newest first unless `direction` is `asc`. `all` (the default) is for
   * platform administrators (403 otherwise); `submitted` lists the deletions the caller asked
   * for, for anyone.
   */
  async listAudit(
    ctx: RequestContext,
    filter: DeletionAuditFilter,
    page: { limit: number; offset: number },
  ): Promise<OffsetPage<DeletionAudit>> {
    if (filter.scope !== 'submitted') this.policy.assertMayReview(ctx);
    return auditPage(ctx.em, ctx.userId, filter, page);
  }

  async getAudit(ctx: RequestContext, id: unknown): Promise<DeletionAudit> {
    this.policy.assertMayReview(ctx);
    const entry = await ctx.em.findOne(DeletionAudit, { id: parseIntegerId(id) });
    if (!entry) throw notFound('Deletion audit entry', String(id));
    return entry;
  }

  /** Runs the removal hooks and writes the audit entry, inside `tx`. */
  private async removeIn(
    tx: EntityManager,
    target: RemovalTarget,
    snapshot: ResourceSnapshot,
    request: DeletionRequest | null,
    reviewerId: string,
  ) {
    // before the hooks: the event takes the project from the resource's row
    await this.events.emit(tx, {
      type: 'resource.removed',
      actorId: reviewerId,
      resourceId: target.uniqueId,
      resourceType: target.type,
      payload: { name: snapshot.name, request_id: request?.id ?? null },
    });
    const after = await this.removal.removeIn(tx, target);
    tx.create(DeletionAudit, {
      requestId: request?.id ?? null,
      resourceId: target.uniqueId,
      resourceType: target.type,
      resourceName: snapshot.name,
      projectId: snapshot.projectId,
      projectMfid: snapshot.projectMfid,
      requesterId: request?.requesterId ?? null,
      reason: request?.reason ?? null,
      requestTime: request?.requestTime ?? null,
      reviewerId,
      reviewerNotes: request?.reviewerNotes ?? null,
      reviewTime: request?.reviewTime ?? new Date(),
    });
    await tx.flush();
    return after;
  }

  /** A deletion request's event: requested, approved or rejected, with its reason or notes. */
  private async emitReview(
    tx: EntityManager,
    actorId: string,
    request: DeletionRequest,
    type: 'deletion.requested' | 'deletion.approved' | 'deletion.rejected',
  ): Promise<void> {
    await this.events.emit(tx, {
      type,
      actorId,
      resourceId: request.resourceId,
      resourceType: request.resourceType,
      payload: {
        request_id: request.id,
        ...(type === 'deletion.requested'
          ? { reason: request.reason ?? null }
          : { notes: request.reviewerNotes ?? null }),
      },
    });
  }

  /** The display fields copied into requests and audit entries (they outlive the resource). */
  private async snapshot(ctx: RequestContext, r: AnyResource): Promise<ResourceSnapshot> {
    const projectMfid = r.type === 'dataset' || r.type === 'sample' ? r.record.projectMfid : undefined;
    const project = projectMfid ? await ctx.loaders.project.load(projectMfid) : null;
    return {
      name: this.resources.name(r),
      projectId: project?.projectId ?? null,
      projectMfid: project?.uniqueId ?? null,
    };
  }
}

function deletableType(r: AnyResource): DeletableType {
  if (r.type === 'dataset' || r.type === 'sample') return r.type;
  throw validationError(
    'resource_type',
    `deletion requests apply to datasets and samples, not to a ${r.type}`,
  );
}
