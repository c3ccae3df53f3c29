import type { EntityManager } from '@mikro-orm/postgresql';
import type { FilterQuery } from '@mikro-orm/core';
import { validationError } from '../../core/errors';
import type { OffsetPage } from '../../core/db/page';
import { offsetFind } from '../../core/db/keyset';
import { offsetRows } from '../../core/db/page';
import { and, sql } from '../../core/db/sql';
import { DeletionRequest, DELETION_STATUSES, type DeletionStatus } from './deletion-request.entity';
import { DeletionAudit } from './deletion-audit.entity';

/**
 * Which deletion requests a list is about (the 3.2 client's `DELETION_REQUEST_SCOPES`): those
 * the caller may see (`accessible`, the default), those they asked for (`submitted`), those they
 * may review now (`reviewable`: pending, for platform administrators; none for anyone else).
 */
export const DELETION_REQUEST_SCOPES = ['accessible', 'submitted', 'reviewable'] as const;
export type DeletionRequestScope = (typeof DELETION_REQUEST_SCOPES)[number];

/** The sort keys of a deletion request list (the 3.2 client's `DELETION_REQUEST_SORTS`). */
export const DELETION_REQUEST_SORTS = [
  'request_time',
  'resource_name',
  'project_id',
  'requester_name',
  'status',
] as const;
export type DeletionRequestSort = (typeof DELETION_REQUEST_SORTS)[number];
const SORT_COLUMNS: Record<DeletionRequestSort, string[]> = {
  request_time: ['dr.request_time'],
  resource_name: ['dr.resource_name'],
  project_id: ['dr.project_id'],
  requester_name: ['u.last_name', 'u.first_name'],
  status: ['dr.status'],
};

export interface DeletionRequestFilter {
  status?: DeletionStatus;
  resourceId?: string;
  requesterId?: string;
  scope?: DeletionRequestScope;
  /** requests on resources of this project (its MFID when requested) */
  projectMfid?: string;
  sort?: { sort: DeletionRequestSort; direction: 'asc' | 'desc' } | null;
}

/** `all`: the platform-wide audit (administrators); `submitted`: the deletions the caller asked for. */
export const DELETION_AUDIT_SCOPES = ['all', 'submitted'] as const;
export type DeletionAuditScope = (typeof DELETION_AUDIT_SCOPES)[number];

export interface DeletionAuditFilter {
  resourceId?: string;
  requesterId?: string;
  reviewerId?: string;
  scope?: DeletionAuditScope;
  projectId?: string;
  projectMfid?: string;
  /** on the deletion order (newest first by default) */
  direction?: 'asc' | 'desc';
}

/**
 * A page of deletion requests. Platform administrators (`reviewer`) see every request; anyone
 * else sees only the requests they made (whatever the scope), so `reviewable` is empty for them.
 */
export function requestPage(
  em: EntityManager,
  userId: string,
  reviewer: boolean,
  filter: DeletionRequestFilter,
  page: { limit: number; offset: number },
): Promise<OffsetPage<DeletionRequest>> {
  const scope = filter.scope ?? 'accessible';
  const where = and(
    !reviewer || scope === 'submitted' ? sql('dr.requester_id = ?', userId) : null,
    scope === 'reviewable' ? (reviewer ? sql(`dr.status = 'pending'`) : sql('false')) : null,
    filter.status ? sql('dr.status = ?', filter.status) : null,
    filter.resourceId ? sql('dr.resource_id = ?', filter.resourceId) : null,
    filter.requesterId ? sql('dr.requester_id = ?', filter.requesterId) : null,
    filter.projectMfid ? sql('dr.project_mfid = ?', filter.projectMfid) : null,
  );
  const dir = filter.sort?.direction ?? 'desc';
  const keys = filter.sort ? SORT_COLUMNS[filter.sort.sort].map((c) => `${c} ${dir} nulls last`) : [];
  const byName = filter.sort?.sort === 'requester_name';
  return offsetRows(
    em,
    DeletionRequest,
    {
      select: 'dr.*',
      from: byName
        ? 'deletion_request dr left join app_user u on u.unique_id = dr.requester_id'
        : 'deletion_request dr',
      where,
      order: [...keys, `dr.id ${dir}`].join(', '),
    },
    page,
  );
}

/**
 * A page of the audit, newest first unless `direction` is `asc`: every entry, or (`submitted`)
 * the deletions `userId` asked for. Who may ask for which is the service's to check.
 */
export function auditPage(
  em: EntityManager,
  userId: string,
  filter: DeletionAuditFilter,
  page: { limit: number; offset: number },
): Promise<OffsetPage<DeletionAudit>> {
  const submitted = filter.scope === 'submitted';
  const where: FilterQuery<DeletionAudit>[] = [];
  if (submitted) where.push({ requesterId: userId });
  if (filter.resourceId) where.push({ resourceId: filter.resourceId });
  if (filter.requesterId) where.push({ requesterId: filter.requesterId });
  if (filter.reviewerId) where.push({ reviewerId: filter.reviewerId });
  if (filter.projectId) where.push({ projectId: filter.projectId });
  if (filter.projectMfid) where.push({ projectMfid: filter.projectMfid });
  return offsetFind(
    em,
    DeletionAudit,
    where.length ? { $and: where } : {},
    { id: filter.direction ?? 'desc' },
    page,
  );
}

export function parseStatus(raw: string | undefined): DeletionStatus | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (!(DELETION_STATUSES as readonly string[]).includes(raw)) {
    throw validationError('status', 'must be pending, approved or rejected');
  }
  return raw as DeletionStatus;
}
