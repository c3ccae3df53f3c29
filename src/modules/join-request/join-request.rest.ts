import { defineRoute, type Route } from '../../core/rest/route';
import { Checked, OFFSET_PAGE, offsetPage, QStr, Type } from '../../core/rest/schema';
import { pageOf } from '../../core/rest/params';
import { JOIN_REQUEST, toLegacyJoinRequest } from './join-request.legacy';

const tag = 'join requests';
const STATUS = QStr('pending, approved or rejected');

/** Join requests (reference #10, #75–#77). */
export const joinRequestRoutes: Route[] = [
  defineRoute(
    {
      method: 'post',
      path: '/access_groups/:group/join',
      tag,
      summary: 'Ask to join a project',
      params: { group: 'the project slug' },
      body: Type.Object(
        { reason: Type.Optional(Checked('why', { type: ['string', 'null'] })) },
        { additionalProperties: false },
      ),
      status: 201,
      response: JOIN_REQUEST,
    },
    async (ctx, { params, body }) =>
      toLegacyJoinRequest(
        ctx,
        await ctx.services.joinRequest.request(ctx, params.group, (body as { reason?: unknown }).reason),
      ),
  ),
  defineRoute(
    {
      method: 'get',
      path: '/join_requests',
      tag,
      summary: 'Join requests to the projects you administer (all for platform admins)',
      query: {
        group_name: QStr('to this project (slug)'),
        status: STATUS,
        requester_id: QStr('by this requester (ORCID)'),
        ...OFFSET_PAGE,
      },
      response: offsetPage(JOIN_REQUEST),
    },
    async (ctx, { query }) => {
      const page = await ctx.services.joinRequest.list(
        ctx,
        { groupName: query.group_name, status: query.status, requesterId: query.requester_id },
        pageOf(query, ctx.config.limits),
      );
      return {
        items: await Promise.all(page.items.map((r) => toLegacyJoinRequest(ctx, r))),
        total: page.total,
      };
    },
  ),
  // approve or reject: a JSON body here (unlike deletion requests, which take query parameters)
  defineRoute(
    {
      method: 'patch',
      path: '/join_requests/:id',
      tag,
      summary: 'Approve or reject a join request',
      params: { id: 'the request id' },
      body: Type.Object(
        {
          status: Type.Optional(Checked('approved or rejected', { type: 'string' })),
          reviewer_notes: Type.Optional(Checked('a note for the requester', { type: ['string', 'null'] })),
        },
        { additionalProperties: false },
      ),
      response: JOIN_REQUEST,
    },
    async (ctx, { params, body }) => {
      const { status, reviewer_notes } = body as { status?: unknown; reviewer_notes?: unknown };
      return toLegacyJoinRequest(
        ctx,
        await ctx.services.joinRequest.review(ctx, params.id, status, reviewer_notes),
      );
    },
  ),
  defineRoute(
    {
      method: 'get',
      path: '/account/join_requests',
      tag,
      summary: "The caller's join requests",
      query: { status: STATUS, ...OFFSET_PAGE },
      response: offsetPage(JOIN_REQUEST),
    },
    async (ctx, { query }) => {
      const page = await ctx.services.joinRequest.mine(ctx, query.status, pageOf(query, ctx.config.limits));
      return {
        items: await Promise.all(page.items.map((r) => toLegacyJoinRequest(ctx, r))),
        total: page.total,
      };
    },
  ),
];
