import type { Router } from 'express';
import { handle, param } from '../../core/rest/handler';
import { qLimit, qStr } from '../../core/rest/params';
import { toLegacyEvent } from './event.legacy';

/** The history of a resource: `{items, next_cursor}`, newest first (docs/events.md). */
export function historyRoutes(router: Router): void {
  router.get(
    '/resources/:id/history',
    handle(async (ctx, req) => {
      const history = ctx.services.history;
      const page = await history.page(ctx, param(req, 'id'), {
        limit: qLimit(req.query, ctx.config.limits.defaultPageSize, ctx.config.limits.maxPageSize),
        cursor: history.cursor(qStr(req.query, 'cursor'), 'cursor'),
      });
      return { items: page.items.map(toLegacyEvent), next_cursor: page.nextCursor };
    }),
  );
  router.delete(
    '/events',
    handle(async (ctx, req) => {
      const purged = await ctx.services.history.purge(ctx, qStr(req.query, 'before'));
      return { purged };
    }),
  );
}
