import type { Router } from 'express';
import { handle } from '../../core/rest/handler';
import { parseUserPatch, toLegacyUser } from '../user/user.legacy';
import { bodyObject } from '../../core/rest/params';

export function accountRoutes(router: Router): void {
  router.get(
    '/account',
    handle(async (ctx) => {
      const whoami = await ctx.services.account.whoami(ctx);
      const key = whoami.apiKey;
      return {
        user_unique_id: whoami.user.uniqueId,
        access_group_ids: whoami.accessGroups,
        is_platform_admin: whoami.user.isPlatformAdmin,
        user_info: toLegacyUser(ctx, whoami.user),
        api_key: {
          unique_id: key.uniqueId,
          prefix: key.prefix,
          label: key.label ?? null,
          created_at: key.createdAt.toISOString(),
          expires_at: key.expiresAt?.toISOString() ?? null,
        },
        projects: whoami.projects.map((p) => ({
          unique_id: p.project.uniqueId,
          project_id: p.project.projectId,
          role: p.role,
        })),
      };
    }),
  );
  router.get(
    '/account/profile',
    handle((ctx) => Promise.resolve(toLegacyUser(ctx, ctx.caller.user))),
  );
  router.patch(
    '/account/profile',
    handle(async (ctx, req) =>
      toLegacyUser(
        ctx,
        await ctx.services.userAdmin.updateProfile(ctx, parseUserPatch(bodyObject(req.body), false)),
      ),
    ),
  );
  // Keys are stored hashed, so the only secret the service can show is the one this request
  // was made with: the caller's own key, which they already hold.
  router.get(
    '/account/apikey',
    handle((ctx) => Promise.resolve({ api_key: ctx.caller.token })),
  );
  router.get(
    '/account/verify',
    handle((ctx) => {
      const key = ctx.caller.apiKey;
      return Promise.resolve({
        valid: true,
        created_at: key.createdAt.toISOString(),
        expires_at: key.expiresAt?.toISOString() ?? null,
      });
    }),
  );
}
