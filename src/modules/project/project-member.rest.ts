import type { Request, Router } from 'express';
import type { RequestContext } from '../../core/context';
import { AppError, notFound, validationError } from '../../core/errors';
import { handle, param } from '../../core/rest/handler';
import { bodyObject, qOffsetPage, qStr } from '../../core/rest/params';
import { pickFields } from '../../core/rest/body';
import type { User } from '../user/user.entity';
import type { Project } from './project.entity';
import { toLegacyMember } from './project.legacy';

async function memberRecords(ctx: RequestContext, project: Project): Promise<Record<string, unknown>[]> {
  return (await ctx.services.project.members(ctx, project)).map((m) => toLegacyMember(ctx, m));
}

/** The member named in the path: ORCID, MFID, username or email, by exact lookup. */
async function pathUser(ctx: RequestContext, req: Request): Promise<User> {
  const id = param(req, 'uid');
  const user = await ctx.services.user.resolve(ctx.em, id);
  if (!user) throw notFound('User', id);
  return user;
}

/** The literal `me` route: `email` and/or `username` name the target user (reference #72/#74). */
async function queryUser(ctx: RequestContext, req: Request): Promise<User> {
  const email = qStr(req.query, 'email');
  const username = qStr(req.query, 'username');
  if (!email && !username) throw validationError('email', 'give the email or username of the user');
  const found: User[] = [];
  for (const value of [email, username]) {
    if (!value) continue;
    const user = await ctx.services.user.resolve(ctx.em, value);
    if (!user) throw notFound('User', value);
    found.push(user);
  }
  if (found.length === 2 && found[0].uniqueId !== found[1].uniqueId) {
    throw new AppError('VALIDATION', 'email and username name different users', [
      { field: 'email', message: 'conflicts with username' },
      { field: 'username', message: 'conflicts with email' },
    ]);
  }
  return found[0];
}

/** Adds a member with `?role=`; without it, a new member is a contributor and a member keeps their role. */
async function addMember(ctx: RequestContext, project: Project, user: User, req: Request): Promise<void> {
  const role = qStr(req.query, 'role');
  if (role === undefined) await ctx.services.project.ensureMember(ctx, project, user);
  else await ctx.services.project.setMember(ctx, project, user, role);
}

/**
 * Project members (spec 4.2; reference #70–#74): list (members and project admins), add,
 * change role, remove (project admins and the lead). Each change returns the complete member
 * list; the lead is not a member (admin implicitly) and is never listed.
 */
export function projectMemberRoutes(router: Router): void {
  router.get(
    '/projects/:pid/users',
    handle(async (ctx, req) => {
      const project = await ctx.services.project.get(ctx, param(req, 'pid'));
      const { limit, offset } = qOffsetPage(req.query, ctx.config.limits);
      const all = await ctx.services.project.memberList(ctx, project);
      return {
        items: all.slice(offset, offset + limit).map((m) => toLegacyMember(ctx, m)),
        total: all.length,
      };
    }),
  );
  // the literal `me` first: it would otherwise be read as a user named "me"
  router.post(
    '/projects/:pid/users/me',
    handle(async (ctx, req) => {
      const project = await ctx.services.project.get(ctx, param(req, 'pid'));
      await addMember(ctx, project, await queryUser(ctx, req), req);
      return memberRecords(ctx, project);
    }),
  );
  router.delete(
    '/projects/:pid/users/me',
    handle(async (ctx, req) => {
      const project = await ctx.services.project.get(ctx, param(req, 'pid'));
      await ctx.services.project.removeMember(ctx, project, await queryUser(ctx, req));
      return memberRecords(ctx, project);
    }),
  );
  router.post(
    '/projects/:pid/users/:uid',
    handle(async (ctx, req) => {
      const project = await ctx.services.project.get(ctx, param(req, 'pid'));
      await addMember(ctx, project, await pathUser(ctx, req), req);
      return memberRecords(ctx, project);
    }),
  );
  router.patch(
    '/projects/:pid/users/:uid',
    handle(async (ctx, req) => {
      const body = pickFields(bodyObject(req.body), ['role']);
      const project = await ctx.services.project.get(ctx, param(req, 'pid'));
      await ctx.services.project.changeRole(ctx, project, await pathUser(ctx, req), body.role);
      return memberRecords(ctx, project);
    }),
  );
  router.delete(
    '/projects/:pid/users/:uid',
    handle(async (ctx, req) => {
      const project = await ctx.services.project.get(ctx, param(req, 'pid'));
      await ctx.services.project.removeMember(ctx, project, await pathUser(ctx, req));
      return memberRecords(ctx, project);
    }),
  );
}
