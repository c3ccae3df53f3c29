import type { Request, Router } from 'express';
import type { RequestContext } from '../../core/context';
import { validationError } from '../../core/errors';
import { handle, param } from '../../core/rest/handler';
import { bodyObject, qOffsetPage, qStr } from '../../core/rest/params';
import { pickFields } from '../../core/rest/body';
import type { MemberId, MemberList, MemberRef } from './project-member.service';
import { toLegacyMember } from './project.legacy';

function memberRecords(ctx: RequestContext, list: MemberList): Record<string, unknown>[] {
  return list.members.map((m) => toLegacyMember(ctx, m));
}

/** The member named in the path: ORCID, MFID, username or email, by exact lookup. */
function pathMember(req: Request): MemberRef {
  return { ids: [['user', param(req, 'uid')]] };
}

/** The literal `me` route: `email` and/or `username` name the target user (reference #72/#74). */
function queryMember(req: Request): MemberRef {
  const ids: MemberId[] = [];
  for (const field of ['email', 'username']) {
    const value = qStr(req.query, field);
    if (value) ids.push([field, value]);
  }
  const first = ids.at(0);
  const rest = ids.slice(1);
  if (!first) throw validationError('email', 'give the email or username of the user');
  return { ids: [first, ...rest] };
}

/**
 * Project members (spec 4.2; reference #70–#74): list (members and project admins), add,
 * change role, remove (project admins and the lead). Each change returns the complete member
 * list; the lead is not a member (admin implicitly) and is never listed. Adding takes `?role=`;
 * without it, a new member is a contributor and a member keeps their role.
 */
export function projectMemberRoutes(router: Router): void {
  router.get(
    '/projects/:pid/users',
    handle(async (ctx, req) => {
      const { limit, offset } = qOffsetPage(req.query, ctx.config.limits);
      const all = await ctx.services.projectMember.list(ctx, param(req, 'pid'));
      return {
        items: all.slice(offset, offset + limit).map((m) => toLegacyMember(ctx, m)),
        total: all.length,
      };
    }),
  );
  // the literal `me` first: it would otherwise be read as a user named "me"
  for (const [path, member] of [
    ['/projects/:pid/users/me', queryMember],
    ['/projects/:pid/users/:uid', pathMember],
  ] as const) {
    router.post(
      path,
      handle(async (ctx, req) => {
        const role = qStr(req.query, 'role');
        return memberRecords(
          ctx,
          await ctx.services.projectMember.add(ctx, param(req, 'pid'), member(req), role),
        );
      }),
    );
    router.delete(
      path,
      handle(async (ctx, req) =>
        memberRecords(ctx, await ctx.services.projectMember.remove(ctx, param(req, 'pid'), member(req))),
      ),
    );
  }
  router.patch(
    '/projects/:pid/users/:uid',
    handle(async (ctx, req) => {
      const body = pickFields(bodyObject(req.body), ['role']);
      return memberRecords(
        ctx,
        await ctx.services.projectMember.changeRole(ctx, param(req, 'pid'), pathMember(req), body.role),
      );
    }),
  );
}
