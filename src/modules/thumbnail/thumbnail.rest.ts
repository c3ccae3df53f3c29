import type { Router } from 'express';
import { handle, param } from '../../core/rest/handler';
import { bodyObject } from '../../core/rest/params';
import { pickFields } from '../../core/rest/body';
import { validationError } from '../../core/errors';
import { toLegacyThumbnail } from './thumbnail.legacy';

const FIELDS = ['thumbnail_name', 'thumbnail_b64str'];
const ECHOED = ['id', 'dataset_id', 'mime_type'];
const MAX_BATCH = 1000;

/** Thumbnails (reference §5.3, spec 2.4) and the batch of first thumbnails frontends use. */
export function thumbnailRoutes(router: Router): void {
  router.post(
    '/datasets/first_thumbnails',
    handle(async (ctx, req) => {
      const ids: unknown = req.body;
      if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'string')) {
        throw validationError('body', 'must be a JSON array of dataset MFIDs');
      }
      if (ids.length > MAX_BATCH) throw validationError('body', `at most ${MAX_BATCH} datasets per request`);
      const first = await ctx.services.thumbnail.firstOf(ctx, ids);
      return Object.fromEntries([...first].map(([id, t]) => [id, toLegacyThumbnail(t)]));
    }),
  );
  router.get(
    '/datasets/:id/thumbnails',
    handle(async (ctx, req) =>
      (await ctx.services.thumbnail.ofDataset(ctx, param(req, 'id'))).map(toLegacyThumbnail),
    ),
  );
  router.post(
    '/datasets/:id/thumbnails',
    handle(async (ctx, req) => {
      const body = pickFields(bodyObject(req.body), FIELDS, { ignore: ECHOED });
      const t = await ctx.services.thumbnail.add(ctx, param(req, 'id'), {
        name: body.thumbnail_name,
        image: body.thumbnail_b64str,
      });
      return toLegacyThumbnail(t);
    }, 201),
  );
  router.patch(
    '/datasets/:id/thumbnails/:tid',
    handle(async (ctx, req) => {
      const body = pickFields(bodyObject(req.body), FIELDS, { ignore: ECHOED });
      const t = await ctx.services.thumbnail.update(
        ctx,
        param(req, 'tid'),
        { name: body.thumbnail_name, image: body.thumbnail_b64str },
        param(req, 'id'),
      );
      return toLegacyThumbnail(t);
    }),
  );
  router.delete(
    '/datasets/:id/thumbnails/:tid',
    handle(async (ctx, req) => {
      const t = await ctx.services.thumbnail.delete(ctx, param(req, 'tid'), param(req, 'id'));
      return { detail: `Thumbnail ${t.id} deleted` };
    }),
  );
}
