import type { RequestContext } from '../../core/context';
import { validationError } from '../../core/errors';
import { defineRoute, type Route } from '../../core/rest/route';
import { Checked, OFFSET_PAGE, offsetPage, QStr, Type } from '../../core/rest/schema';
import { pageOf } from '../../core/rest/params';
import type { MemberId, MemberList, MemberRef } from './project-member.service';
import { MEMBER, toLegacyMember } from './project.legacy';

const tag = 'projects';
const MEMBERS = Type.Array(MEMBER);
const ROLE = QStr('member, contributor or admin (adding: default contributor; a member keeps their role)');

function memberRecords(ctx: RequestContext, list: MemberList): Record<string, unknown>[] {
  return list.members.map((m) => toLegacyMember(ctx, m));
}

/** The literal `me` route: `email` and/or `username` name the target user (reference #72/#74). */
function queryMember(query: { email?: string; username?: string }): MemberRef {
  const ids: MemberId[] = [];
  for (const field of ['email', 'username'] as const) {
    const value = query[field];
    if (value) ids.push([field, value]);
  }
  const first = ids.at(0);
  const rest = ids.slice(1);
  if (!first) throw validationError('email', 'give the email or username of the user');
  return { ids: [first, ...rest] };
}

const ME_QUERY = { email: QStr('the email of the user'), username: QStr('the username of the user') };
const pid = { pid: 'the project slug or MFID' };
const uid = { ...pid, uid: 'the user: ORCID, MFID, username or email' };
const pathMember = (uidValue: string): MemberRef => ({ ids: [['user', uidValue]] });

/**
 * Project members (spec 4.2; reference #70–#74): list (members and project admins), add,
 * change role, remove (project admins and the lead). Each change returns the complete member
 * list; the lead is not a member (admin implicitly) and is never listed. Adding takes `?role=`;
 * without it, a new member is a contributor and a member keeps their role.
 */
export const projectMemberRoutes: Route[] = [
  defineRoute(
    {
      method: 'get',
      path: '/projects/:pid/users',
      tag,
      summary: "A project's members",
      params: pid,
      query: OFFSET_PAGE,
      response: offsetPage(MEMBER),
    },
    async (ctx, { params, query }) => {
      const { limit, offset } = pageOf(query, ctx.config.limits);
      const all = await ctx.services.projectMember.list(ctx, params.pid);
      return {
        items: all.slice(offset, offset + limit).map((m) => toLegacyMember(ctx, m)),
        total: all.length,
      };
    },
  ),
  // the literal `me` first: it would otherwise be read as a user named "me"
  defineRoute(
    {
      method: 'post',
      path: '/projects/:pid/users/me',
      tag,
      summary: 'Add the user named by email or username',
      params: pid,
      query: { ...ME_QUERY, role: ROLE },
      response: MEMBERS,
    },
    async (ctx, { params, query }) =>
      memberRecords(
        ctx,
        await ctx.services.projectMember.add(ctx, params.pid, queryMember(query), query.role),
      ),
  ),
  defineRoute(
    {
      method: 'delete',
      path: '/projects/:pid/users/me',
      tag,
      summary: 'Remove the user named by email or username',
      params: pid,
      query: ME_QUERY,
      response: MEMBERS,
    },
    async (ctx, { params, query }) =>
      memberRecords(ctx, await ctx.services.projectMember.remove(ctx, params.pid, queryMember(query))),
  ),
  defineRoute(
    {
      method: 'post',
      path: '/projects/:pid/users/:uid',
      tag,
      summary: 'Add a member (or change the role with ?role=)',
      params: uid,
      query: { role: ROLE },
      response: MEMBERS,
    },
    async (ctx, { params, query }) =>
      memberRecords(
        ctx,
        await ctx.services.projectMember.add(ctx, params.pid, pathMember(params.uid), query.role),
      ),
  ),
  defineRoute(
    {
      method: 'delete',
      path: '/projects/:pid/users/:uid',
      tag,
      summary: 'Remove a member',
      params: uid,
      response: MEMBERS,
    },
    async (ctx, { params }) =>
      memberRecords(ctx, await ctx.services.projectMember.remove(ctx, params.pid, pathMember(params.uid))),
  ),
  defineRoute(
    {
      method: 'patch',
      path: '/projects/:pid/users/:uid',
      tag,
      summary: "Change a member's role",
      params: uid,
      body: Type.Object(
        { role: Type.Optional(Checked('member, contributor or admin', { type: 'string' })) },
        { additionalProperties: false },
      ),
      response: MEMBERS,
    },
    async (ctx, { params, body }) =>
      memberRecords(
        ctx,
        await ctx.services.projectMember.changeRole(
          ctx,
          params.pid,
          pathMember(params.uid),
          (body as { role?: unknown }).role,
        ),
      ),
  ),
];
