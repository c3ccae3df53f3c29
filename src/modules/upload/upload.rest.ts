import { Router, type Response } from 'express';
import type { ContextFactory } from '../../core/context-factory';
import { AppError } from '../../core/errors';
import { defineRoute, mount, openRoute, type Route, type RouteSpec } from '../../core/rest/route';
import { Checked, ERROR_BODY, NullableString, Type } from '../../core/rest/schema';
import { FILE, toLegacyFile } from '../file/file.legacy';
import type { ChunkReply } from './chunk-receiver';

const tag = 'uploads';
const id = { id: 'the dataset MFID' };
const INITIATE_BODY = Type.Object(
  {
    filename: Type.Optional(Checked('the file name (required)')),
    size: Type.Optional(Checked('bytes (required): a whole number')),
    sha256_hash: Type.Optional(
      Checked('64 hexadecimal characters: checked at completion, and finds a file already there'),
    ),
    ingestor: Type.Optional(Checked('the ingestor to run once complete')),
    ingestion_class: Type.Optional(Checked('legacy name of `ingestor`')),
    content_type: Type.Optional(Checked('the media type')),
  },
  { additionalProperties: false, title: 'UploadInitiate' },
);

/** The authenticated half of the resumable protocol (reference §5.4 #28–#30, §6.1). */
export const uploadRoutes: Route[] = [
  defineRoute(
    {
      method: 'post',
      path: '/datasets/:id/upload/initiate',
      tag,
      summary: 'Start a resumable upload (or find the same file already there)',
      params: id,
      body: INITIATE_BODY,
      response: Type.Object(
        {
          upload_id: NullableString(),
          resumable_uri: NullableString({ description: 'PUT the chunks here (no API key)' }),
          chunk_size_hint: Type.Integer(),
          expires_at: Type.Optional(Type.String({ format: 'date-time' })),
          existing_file: Type.Union([FILE, Type.Null()]),
        },
        { title: 'UploadSession' },
      ),
    },
    async (ctx, { params, body: raw }) => {
      const body = raw as Record<string, unknown>;
      const started = await ctx.services.upload.initiate(ctx, params.id, {
        filename: body.filename,
        size: body.size,
        sha256: body.sha256_hash,
        ingestor: body.ingestor ?? body.ingestion_class,
        contentType: body.content_type,
      });
      if ('existing' in started) {
        return {
          upload_id: null,
          resumable_uri: null,
          chunk_size_hint: ctx.config.uploads.chunkSizeHint,
          existing_file: toLegacyFile(started.existing),
        };
      }
      return {
        upload_id: started.session.uniqueId,
        resumable_uri: started.uri,
        chunk_size_hint: started.chunkSizeHint,
        expires_at: started.session.expiresAt.toISOString(),
        existing_file: null,
      };
    },
  ),
  defineRoute(
    {
      method: 'post',
      path: '/datasets/:id/upload/initiate/multipart',
      tag,
      summary: 'Not offered: answers 501 (use the resumable upload)',
      params: id,
      status: 501,
      response: ERROR_BODY,
    },
    () => {
      throw new AppError(
        'NOT_IMPLEMENTED',
        'This server does not hand out cloud-storage credentials for parallel multipart uploads. ' +
          'Use the resumable upload instead: POST /datasets/{id}/upload/initiate ' +
          '(in the Python client: datasets.add_file(..., multipart=False)).',
      );
    },
  ),
  defineRoute(
    {
      method: 'post',
      path: '/datasets/:id/upload/complete',
      tag,
      summary: 'Finish a resumable upload: the file is checked and added',
      params: id,
      body: Type.Object({
        upload_id: Type.Optional(Checked('the upload id (required)')),
        sha256_hash: Type.Optional(Checked('64 hexadecimal characters')),
      }),
      response: FILE,
    },
    async (ctx, { params, body }) => {
      const b = body as { upload_id?: unknown; sha256_hash?: unknown };
      const added = await ctx.services.upload.complete(ctx, params.id, b.upload_id, b.sha256_hash);
      return toLegacyFile(added.file);
    },
  ),
];

function reply(res: Response, r: ChunkReply): void {
  if (r.status !== 200 && r.range) res.setHeader('Range', r.range);
  if (r.status === 308) {
    res.status(308).setHeader('Content-Length', '0');
    res.end();
    return;
  }
  res.status(r.status).json(r.body);
}

export const UPLOAD_CHUNK_SPEC = {
  method: 'put',
  path: '/upload-sessions/:token',
  tag,
  summary: 'Send a chunk of a resumable upload (the token is the credential: no API key)',
  description:
    'Send `Content-Range: bytes <first>-<last>/<total>` (or `bytes */<total>` to ask how far it got). ' +
    'Answers 308 with `Range` while incomplete, 200 when every byte is there.',
  params: { token: 'the token of the resumable_uri' },
  auth: false,
  bytes: true,
  response: Type.Object({}, { additionalProperties: true }),
  responses: { 308: { description: 'Incomplete: `Range` says what the server holds' } },
} as const satisfies RouteSpec;

/**
 * The session URI of resumable uploads. It needs no API key (the unguessable token in the path
 * is the credential; an Authorization header is ignored), so it is mounted before the API-key
 * middleware. Chunk bodies are raw bytes and stream straight to storage.
 */
export function uploadSessionRouter(contexts: ContextFactory): Router {
  const router = Router();
  mount(router, [
    openRoute(UPLOAD_CHUNK_SPEC, async ({ params }, req, res) => {
      const length = req.get('content-length');
      const ctx = await contexts.forRequest(req.requestId, undefined, true);
      const r = await ctx.services.upload.chunks.receive(
        ctx.em,
        params.token,
        {
          contentRange: req.get('content-range'),
          contentLength: length === undefined ? undefined : Number(length),
        },
        req,
      );
      reply(res, r);
    }),
  ]);
  return router;
}
