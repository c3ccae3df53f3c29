import type { Router } from 'express';
import { handle, param } from '../../core/rest/handler';
import { qBool, qInt, qStr } from '../../core/rest/params';
import type { MetadataRecord } from './metadata.service';
import { MAX_SEARCH_LIMIT, type MetadataHit } from './metadata.search';

/** `{unique_id, scientific_metadata}`, or JSON null when the resource has no metadata. */
const toLegacy = (r: MetadataRecord) =>
  r.data === null ? null : { unique_id: r.uniqueId, scientific_metadata: r.data };

const toLegacyHit = (h: MetadataHit) => ({
  unique_id: h.uniqueId,
  resource_type: h.resourceType,
  name: h.name,
  owner_orcid: h.ownerOrcid,
  creation_time: h.creationTime.toISOString(),
  modification_time: h.modificationTime.toISOString(),
  rank: h.rank,
  scientific_metadata: h.scientificMetadata,
});

export function metadataRoutes(router: Router): void {
  router.get(
    '/resources/metadata/search',
    handle(async (ctx, req) => {
      const limit = qInt(req.query, 'limit', 20, 1, Number.MAX_SAFE_INTEGER);
      const hits = await ctx.services.metadata.search(
        ctx,
        qStr(req.query, 'q'),
        Math.min(limit, MAX_SEARCH_LIMIT),
      );
      return { items: hits.map(toLegacyHit) };
    }),
  );
  router.get(
    '/resources/:id/metadata',
    handle(async (ctx, req) => toLegacy(await ctx.services.metadata.get(ctx, param(req, 'id')))),
  );
  // PATCH merges (creating when absent); overwrite=true replaces everything
  router.patch(
    '/resources/:id/metadata',
    handle(async (ctx, req) => {
      const mode = qBool(req.query, 'overwrite', false) ? 'replace' : 'merge';
      return toLegacy(await ctx.services.metadata.write(ctx, param(req, 'id'), mode, req.body));
    }),
  );
  // POST replaces with overwrite=true; without it, it creates and is a 409 when metadata exists
  router.post(
    '/resources/:id/metadata',
    handle(async (ctx, req) => {
      const mode = qBool(req.query, 'overwrite', false) ? 'replace' : 'create';
      return toLegacy(await ctx.services.metadata.write(ctx, param(req, 'id'), mode, req.body));
    }),
  );
}
