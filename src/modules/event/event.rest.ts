import { defineRoute, type Route } from '../../core/rest/route';
import { LIMIT, QStr, Type } from '../../core/rest/schema';
import { limitOf } from '../../core/rest/params';
import { HISTORY_PAGE, toLegacyEvent } from './event.legacy';

const tag = 'events';

/** The history of a resource and its purge (docs/events.md). */
export const historyRoutes: Route[] = [
  defineRoute(
    {
      method: 'get',
      path: '/resources/:id/history',
      tag,
      summary: 'Who did what to a resource, newest first',
      description:
        'Readable by admins of the resource and platform admins; platform admins also read the history of a removed resource.',
      params: { id: 'the resource MFID' },
      query: { limit: LIMIT, cursor: QStr('`next_cursor` of the previous page') },
      response: HISTORY_PAGE,
    },
    async (ctx, { params, query }) => {
      const history = ctx.services.history;
      const page = await history.page(ctx, params.id, {
        limit: limitOf(query, ctx.config.limits),
        cursor: history.cursor(query.cursor, 'cursor'),
      });
      return { items: page.items.map(toLegacyEvent), next_cursor: page.nextCursor };
    },
  ),
  defineRoute(
    {
      method: 'delete',
      path: '/events',
      tag,
      summary: 'Purge the history older than a time (platform admins)',
      description: 'Events still to be delivered to a webhook are kept.',
      query: { before: QStr('ISO 8601 date-time (checked by the service)') },
      response: Type.Object({ purged: Type.Integer({ minimum: 0 }) }),
    },
    async (ctx, { query }) => ({ purged: await ctx.services.history.purge(ctx, query.before) }),
  ),
];
