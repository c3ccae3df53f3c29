import { defineRoute, type Route } from '../../core/rest/route';
import { Checked, QBool, QInt, QStr, Type } from '../../core/rest/schema';
import { MAX_SEARCH_LIMIT } from './metadata-search';
import { METADATA, METADATA_HIT, toLegacyMetadata, toLegacyHit } from './metadata.legacy';

const tag = 'metadata';
const id = { id: 'the resource MFID' };
const DOCUMENT = Checked('the scientific metadata: a JSON object');

export const metadataRoutes: Route[] = [
  defineRoute(
    {
      method: 'get',
      path: '/resources/metadata/search',
      tag,
      summary: 'Full-text search in the metadata of the records you may read',
      description:
        "Newest first (MFID descending), not by relevance: each hit carries its `rank`, but the order is the dataset text filter's, so a page costs the same however many records match. `after` (the `unique_id` of the last hit of the previous page) gives the next page.",
      query: {
        q: Type.String({ description: 'the words to find (web-search syntax)' }),
        limit: QInt(`hits (at most ${MAX_SEARCH_LIMIT})`, { minimum: 1, default: 20 }),
        after: QStr('only hits older than this MFID (the `unique_id` of the last hit of the previous page)'),
      },
      response: Type.Object({ items: Type.Array(METADATA_HIT) }),
    },
    async (ctx, { query }) => {
      const hits = await ctx.services.metadata.search(
        ctx,
        query.q,
        Math.min(query.limit ?? 20, MAX_SEARCH_LIMIT),
        query.after,
      );
      return { items: hits.map(toLegacyHit) };
    },
  ),
  defineRoute(
    {
      method: 'get',
      path: '/resources/:id/metadata',
      tag,
      summary: "A resource's scientific metadata (null when it has none)",
      params: id,
      response: METADATA,
    },
    async (ctx, { params }) => toLegacyMetadata(await ctx.services.metadata.get(ctx, params.id)),
  ),
  // PATCH merges top-level keys (creating when absent); overwrite=true replaces everything
  defineRoute(
    {
      method: 'patch',
      path: '/resources/:id/metadata',
      tag,
      summary: 'Merge top-level keys into the metadata (or replace it with overwrite=true)',
      params: id,
      query: { overwrite: QBool('replace the whole document', false) },
      body: DOCUMENT,
      response: METADATA,
    },
    async (ctx, { params, query, body }) =>
      toLegacyMetadata(
        await ctx.services.metadata.write(ctx, params.id, query.overwrite ? 'replace' : 'merge', body),
      ),
  ),
  // POST replaces all existing metadata (spec 4.1, 4.2), with or without overwrite
  defineRoute(
    {
      method: 'post',
      path: '/resources/:id/metadata',
      tag,
      summary: 'Replace the metadata',
      params: id,
      query: { overwrite: QBool('accepted for compatibility: POST always replaces') },
      body: DOCUMENT,
      response: METADATA,
    },
    async (ctx, { params, body }) =>
      toLegacyMetadata(await ctx.services.metadata.write(ctx, params.id, 'replace', body)),
  ),
];
