import { defineRoute, type Route } from '../../core/rest/route';
import {
  DIRECTIONS,
  Enum,
  MESSAGE,
  NullableString,
  OFFSET_PAGE,
  offsetPage,
  QBool,
  QStr,
  sortQuery,
  Type,
} from '../../core/rest/schema';
import { validationError } from '../../core/errors';
import { pageOf, sortOf } from '../../core/rest/params';
import {
  DELETION_AUDIT_SCOPES,
  DELETION_REQUEST_SCOPES,
  DELETION_REQUEST_SORTS,
  parseStatus,
} from './deletion.query';
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
      return toLegacyDeletionRequest(ctx, request);
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
        scope: Type.Optional(
          Enum(DELETION_REQUEST_SCOPES, {
            description:
              'accessible (the default): the requests you may see (all for platform administrators, your own for anyone else); submitted: yours; reviewable: those you may approve or reject now',
          }),
        ),
        project_mfid: QStr("on resources of this project (the project's MFID when requested)"),
        ...sortQuery(DELETION_REQUEST_SORTS, 'newest first'),
        ...OFFSET_PAGE,
      },
      response: offsetPage(DELETION_REQUEST),
    },
    async (ctx, { query }) => {
      const page = await ctx.services.deletion.list(
        ctx,
        {
          status: parseStatus(query.status),
          resourceId: query.resource_id,
          requesterId: query.requester_id,
          scope: query.scope,
          projectMfid: query.project_mfid,
          sort: sortOf(query),
        },
        pageOf(query, ctx.config.limits),
      );
      return {
        items: await Promise.all(page.items.map((r) => toLegacyDeletionRequest(ctx, r))),
        total: page.total,
      };
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
    async (ctx, { params }) => toLegacyDeletionRequest(ctx, await ctx.services.deletion.get(ctx, params.id)),
  ),
  defineRoute(
    {
      method: 'delete',
      path: '/deletion_requests/:id',
      tag,
      summary:
        'Withdraw a pending deletion request (its requester or a platform admin; the history keeps the note)',
      params: id,
      query: { notes: QStr('why it is withdrawn') },
      response: MESSAGE,
    },
    async (ctx, { params, query }) => {
      const request = await ctx.services.deletion.withdraw(ctx, params.id, query.notes);
      return { detail: `Deletion request ${String(request.id)} withdrawn` };
    },
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
        ctx,
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
        scope: Type.Optional(
          Enum(DELETION_AUDIT_SCOPES, {
            description:
              'all (the default; platform administrators): every deletion; submitted: the ones you asked for',
          }),
        ),
        project_id: QStr('of this project (its slug when deleted)'),
        project_mfid: QStr('of this project (its MFID when requested; older entries have none)'),
        direction: Type.Optional(
          Enum(DIRECTIONS, { description: 'on deletion time: desc (the default) or asc' }),
        ),
        ...OFFSET_PAGE,
      },
      response: offsetPage(DELETION_AUDIT),
    },
    async (ctx, { query }) => {
      const page = await ctx.services.deletion.listAudit(
        ctx,
        {
          resourceId: query.resource_id,
          requesterId: query.requester_id,
          reviewerId: query.reviewer_id,
          scope: query.scope,
          projectId: query.project_id,
          projectMfid: query.project_mfid,
          direction: query.direction,
        },
        pageOf(query, ctx.config.limits),
      );
      return {
        items: await Promise.all(page.items.map((a) => toLegacyDeletionAudit(ctx, a))),
        total: page.total,
      };
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
    async (ctx, { params }) =>
      toLegacyDeletionAudit(ctx, await ctx.services.deletion.getAudit(ctx, params.id)),
  ),
];
