import { sendCached } from '../../core/http/send-cached';
import { defineRoute, type Route } from '../../core/rest/route';
import { Checked, echoed, QStr, MESSAGE, MESSAGES, Type } from '../../core/rest/schema';
import { THUMBNAIL, toLegacyThumbnail } from './thumbnail.legacy';

const tag = 'datasets';
const MAX_BATCH = 1000;
const NOT_A_LIST = 'must be a JSON array of dataset MFIDs';
const BODY = Type.Object(
  {
    thumbnail_name: Type.Optional(Checked('a name', { type: ['string', 'null'] })),
    thumbnail_b64str: Type.Optional(
      Checked('the image (PNG, JPEG, GIF or WebP), base64', { type: 'string' }),
    ),
    ...echoed(['id', 'dataset_id', 'mime_type']),
  },
  { additionalProperties: false, title: 'ThumbnailInput' },
);
const ids = { id: 'the dataset MFID', tid: 'the thumbnail id' };

/** Thumbnails (reference §5.3, spec 2.4) and the batch of first thumbnails frontends use. */
export const thumbnailRoutes: Route[] = [
  defineRoute(
    {
      method: 'get',
      path: '/thumbnails/:tid/image',
      tag,
      summary: "A thumbnail's image (JPEG; ETag, 304 when unchanged)",
      description:
        "GraphQL's `Thumbnail.url` names it, with `v` changing whenever the image does. `Cache-Control: private, no-cache`: the browser keeps the image and asks again with If-None-Match (a 304), so access is checked on every use; a thumbnail of a dataset the caller may not read is 404, as a missing one.",
      params: { tid: ids.tid },
      query: { v: QStr('the version the URL was given (ignored: the ETag decides)') },
      responseType: 'image/jpeg',
      responses: { 304: { description: 'Not modified (If-None-Match matched the ETag)' } },
    },
    async (ctx, { params }, req, res) => {
      sendCached(req, res, await ctx.services.thumbnail.image(ctx, params.tid));
      return undefined;
    },
  ),
  defineRoute(
    {
      method: 'post',
      path: '/datasets/first_thumbnails',
      tag,
      summary: 'The first thumbnail of each of many datasets (by MFID; missing ones are left out)',
      body: Type.Array(Type.String({ [MESSAGES]: { type: NOT_A_LIST } }), {
        maxItems: MAX_BATCH,
        description: 'dataset MFIDs',
        [MESSAGES]: { type: NOT_A_LIST, maxItems: `at most ${MAX_BATCH} datasets per request` },
      }),
      response: Type.Record(Type.String(), THUMBNAIL),
    },
    async (ctx, { body }) => {
      const first = await ctx.services.thumbnail.firstOf(ctx, body as string[]);
      return Object.fromEntries([...first].map(([id, t]) => [id, toLegacyThumbnail(t)]));
    },
  ),
  defineRoute(
    {
      method: 'get',
      path: '/datasets/:id/thumbnails',
      tag,
      summary: "A dataset's thumbnails",
      params: { id: ids.id },
      response: Type.Array(THUMBNAIL),
    },
    async (ctx, { params }) =>
      (await ctx.services.thumbnail.ofDataset(ctx, params.id)).map(toLegacyThumbnail),
  ),
  defineRoute(
    {
      method: 'post',
      path: '/datasets/:id/thumbnails',
      tag,
      summary: 'Add a thumbnail',
      params: { id: ids.id },
      body: BODY,
      status: 201,
      response: THUMBNAIL,
    },
    async (ctx, { params, body }) => {
      const b = body as Record<string, unknown>;
      const t = await ctx.services.thumbnail.add(ctx, params.id, {
        name: b.thumbnail_name,
        image: b.thumbnail_b64str,
      });
      return toLegacyThumbnail(t);
    },
  ),
  defineRoute(
    {
      method: 'patch',
      path: '/datasets/:id/thumbnails/:tid',
      tag,
      summary: 'Rename or replace a thumbnail',
      params: ids,
      body: BODY,
      response: THUMBNAIL,
    },
    async (ctx, { params, body }) => {
      const b = body as Record<string, unknown>;
      const t = await ctx.services.thumbnail.update(
        ctx,
        params.tid,
        { name: b.thumbnail_name, image: b.thumbnail_b64str },
        params.id,
      );
      return toLegacyThumbnail(t);
    },
  ),
  defineRoute(
    {
      method: 'delete',
      path: '/datasets/:id/thumbnails/:tid',
      tag,
      summary: 'Delete a thumbnail',
      params: ids,
      response: MESSAGE,
    },
    async (ctx, { params }) => {
      const t = await ctx.services.thumbnail.delete(ctx, params.tid, params.id);
      return { detail: `Thumbnail ${t.id} deleted` };
    },
  ),
];
