import type { Request, Router } from 'express';
import { handle, param } from '../../core/rest/handler';
import { bodyObject, qList, qOffsetPage, qStr } from '../../core/rest/params';
import { pickFields, type Body } from '../../core/rest/body';
import { validationError } from '../../core/errors';
import { sendObject } from '../../core/storage/send';
import { toLegacyFile } from './file.legacy';
import type { RemoteFileInput } from './file.input';
import { receiveFormUpload } from './file.form';
import { streamArchive } from './archive';

const REMOTE_FIELDS = ['filename', 'storage_backend', 'storage_path', 'access_note', 'size', 'sha256_hash'];
const PATCH_FIELDS = REMOTE_FIELDS;
/** read-only fields clients echo back from a record they read */
const ECHOED = ['mfid', 'dataset_mfid', 'content_type', 'creation_time', 'modification_time'];

function fileInput(body: Body): RemoteFileInput {
  return {
    filename: body.filename,
    storageBackend: body.storage_backend,
    storagePath: body.storage_path,
    accessNote: body.access_note,
    size: body.size,
    sha256: body.sha256_hash,
  };
}

const isMultipart = (req: Request) => req.is('multipart/form-data') === 'multipart/form-data';

/** Files: the legacy routes (reference §5.2 #17–#18, §5.7, §14) and plain downloads. */
export function fileRoutes(router: Router): void {
  router.get(
    '/files',
    handle(async (ctx, req) => {
      const page = qOffsetPage(req.query, ctx.config.limits);
      const sha256 = qStr(req.query, 'sha256_hash') || undefined;
      const datasetId = qStr(req.query, 'dataset_mfid') || qStr(req.query, 'dataset_id') || undefined;
      const files = await ctx.services.file.list(ctx, { sha256, datasetId }, page);
      return { items: files.items.map(toLegacyFile), total: files.total };
    }),
  );
  router.get(
    '/files/:id',
    handle(async (ctx, req) => toLegacyFile(await ctx.services.file.get(ctx, param(req, 'id')))),
  );
  router.patch(
    '/files/:id',
    handle(async (ctx, req) => {
      const body = pickFields(bodyObject(req.body), PATCH_FIELDS, { ignore: ECHOED });
      return toLegacyFile(await ctx.services.file.update(ctx, param(req, 'id'), fileInput(body)));
    }),
  );
  router.delete(
    '/files/:id',
    handle(async (ctx, req) => {
      const file = await ctx.services.file.delete(ctx, param(req, 'id'));
      return { detail: `File ${file.uniqueId} deleted` };
    }),
  );
  router.get(
    '/files/:id/download_link',
    handle(async (ctx, req) => ({
      url: await ctx.services.download.fileLink(ctx, param(req, 'id'), { viaService: true }),
    })),
  );
  router.get(
    '/files/:id/download',
    handle(async (ctx, req, res) => {
      const target = await ctx.services.download.fileTarget(ctx, param(req, 'id'));
      await sendObject(req, res, ctx.services.file.store, target.key, target, ctx.log);
      return undefined;
    }),
  );

  router.get(
    '/datasets/:id/files',
    handle(async (ctx, req) => (await ctx.services.file.ofDataset(ctx, param(req, 'id'))).map(toLegacyFile)),
  );
  router.post(
    '/datasets/:id/files',
    handle(async (ctx, req, res) => {
      const datasetId = param(req, 'id');
      if (isMultipart(req)) {
        const added = await receiveFormUpload(ctx, ctx.services.file, req, datasetId);
        res.status(added.created ? 201 : 200).json(toLegacyFile(added.file));
        return undefined;
      }
      if (!req.is('application/json')) {
        throw validationError('body', 'send the file as multipart/form-data, or a remote file as JSON');
      }
      const body = pickFields(bodyObject(req.body), REMOTE_FIELDS, { ignore: ECHOED });
      return toLegacyFile(await ctx.services.file.addRemote(ctx, datasetId, fileInput(body)));
    }, 201),
  );
  router.get(
    '/datasets/:id/download_links',
    handle((ctx, req) => ctx.services.download.datasetLinks(ctx, param(req, 'id'), { viaService: true })),
  );
  router.get(
    '/datasets/:id/download',
    handle(async (ctx, req, res) => {
      const datasetId = param(req, 'id');
      const plan = await ctx.services.download.archiveTargets(ctx, datasetId, qList(req.query, 'include'));
      await streamArchive(res, ctx.services.file.store, plan, `${datasetId}.zip`, ctx.log);
      return undefined;
    }),
  );
}
