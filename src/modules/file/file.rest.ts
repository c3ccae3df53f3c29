import { defineRoute, type Route } from '../../core/rest/route';
import {
  echoed,
  MESSAGE,
  NullableString,
  OFFSET_PAGE,
  offsetPage,
  QList,
  QStr,
  Type,
} from '../../core/rest/schema';
import { pageOf } from '../../core/rest/params';
import { validationError } from '../../core/errors';
import { sendObject } from '../../core/storage/send';
import { FILE, toLegacyFile } from './file.legacy';
import type { RemoteFileInput } from './file-input';
import { receiveFormUpload } from './file-form';
import { streamArchive } from './archive';

const tag = 'files';
const text = Type.Optional(NullableString());
const REMOTE_FIELDS = {
  filename: text,
  storage_backend: Type.Optional(NullableString({ description: 'where the file lives (globus, local …)' })),
  storage_path: text,
  access_note: text,
  size: Type.Optional(
    Type.Unsafe<number | null>({
      type: ['integer', 'null'],
      minimum: 0,
      maximum: Number.MAX_SAFE_INTEGER,
      description: 'bytes',
    }),
  ),
  sha256_hash: Type.Optional(NullableString({ description: '64 hexadecimal characters' })),
};
/** read-only fields clients echo back from a record they read */
const ECHOED = ['mfid', 'dataset_mfid', 'content_type', 'creation_time', 'modification_time'];
const remoteBody = (title: string) =>
  Type.Object({ ...REMOTE_FIELDS, ...echoed(ECHOED) }, { additionalProperties: false, title });

function fileInput(body: Record<string, unknown>): RemoteFileInput {
  return {
    filename: body.filename,
    storageBackend: body.storage_backend,
    storagePath: body.storage_path,
    accessNote: body.access_note,
    size: body.size,
    sha256: body.sha256_hash,
  };
}

const fileId = { id: 'the file MFID' };
const datasetId = { id: 'the dataset MFID' };
const INGESTOR_QUERY = {
  ingestor: QStr('the ingestor to run on the uploaded file'),
  ingestion_class: QStr('legacy name of `ingestor`'),
};

/** Keyset paging of a dataset's files by MFID. */
const AFTER = QStr('only files whose MFID sorts after this one (the last MFID of the previous page)');

/** Files: the legacy routes (reference §5.2 #17–#18, §5.7, §14) and plain downloads. */
export const fileRoutes: Route[] = [
  defineRoute(
    {
      method: 'get',
      path: '/files',
      tag,
      summary: 'Files you may read, by hash or dataset',
      query: {
        sha256_hash: QStr('with this content hash'),
        dataset_mfid: QStr('of this dataset'),
        dataset_id: QStr('legacy name of `dataset_mfid`'),
        ...OFFSET_PAGE,
      },
      response: offsetPage(FILE),
    },
    async (ctx, { query }) => {
      const files = await ctx.services.file.list(
        ctx,
        {
          sha256: query.sha256_hash || undefined,
          datasetId: query.dataset_mfid || query.dataset_id || undefined,
        },
        pageOf(query, ctx.config.limits),
      );
      return { items: files.items.map(toLegacyFile), total: files.total };
    },
  ),
  defineRoute(
    { method: 'get', path: '/files/:id', tag, summary: 'A file record', params: fileId, response: FILE },
    async (ctx, { params }) => toLegacyFile(await ctx.services.file.get(ctx, params.id)),
  ),
  defineRoute(
    {
      method: 'patch',
      path: '/files/:id',
      tag,
      summary: 'Update a file record',
      params: fileId,
      body: remoteBody('FilePatch'),
      response: FILE,
    },
    async (ctx, { params, body }) =>
      toLegacyFile(
        await ctx.services.file.update(ctx, params.id, fileInput(body as Record<string, unknown>)),
      ),
  ),
  defineRoute(
    {
      method: 'delete',
      path: '/files/:id',
      tag,
      summary: 'Delete a file',
      params: fileId,
      response: MESSAGE,
    },
    async (ctx, { params }) => {
      const file = await ctx.services.file.delete(ctx, params.id);
      return { detail: `File ${file.uniqueId} deleted` };
    },
  ),
  defineRoute(
    {
      method: 'get',
      path: '/files/:id/download_link',
      tag,
      summary: 'A signed download URL of a file',
      params: fileId,
      response: Type.Object({ url: Type.String() }),
    },
    async (ctx, { params }) => ({
      url: await ctx.services.download.fileLink(ctx, params.id, { viaService: true }),
    }),
  ),
  defineRoute(
    {
      method: 'get',
      path: '/files/:id/download',
      tag,
      summary: 'The bytes of a file (Range supported)',
      description:
        "Answered in the file's own media type (its `content_type`, `application/octet-stream` when unknown).",
      params: fileId,
      responseType: '*/*',
      responses: { 206: { description: 'A range of the bytes', type: '*/*' } },
    },
    async (ctx, { params }, req, res) => {
      const target = await ctx.services.download.fileTarget(ctx, params.id);
      await sendObject(req, res, ctx.services.file.store, target.key, target, ctx.log);
      return undefined;
    },
  ),
  defineRoute(
    {
      method: 'get',
      path: '/datasets/:id/files',
      tag,
      summary: "A dataset's files",
      description:
        'A plain list (legacy), by MFID: the first MAX_PAGE_SIZE files unless `limit` / `offset` ask for another page; `after` (the last MFID of the previous page) pages without the cost of an offset on large datasets.',
      params: datasetId,
      query: { ...OFFSET_PAGE, after: AFTER },
      response: Type.Array(FILE),
    },
    async (ctx, { params, query }) => {
      const { maxPageSize } = ctx.config.limits;
      const page = pageOf(query, { defaultPageSize: maxPageSize, maxPageSize });
      return (await ctx.services.file.ofDataset(ctx, params.id, { ...page, after: query.after })).map(
        toLegacyFile,
      );
    },
  ),
  defineRoute(
    {
      method: 'post',
      path: '/datasets/:id/files',
      tag,
      summary: 'Upload a file (multipart/form-data), or register a remote file (JSON)',
      description:
        'A multipart upload answers 201 for a new file and 200 when the dataset already holds the same bytes.',
      params: datasetId,
      query: INGESTOR_QUERY,
      body: remoteBody('RemoteFile'),
      multipart: Type.Object({
        file: Type.String({ format: 'binary', contentMediaType: 'application/octet-stream' }),
        ingestor: Type.Optional(Type.String()),
      }),
      status: 201,
      response: FILE,
      responses: { 200: { description: 'The file was already there', schema: FILE } },
    },
    async (ctx, { params, query, body }, req, res) => {
      if (req.is('multipart/form-data') === 'multipart/form-data') {
        const added = await receiveFormUpload(ctx, ctx.services.file, req, params.id, query);
        res.status(added.created ? 201 : 200).json(toLegacyFile(added.file));
        return undefined;
      }
      if (!req.is('application/json')) {
        throw validationError('body', 'send the file as multipart/form-data, or a remote file as JSON');
      }
      return toLegacyFile(
        await ctx.services.file.addRemote(ctx, params.id, fileInput(body as Record<string, unknown>)),
      );
    },
  ),
  defineRoute(
    {
      method: 'get',
      path: '/datasets/:id/download_links',
      tag,
      summary: "Signed download URLs of a dataset's files",
      description:
        'File MFID → URL of the stored files among the first MAX_PAGE_SIZE files (by MFID), unless `limit` / `offset` / `after` ask for another page.',
      params: datasetId,
      query: { ...OFFSET_PAGE, after: AFTER },
      response: Type.Object({}, { additionalProperties: true }),
    },
    (ctx, { params, query }) => {
      const { maxPageSize } = ctx.config.limits;
      const page = pageOf(query, { defaultPageSize: maxPageSize, maxPageSize });
      return ctx.services.download.datasetLinks(
        ctx,
        params.id,
        { viaService: true },
        { ...page, after: query.after },
      );
    },
  ),
  defineRoute(
    {
      method: 'get',
      path: '/datasets/:id/download',
      tag,
      summary: "A zip archive of a dataset's files",
      description:
        'Files the archive cannot hold (remote files) are listed in a `SKIPPED.tsv` entry of the archive, and the `X-Archive-Skipped` response header counts them (0 when none).',
      params: datasetId,
      query: { include: QList('only these file names') },
      responseType: 'application/zip',
    },
    async (ctx, { params, query }, _req, res) => {
      const targets = await ctx.services.download.archiveTargets(ctx, params.id, query.include ?? []);
      await streamArchive(res, ctx.services.file.store, targets, `${params.id}.zip`, ctx.log);
      return undefined;
    },
  ),
];
