import type { Router } from 'express';
import { handle, param } from '../../core/rest/handler';
import { bodyObject, qBool, qOffsetPage, qStr } from '../../core/rest/params';
import { optionalString, pickFields, type Body } from '../../core/rest/body';
import { validationError } from '../../core/errors';
import { parseUserPatch, toLegacyUser, toPublicUser } from './user.legacy';

function stringList(body: Body, field: string): string[] | undefined {
  const v = body[field];
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string'))
    throw validationError(field, 'must be a list of strings');
  return v as string[];
}

/** Users and service accounts. Literal segments come before `/users/:id`. */
export function userRoutes(router: Router): void {
  router.get(
    '/users',
    handle(async (ctx, req) => {
      const { limit, offset } = qOffsetPage(req.query, ctx.config.limits);
      const page = await ctx.services.userAdmin.list(
        ctx,
        {
          email: qStr(req.query, 'email'),
          permissive: qBool(req.query, 'permissive', false),
          username: qStr(req.query, 'username'),
          isServiceAccount: qBool(req.query, 'is_service_account'),
        },
        { limit, offset },
      );
      return { items: page.items.map((u) => toLegacyUser(ctx, u)), total: page.total };
    }),
  );
  router.post(
    '/users',
    handle(async (ctx, req) => {
      const body = pickFields(bodyObject(req.body), ['user_info', 'project_ids']);
      const info = bodyObject(body.user_info);
      const orcid = optionalString(info, 'orcid') ?? optionalString(info, 'unique_id') ?? undefined;
      const patch = parseUserPatch(
        Object.fromEntries(Object.entries(info).filter(([k]) => k !== 'orcid' && k !== 'unique_id')),
        true,
      );
      const projects = stringList(body, 'project_ids') ?? [];
      const { user } = await ctx.services.userAdmin.upsert(ctx, orcid, patch, projects);
      return toLegacyUser(ctx, user);
    }),
  );
  router.post(
    '/users/resolve',
    handle(async (ctx, req) => {
      const body = pickFields(bodyObject(req.body), ['orcids', 'usernames', 'emails']);
      const resolved = await ctx.services.userAdmin.resolveMany(ctx, {
        orcids: stringList(body, 'orcids'),
        usernames: stringList(body, 'usernames'),
        emails: stringList(body, 'emails'),
      });
      return Object.fromEntries([...resolved].map(([k, u]) => [k, u ? toPublicUser(ctx, u) : null]));
    }),
  );
  router.get(
    '/users/by-username/:username',
    handle(async (ctx, req) =>
      toPublicUser(ctx, await ctx.services.userAdmin.getByUsername(ctx, param(req, 'username'))),
    ),
  );
  router.get(
    '/users/:id',
    handle(async (ctx, req) => toLegacyUser(ctx, await ctx.services.userAdmin.get(ctx, param(req, 'id')))),
  );
  router.patch(
    '/users/:id',
    handle(async (ctx, req) => {
      const patch = parseUserPatch(bodyObject(req.body), true);
      return toLegacyUser(ctx, await ctx.services.userAdmin.update(ctx, param(req, 'id'), patch));
    }),
  );
  router.get(
    '/users/:id/apikey/verify',
    handle(async (ctx, req) => {
      const status = await ctx.services.userAdmin.keyStatus(ctx, param(req, 'id'));
      return {
        valid: status.valid,
        created_at: status.createdAt?.toISOString() ?? null,
        expires_at: status.expiresAt?.toISOString() ?? null,
      };
    }),
  );
  router.get(
    '/users/:id/datasets',
    handle((ctx, req) => ctx.services.userAccess.readableDatasets(ctx, param(req, 'id'))),
  );
  router.get(
    '/users/:id/datasets/:dsid',
    handle((ctx, req) => ctx.services.userAccess.datasetAccess(ctx, param(req, 'id'), param(req, 'dsid'))),
  );
  router.post(
    '/service_accounts',
    handle(async (ctx, req) => {
      const body = pickFields(bodyObject(req.body), ['username', 'unique_id']);
      const { user, secret } = await ctx.services.userAdmin.createServiceAccount(
        ctx,
        body.username,
        body.unique_id ?? undefined,
      );
      return { ...toLegacyUser(ctx, user), api_key: secret };
    }, 201),
  );
  router.post(
    '/service_accounts/:id/rotate_key',
    handle(async (ctx, req) => {
      const { user, secret } = await ctx.services.userAdmin.rotateServiceAccountKey(ctx, param(req, 'id'));
      return { ...toLegacyUser(ctx, user), api_key: secret };
    }),
  );
}
