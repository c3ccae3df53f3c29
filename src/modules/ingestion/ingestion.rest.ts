import { defineRoute, type Route } from '../../core/rest/route';
import { Checked, echoed, Enum, OFFSET_PAGE, offsetPage, QStr, Type } from '../../core/rest/schema';
import { validationError } from '../../core/errors';
import { pageOf } from '../../core/rest/params';
import { INGESTION_REQUEST, toLegacyIngestionRequest } from './ingestion.legacy';

const tag = 'ingestion';
/** what a worker may set; the service checks the values */
const PATCH_BODY = Type.Object(
  {
    id: Type.Optional(Checked('the request id (must match the path)')),
    status: Type.Optional(Checked('pending, started, completed or failed', { type: 'string' })),
    ingestion_githash: Type.Optional(Checked('the ingestor version', { type: ['string', 'null'] })),
    ingestion_class: Type.Optional(Checked('the ingestor', { type: ['string', 'null'] })),
    time_completed: Type.Optional(Checked('ISO 8601', { type: ['string', 'null'] })),
    error_message: Type.Optional(Checked('why it failed', { type: ['string', 'null'] })),
    // read-only fields a worker may echo back from a record it read
    ...echoed([
      'file_mfid',
      'dataset_mfid',
      'time_created',
      'time_started',
      'ingestor_used',
      'file_id',
      'created_at',
    ]),
  },
  { additionalProperties: false, title: 'IngestionRequestPatch' },
);

/** Ingestion requests and ingestors: the legacy routes (reference §5.7 #46, #51–#54). */
export const ingestionRoutes: Route[] = [
  defineRoute(
    {
      method: 'get',
      path: '/ingestors',
      tag,
      summary: 'The ingestors this server runs',
      response: Type.Array(Type.Unknown()),
    },
    (ctx) => Promise.resolve(ctx.services.ingestion.ingestors()),
  ),
  defineRoute(
    {
      method: 'post',
      path: '/files/:id/ingest',
      tag,
      summary: 'Queue the ingestion of a file',
      params: { id: 'the file MFID' },
      query: {
        ingestion_class: QStr('the ingestor (default: by file type)'),
        ingestor: QStr('same as ingestion_class'),
        status: Type.Optional(
          Enum(['requested', 'not_requested'] as const, {
            description:
              "requested (the default): queue an ingestion; not_requested (the 3.2 client's skip_ingestion): record that none is wanted, a final request never queued, remote files included",
          }),
        ),
      },
      status: 201,
      response: INGESTION_REQUEST,
    },
    async (ctx, { params, query }) => {
      const ingestor = query.ingestion_class ?? query.ingestor;
      if (query.status === 'not_requested') {
        if (ingestor !== undefined) {
          throw validationError(
            'ingestion_class',
            'names an ingestor, but status=not_requested asks for none',
          );
        }
        return toLegacyIngestionRequest(await ctx.services.ingestion.recordNotRequested(ctx, params.id));
      }
      return toLegacyIngestionRequest(await ctx.services.ingestion.request(ctx, params.id, ingestor));
    },
  ),
  defineRoute(
    {
      method: 'get',
      path: '/ingestion_requests',
      tag,
      summary: 'Ingestion requests of the files you may read',
      query: {
        dataset_id: QStr('of this dataset'),
        dataset_mfid: QStr('same as dataset_id'),
        file_id: QStr('of this file'),
        file_mfid: QStr('same as file_id'),
        ...OFFSET_PAGE,
      },
      response: offsetPage(INGESTION_REQUEST),
    },
    async (ctx, { query }) => {
      const filter = {
        datasetId: query.dataset_id || query.dataset_mfid || undefined,
        fileId: query.file_id || query.file_mfid || undefined,
      };
      const page = await ctx.services.ingestion.list(ctx, filter, pageOf(query, ctx.config.limits));
      return { items: page.items.map(toLegacyIngestionRequest), total: page.total };
    },
  ),
  defineRoute(
    {
      method: 'get',
      path: '/ingestion_requests/:id',
      tag,
      summary: 'An ingestion request',
      params: { id: 'the request id' },
      response: INGESTION_REQUEST,
    },
    async (ctx, { params }) => toLegacyIngestionRequest(await ctx.services.ingestion.get(ctx, params.id)),
  ),
  defineRoute(
    {
      method: 'patch',
      path: '/ingestion_requests/:id',
      tag,
      summary: 'Report progress of an ingestion (workers)',
      params: { id: 'the request id' },
      body: PATCH_BODY,
      response: INGESTION_REQUEST,
    },
    async (ctx, { params, body }) =>
      toLegacyIngestionRequest(
        await ctx.services.ingestion.update(ctx, params.id, body as Record<string, unknown>),
      ),
  ),
];
