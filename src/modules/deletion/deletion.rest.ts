import { defineRoute, type Route } from '../../core/rest/route';
import { MESSAGE, NullableString, OFFSET_PAGE, offsetPage, QBool, QStr, Type } from '../../core/rest/schema';
import { validationError } from '../../core/errors';
import { pageOf } from '../../core/rest/params';
import { parseStatus } from './deletion.service';
import {
  DELETION_AUDIT,
  DELETION_REQUEST,
  toLegacyDeletionAudit,
  toLegacyDeletionRequest,
} from './deletion.legacy';

const tag = 'deletion';
const id = { id: 'the request id' };

export const deletionRoutes: Route[] = [
  defineRoute(
    {
      method: 'post',
      path: '/resources/:id/delete',
      tag,
      summary: 'Ask for a record to be deleted (reviewed by an admin)',
      params: { id: 'the resource MFID' },
      query: { reason: QStr('why (or in the body)') },
      body: Type.Object({ reason: Type.Optional(NullableString()) }, { additionalProperties: false }),
      status: 201,
      response: DELETION_REQUEST,
    },
    async (ctx, { params, query, body }) => {
      // the legacy client sends `?reason=`; a JSON body `{"reason": ...}` is read too (both: 422)
      const fromBody = (body as { reason?: string | null }).reason ?? undefined;
      if (fromBody !== undefined && query.reason !== undefined && fromBody !== query.reason) {
        throw validationError('reason', 'give it in the query or in the body, not both');
      }
      const request = await ctx.services.deletion.request(ctx, params.id, query.reason ?? fromBody);
      return toLegacyDeletionRequest(request);
    },
  ),
  defineRoute(
    {
      method: 'delete',
      path: '/resources/:id',
      tag,
      summary: 'Delete a record now (platform admins)',
      params: { id: 'the resource MFID' },
      query: { force: QBool('also delete what still refers to it', false) },
      response: MESSAGE,
    },
    async (ctx, { params, query }) => {
      const now = await ctx.services.deletion.deleteNow(ctx, params.id, query.force ?? false);
      return {
        detail: now
          ? `Resource ${params.id} permanently deleted`
          : `Resource ${params.id} was already deleted (see the audit)`,
      };
    },
  ),
  defineRoute(
    {
      method: 'get',
      path: '/deletion_requests',
      tag,
      summary: 'Deletion requests (yours; all for admins)',
      query: {
        status: QStr('pending, approved or rejected'),
        resource_id: QStr('of this resource'),
        requester_id: QStr('by this requester (ORCID)'),
        ...OFFSET_PAGE,
      },
      response: offsetPage(DELETION_REQUEST),
    },
    async (ctx, { query }) => {
      const page = await ctx.services.deletion.list(
        ctx,
        { status: parseStatus(query.status), resourceId: query.resource_id, requesterId: query.requester_id },
        pageOf(query, ctx.config.limits),
      );
      return { items: page.items.map(toLegacyDeletionRequest), total: page.total };
    },
  ),
  defineRoute(
    {
      method: 'get',
      path: '/deletion_requests/:id',
      tag,
      summary: 'A deletion request',
      params: id,
      response: DELETION_REQUEST,
    },
    async (ctx, { params }) => toLegacyDeletionRequest(await ctx.services.deletion.get(ctx, params.id)),
  ),
  // approve or reject: status and reviewer_notes are query parameters on this route
  defineRoute(
    {
      method: 'patch',
      path: '/deletion_requests/:id',
      tag,
      summary: 'Approve or reject a deletion request (admins)',
      params: id,
      query: { status: QStr('approved or rejected'), reviewer_notes: QStr('a note for the requester') },
      response: DELETION_REQUEST,
    },
    async (ctx, { params, query }) =>
      toLegacyDeletionRequest(
        await ctx.services.deletion.review(ctx, params.id, query.status, query.reviewer_notes),
      ),
  ),
  defineRoute(
    {
      method: 'get',
      path: '/deletion_audit',
      tag,
      summary: 'The audit of deleted records',
      query: {
        resource_id: QStr('of this resource'),
        requester_id: QStr('requested by (ORCID)'),
        reviewer_id: QStr('reviewed by (ORCID)'),
        ...OFFSET_PAGE,
      },
      response: offsetPage(DELETION_AUDIT),
    },
    async (ctx, { query }) => {
      const page = await ctx.services.deletion.listAudit(
        ctx,
        { resourceId: query.resource_id, requesterId: query.requester_id, reviewerId: query.reviewer_id },
        pageOf(query, ctx.config.limits),
      );
      return { items: page.items.map(toLegacyDeletionAudit), total: page.total };
    },
  ),
  defineRoute(
    {
      method: 'get',
      path: '/deletion_audit/:id',
      tag,
      summary: 'An audit entry',
      params: { id: 'the audit entry id' },
      response: DELETION_AUDIT,
    },
    async (ctx, { params }) => toLegacyDeletionAudit(await ctx.services.deletion.getAudit(ctx, params.id)),
  ),
];
