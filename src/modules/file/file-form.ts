import { finished } from 'node:stream';
import busboy from 'busboy';
import type { Request } from 'express';
import type { RequestContext } from '../../core/context';
import { validationError, type AppError } from '../../core/errors';
import { tooLarge } from '../../core/storage/hashing';
import type { FileAdded, FileService } from './file.service';

/** Room for the multipart framing and small fields around the file itself. */
const FORM_OVERHEAD = 1024 * 1024;

const unreadable = (err: Error): AppError =>
  validationError('body', `is not a readable multipart form (${err.message})`);

/**
 * A `multipart/form-data` upload of one file (any part name; `file` by convention) to a
 * dataset, streamed straight to storage. The ingestor comes from the `ingestor` (or legacy
 * `ingestion_class`) query parameter, or a form field sent before the file. Permission is
 * checked before the body is read. The file is kept only if the whole form arrives: a body that
 * breaks off (truncated, malformed, or the client gone) fails the request, as does a second
 * file part, and a file already stored by then is taken back.
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
    /** what broke the body, once it has */
    let broken: AppError | null = null;
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
      // busboy fails the part when the body breaks off (and reports it as the parser's error,
      // below), possibly before the file service opens it: without a listener from the start,
      // the part's error would be unhandled
      stream.on('error', () => undefined);
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
        reject(broken ?? err);
        req.unpipe(parser);
        req.resume();
      });
    });
    parser.on('filesLimit', () => {
      extraFile = true;
    });
    // `on`: a malformed form can make the parser fail more than once, and busboy reports some
    // failures without stopping: stopped here, so that `close` follows (a part being read fails)
    parser.on('error', (err: Error) => {
      broken ??= unreadable(err);
      parser.destroy();
    });
    // after the form is read, or has failed: the answer waits for the file, taken back on failure
    parser.on('close', () => {
      if (!work) {
        reject(broken ?? validationError('file', 'a file part is required'));
        return;
      }
      work
        .then(
          async (added) => {
            const failure =
              broken ?? (extraFile ? validationError('file', 'send one file per request') : null);
            if (!failure) {
              resolve(added);
              return;
            }
            await files.undoAdd(ctx, added);
            reject(failure);
          },
          () => undefined, // answered above
        )
        .catch(reject);
    });
    // a client that goes away mid-body (also while the caller was being checked) fails the form
    finished(req, (err) => {
      if (err) parser.destroy(new Error('the request was cut off'));
    });
    req.pipe(parser);
  });
}
