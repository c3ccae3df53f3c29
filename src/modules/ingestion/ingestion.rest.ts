import type { Router } from 'express';
import { handle, param } from '../../core/rest/handler';
import { bodyObject, qOffsetPage, qStr } from '../../core/rest/params';
import { pickFields } from '../../core/rest/body';
import { toLegacyIngestionRequest } from './ingestion.legacy';

const PATCH_FIELDS = [
  'id',
  'status',
  'ingestion_githash',
  'ingestion_class',
  'time_completed',
  'error_message',
];
/** read-only fields a worker may echo back from a record it read */
const ECHOED = [
  'file_mfid',
  'dataset_mfid',
  'time_created',
  'time_started',
  'ingestor_used',
  'file_id',
  'created_at',
];

/** Ingestion requests and ingestors: the legacy routes (reference §5.7 #46, #51–#54). */
export function ingestionRoutes(router: Router): void {
  router.get(
    '/ingestors',
    handle((ctx) => Promise.resolve(ctx.services.ingestion.ingestors())),
  );
  router.post(
    '/files/:id/ingest',
    handle(async (ctx, req) => {
      const raw = qStr(req.query, 'ingestion_class') ?? qStr(req.query, 'ingestor');
      const request = await ctx.services.ingestion.request(ctx, param(req, 'id'), raw);
      return toLegacyIngestionRequest(request);
    }, 201),
  );
  router.get(
    '/ingestion_requests',
    handle(async (ctx, req) => {
      const filter = {
        datasetId: qStr(req.query, 'dataset_id') || qStr(req.query, 'dataset_mfid') || undefined,
        fileId: qStr(req.query, 'file_id') || qStr(req.query, 'file_mfid') || undefined,
      };
      const page = await ctx.services.ingestion.list(ctx, filter, qOffsetPage(req.query, ctx.config.limits));
      return { items: page.items.map(toLegacyIngestionRequest), total: page.total };
    }),
  );
  router.get(
    '/ingestion_requests/:id',
    handle(async (ctx, req) =>
      toLegacyIngestionRequest(await ctx.services.ingestion.get(ctx, param(req, 'id'))),
    ),
  );
  router.patch(
    '/ingestion_requests/:id',
    handle(async (ctx, req) => {
      const body = pickFields(bodyObject(req.body), PATCH_FIELDS, { ignore: ECHOED });
      return toLegacyIngestionRequest(await ctx.services.ingestion.update(ctx, param(req, 'id'), body));
    }),
  );
}
