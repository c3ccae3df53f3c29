import { defineRoute, type Route } from '../../core/rest/route';
import { QBool, QStr, Type } from '../../core/rest/schema';
import { INCLUDE_QUERY } from '../../core/rest/include';
import { RESOURCE_TYPES } from '../permission/permission';
import { toLegacyResource } from './resource.legacy';

const tag = 'resources';
const id = { id: 'an MFID' };

export const resourceRoutes: Route[] = [
  defineRoute(
    {
      method: 'get',
      path: '/resources/:id/type',
      tag,
      summary: 'The type of a record',
      params: id,
      response: Type.Unsafe<string>({ type: 'string', enum: [...RESOURCE_TYPES] }),
    },
    async (ctx, { params }) => (await ctx.services.resource.find(ctx, params.id)).type,
  ),
  defineRoute(
    {
      method: 'get',
      path: '/resources/:id',
      tag,
      summary: 'Any record by its MFID, in the shape of its type',
      params: id,
      query: {
        resource_type: QStr(`expect this type: ${RESOURCE_TYPES.join(', ')}`),
        ...INCLUDE_QUERY,
        include_datasets: QBool('samples: add the deprecated `datasets` list (default true)'),
      },
      response: Type.Object({ unique_id: Type.String(), resource_type: Type.String() }),
    },
    async (ctx, { params, query }) => {
      const raw = query.resource_type;
      const type = raw === undefined || raw === '' ? undefined : ctx.services.resource.parseType(raw);
      return toLegacyResource(ctx, await ctx.services.resource.find(ctx, params.id, type), query);
    },
  ),
];
