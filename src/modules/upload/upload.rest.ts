import { Router, type Request, type Response } from 'express';
import type { ContextFactory } from '../../core/context-factory';
import { AppError } from '../../core/errors';
import { handle, param } from '../../core/rest/handler';
import { bodyObject } from '../../core/rest/params';
import { pickFields } from '../../core/rest/body';
import { toLegacyFile } from '../file/file.legacy';
import type { ChunkReply } from './chunk-receiver';

const INITIATE_FIELDS = ['filename', 'size', 'sha256_hash', 'ingestor', 'ingestion_class', 'content_type'];

/** The authenticated half of the resumable protocol (reference §5.4 #28–#30, §6.1). */
export function uploadRoutes(router: Router): void {
  router.post(
    '/datasets/:id/upload/initiate',
    handle(async (ctx, req) => {
      const body = pickFields(bodyObject(req.body), INITIATE_FIELDS);
      const started = await ctx.services.upload.initiate(ctx, param(req, 'id'), {
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
    }),
  );
  router.post(
    '/datasets/:id/upload/initiate/multipart',
    handle(() => {
      throw new AppError(
        'NOT_IMPLEMENTED',
        'This server does not hand out cloud-storage credentials for parallel multipart uploads. ' +
          'Use the resumable upload instead: POST /datasets/{id}/upload/initiate ' +
          '(in the Python client: datasets.add_file(..., multipart=False)).',
      );
    }),
  );
  router.post(
    '/datasets/:id/upload/complete',
    handle(async (ctx, req) => {
      const body = bodyObject(req.body);
      const added = await ctx.services.upload.complete(
        ctx,
        param(req, 'id'),
        body.upload_id,
        body.sha256_hash,
      );
      return toLegacyFile(added.file);
    }),
  );
}

function reply(res: Response, r: ChunkReply): void {
  if (r.status !== 200 && r.range) res.setHeader('Range', r.range);
  if (r.status === 308) {
    res.status(308).setHeader('Content-Length', '0');
    res.end();
    return;
  }
  res.status(r.status).json(r.body);
}

/**
 * The session URI of resumable uploads. It needs no API key (the unguessable token in the path
 * is the credential; an Authorization header is ignored), so it is mounted before the API-key
 * middleware. Chunk bodies are raw bytes and stream straight to storage.
 */
export function uploadSessionRouter(contexts: ContextFactory): Router {
  const router = Router();
  router.put('/upload-sessions/:token', (req: Request, res: Response, next) => {
    const length = req.get('content-length');
    contexts
      .forRequest(req.requestId, undefined, true)
      .then((ctx) =>
        ctx.services.upload.chunks.receive(
          ctx.em,
          param(req, 'token'),
          {
            contentRange: req.get('content-range'),
            contentLength: length === undefined ? undefined : Number(length),
          },
          req,
        ),
      )
      .then((r) => {
        reply(res, r);
      })
      .catch(next);
  });
  return router;
}
