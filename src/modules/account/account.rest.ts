import type { Router } from 'express';
import { handle } from '../../core/rest/handler';
import { toLegacyUser } from '../user/user.rest';

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
}
