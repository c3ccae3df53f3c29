import { sendCached } from '../../core/http/send-cached';
import { defineRoute, type Route } from '../../core/rest/route';
import { Type } from '../../core/rest/schema';
import { PREVIEW_IMAGE_MAX_BYTES, PREVIEW_MAX_BYTES, previewImage } from './file-preview';
import {
  STRUCTURE_MAX_ATTRIBUTE_BYTES,
  STRUCTURE_MAX_ATTRIBUTES,
  STRUCTURE_MAX_BYTES,
  STRUCTURE_MAX_DEPTH,
  STRUCTURE_MAX_NODES,
} from './file-structure';

const tag = 'files';
const fileId = { id: 'the file MFID' };

export const FILE_STRUCTURE = Type.Object(
  {
    format: Type.String({ description: '`hdf5`' }),
    nodes: Type.Array(
      Type.Object({
        path: Type.String({ description: '`/` is the root group; `/entry/counts`' }),
        kind: Type.Union(['group', 'dataset', 'other'].map((k) => Type.Literal(k))),
        shape: Type.Union([Type.Array(Type.Number()), Type.Null()], {
          description: 'datasets: the dimensions (`[]` a scalar)',
        }),
        dtype: Type.Union([Type.String(), Type.Null()], { description: 'datasets: the element type' }),
        attributes: Type.Record(Type.String(), Type.Unknown(), {
          description: `at most ${STRUCTURE_MAX_ATTRIBUTES}; a value over ${STRUCTURE_MAX_ATTRIBUTE_BYTES} bytes of JSON is \`{"omitted": true, "bytes": n}\``,
        }),
      }),
      {
        description: `groups, datasets and other objects in tree order: at most ${STRUCTURE_MAX_NODES} nodes, ${STRUCTURE_MAX_DEPTH} levels, ${STRUCTURE_MAX_BYTES} bytes of JSON`,
      },
    ),
    truncated: Type.Boolean({ description: 'something was left out at the limits' }),
    ingestor: Type.Union([Type.String(), Type.Null()]),
    recorded_at: Type.String({ format: 'date-time' }),
  },
  {
    title: 'FileStructure',
    description: "An HDF5 file's own structure, as its last ingestion read it",
  },
);

export const FILE_PREVIEW = Type.Object(
  {
    file_id: Type.String(),
    filename: Type.String(),
    kind: Type.Union(
      ['csv', 'tsv', 'json', 'text', 'image', 'hdf5', 'none'].map((k) => Type.Literal(k)),
      {
        description:
          "csv, tsv, json, text: `text` holds the file's first bytes; image: `image_path` serves it; hdf5: `structure` is this file's own, as its last ingestion read it (null with `reason` when not ingested yet or it failed); none: `reason` says why",
      },
    ),
    size: Type.Integer({ description: 'the whole file, in bytes' }),
    text: Type.Union([Type.String(), Type.Null()]),
    bytes_read: Type.Integer({ description: `bytes read for \`text\` (at most ${PREVIEW_MAX_BYTES})` }),
    truncated: Type.Boolean({ description: 'the file goes on past `text`' }),
    image_path: Type.Union([Type.String(), Type.Null()]),
    reason: Type.Union([Type.String(), Type.Null()], {
      description: 'none: why there is nothing to show; hdf5: why `structure` is null',
    }),
    structure: Type.Union([FILE_STRUCTURE, Type.Null()]),
  },
  { title: 'FilePreview' },
);

/** Previews of a file's first bytes (docs/web-app.md, "Previews"); bytes go through the one byte check. */
export const previewRoutes: Route[] = [
  defineRoute(
    {
      method: 'get',
      path: '/files/:id/preview',
      tag,
      summary: 'A preview of a file: its first bytes as text, or what else can be shown',
      description: `Reads at most ${PREVIEW_MAX_BYTES} bytes from the start of the file (a range read), whatever its size. A file whose bytes the caller may not read is 404, as a missing one.`,
      params: fileId,
      response: FILE_PREVIEW,
    },
    async (ctx, { params }) => {
      const p = await ctx.services.download.preview(ctx, params.id);
      return {
        file_id: p.fileId,
        filename: p.filename,
        kind: p.kind,
        size: p.size,
        text: p.text,
        bytes_read: p.bytesRead,
        truncated: p.truncated,
        image_path: p.imagePath,
        reason: p.reason,
        structure: p.structure && {
          format: p.structure.format,
          nodes: p.structure.nodes.map((n) => ({
            path: n.path,
            kind: n.kind,
            shape: n.shape ?? null,
            dtype: n.dtype ?? null,
            attributes: n.attributes,
          })),
          truncated: p.structure.truncated,
          ingestor: p.structure.ingestor,
          recorded_at: p.structure.recordedAt.toISOString(),
        },
      };
    },
  ),
  defineRoute(
    {
      method: 'get',
      path: '/files/:id/preview/image',
      tag,
      summary: 'The bytes of an image file, for its preview (ETag; 304 when unchanged)',
      description: `PNG, JPEG, GIF or WebP files (by name) up to ${PREVIEW_IMAGE_MAX_BYTES} bytes, in the media type of their extension; any other file is 404. \`Cache-Control: private, no-cache\`: the browser keeps the image and asks again with If-None-Match (a 304), so access is checked on every use.`,
      params: fileId,
      responseType: 'image/*',
      responses: { 304: { description: 'Not modified (If-None-Match matched the ETag)' } },
    },
    async (ctx, { params }, req, res) => {
      sendCached(
        req,
        res,
        await previewImage(
          ctx.services.download.store,
          await ctx.services.download.readableFile(ctx, params.id),
        ),
      );
      return undefined;
    },
  ),
];
