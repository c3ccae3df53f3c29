import { defineRoute, type Route } from '../../core/rest/route';
import { Checked, QBool, QInt, QStr, Type } from '../../core/rest/schema';
import { MAX_SEARCH_LIMIT } from './metadata-search';
import { MAX_VERSIONS_PAGE } from './metadata.service';
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
  defineRoute(
    {
      method: 'get',
      path: '/resources/:id/metadata/versions',
      tag,
      summary: "The versions of a resource's metadata, newest first",
      params: id,
      query: {
        limit: QInt(`versions (at most ${MAX_VERSIONS_PAGE})`, { minimum: 1, default: 20 }),
        before: QInt('only versions older than this one (`next_before` of the previous page)', {
          minimum: 1,
        }),
      },
      response: Type.Object({
        resource_id: Type.String(),
        items: Type.Array(
          Type.Object({
            version: Type.Integer(),
            data: Type.Record(Type.String(), Type.Unknown()),
            actor_id: Type.Union([Type.String(), Type.Null()]),
            time: Type.String({ format: 'date-time' }),
          }),
        ),
        next_before: Type.Union([Type.Integer(), Type.Null()]),
      }),
    },
    async (ctx, { params, query }) => {
      const page = await ctx.services.metadata.versions(ctx, params.id, query.limit ?? 20, query.before);
      return {
        resource_id: page.resourceId,
        items: page.items.map((v) => ({
          version: v.version,
          data: v.data,
          actor_id: v.actorId,
          time: v.time.toISOString(),
        })),
        next_before: page.nextBefore,
      };
    },
  ),
  defineRoute(
    {
      method: 'post',
      path: '/resources/:id/metadata/restore',
      tag,
      summary: 'Restore an earlier metadata version as a new change (editors)',
      params: id,
      body: Type.Object({ version: Checked('the version to restore') }),
      response: Type.Object({
        unique_id: Type.String(),
        scientific_metadata: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
        version: Type.Union([Type.Integer(), Type.Null()]),
      }),
    },
    async (ctx, { params, body }) => {
      const restored = await ctx.services.metadata.restore(
        ctx,
        params.id,
        (body as { version?: unknown }).version,
      );
      return { unique_id: restored.uniqueId, scientific_metadata: restored.data, version: restored.version };
    },
  ),
];
