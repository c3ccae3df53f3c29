import busboy from 'busboy';
import type { Request } from 'express';
import type { RequestContext } from '../../core/context';
import { validationError } from '../../core/errors';
import { tooLarge } from '../../core/storage/hashing';
import type { FileAdded, FileService } from './file.service';

/** Room for the multipart framing and small fields around the file itself. */
const FORM_OVERHEAD = 1024 * 1024;

/**
 * A `multipart/form-data` upload of one file (any part name; `file` by convention) to a
 * dataset, streamed straight to storage. The ingestor comes from the `ingestor` (or legacy
 * `ingestion_class`) query parameter, or a form field sent before the file. Permission is
 * checked before the body is read; a second file part fails the request and undoes the first.
 */
export async function receiveFormUpload(
  ctx: RequestContext,
  files: FileService,
  req: Request,
  datasetId: string,
  query: { ingestor?: string; ingestion_class?: string },
): Promise<FileAdded> {
  await files.datasetForAdding(ctx, datasetId);
  const declared = Number(req.get('content-length') ?? 0);
  const max = ctx.config.limits.maxUploadBytes;
  if (declared > max + FORM_OVERHEAD) throw tooLarge(max);

  return new Promise<FileAdded>((resolve, reject) => {
    const fields: Partial<Record<string, string>> = {};
    let work: Promise<FileAdded> | null = null;
    let extraFile = false;
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { fields: 20, fieldSize: 64 * 1024, files: 1 } });
    } catch {
      reject(validationError('body', 'must be multipart/form-data with a boundary'));
      return;
    }
    parser.on('field', (name, value) => {
      fields[name] = value;
    });
    parser.on('file', (_name, stream, info) => {
      const ingestor = query.ingestor ?? query.ingestion_class ?? fields.ingestor ?? fields.ingestion_class;
      work = files.addStored(ctx, datasetId, {
        filename: info.filename,
        open: () => stream,
        contentType: info.mimeType,
        ingestor,
      });
      work.catch((err: unknown) => {
        // answer now, and read the rest of the body away so the client sees the answer
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- passes the upload's own failure on unchanged
        reject(err);
        req.unpipe(parser);
        req.resume();
      });
    });
    parser.on('filesLimit', () => {
      extraFile = true;
    });
    parser.on('error', (err) => {
      reject(validationError('body', `is not a readable multipart form (${String(err)})`));
    });
    parser.on('close', () => {
      if (!work) {
        reject(validationError('file', 'a file part is required'));
        return;
      }
      work.then(async (added) => {
        if (!extraFile) {
          resolve(added);
          return;
        }
        await files.undoAdd(ctx, added);
        reject(validationError('file', 'send one file per request'));
      }, reject);
    });
    req.pipe(parser);
  });
}
