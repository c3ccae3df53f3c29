import { PassThrough, finished, type Readable } from 'node:stream';
import busboy from 'busboy';
import type { Request, RequestHandler, Response } from 'express';
import { Upload, WriteStream, ignoreStream, type FileUpload } from 'graphql-upload-ts';
import { AppError } from '../errors';
import { tooLarge } from '../storage/hashing';
import { cutOff, followSpool } from './upload-spool';

/** A file of a GraphQL multipart request, as the `Upload` scalar hands it to a resolver. */
export interface ReceivedFile {
  readonly filename: string;
  readonly fieldName: string;
  readonly mimetype: string;
  readonly encoding: string;
  /** The file's bytes; once (a second call throws). Fails if the request is cut off or too large. */
  open(): Readable;
}

export interface MultipartLimits {
  /** bytes of one file */
  maxFileSize: number;
  /** files of one request */
  maxFiles: number;
}

/** Bytes of the `operations` and `map` fields. */
const MAX_FIELD_BYTES = 1_000_000;
/** Bytes of a streamed file part held while its reader catches up (the request waits beyond it). */
const STREAM_BUFFER = 1024 * 1024;
const SPEC = 'https://github.com/jaydenseric/graphql-multipart-request-spec';

const badRequest = (message: string) => new AppError('BAD_REQUEST', `${message} (${SPEC})`);
/** A body that breaks off or is malformed is the client's error, however it shows up. */
const unreadable = (err: Error): AppError =>
  err instanceof AppError
    ? err
    : new AppError('BAD_REQUEST', `The multipart body cannot be read (${err.message})`);

type Container = Record<string, unknown>;
const isContainer = (v: unknown): v is Container => typeof v === 'object' && v !== null;

/** Puts `upload` where `path` (`variables.file`, `0.variables.files.1`) holds null in `operations`. */
function place(operations: unknown, path: string, upload: Upload): boolean {
  const keys = path.split('.');
  let node = operations;
  for (const [i, key] of keys.entries()) {
    if (
      !isContainer(node) ||
      !Object.hasOwn(node, key) ||
      ['__proto__', 'prototype', 'constructor'].includes(key)
    )
      return false;
    if (i === keys.length - 1) {
      if (node[key] !== null) return false;
      node[key] = upload;
      return true;
    }
    node = node[key];
  }
  return false;
}

/**
 * A file part handed straight to its reader: the request is read only as fast as the file is
 * stored (busboy pauses the request while the buffer is full), with nothing written to disk.
 * Its end is passed on only once the whole request has arrived (`complete`): a request that
 * breaks off after the file's bytes fails the file too, so nothing of it is kept.
 */
class StreamedFile {
  private readonly out = new PassThrough({ highWaterMark: STREAM_BUFFER });
  private opened = false;
  private failure: Error | null = null;

  constructor(
    private readonly part: Readable,
    maxBytes: number,
  ) {
    part.on('limit', (): void => {
      this.fail(tooLarge(maxBytes));
      part.unpipe(this.out);
      ignoreStream(part);
    });
    part.on('error', (err: Error) => {
      this.fail(unreadable(err));
    });
    // the reader sees a failure through its own listener; one that has not started yet, at open
    this.out.on('error', () => undefined);
    part.pipe(this.out, { end: false });
  }

  open(): Readable {
    if (this.failure) throw this.failure;
    if (this.opened) throw new Error('the upload was already read');
    this.opened = true;
    return this.out;
  }

  fail(err: Error): void {
    if (this.failure || this.out.writableEnded) return;
    this.failure = err;
    this.out.destroy(err);
  }

  /** The request has arrived whole (every part has ended): the reader gets the end. */
  complete(): void {
    if (!this.failure) this.out.end();
  }

  /**
   * The response is sent (or the connection lost): the part nobody read (or stopped reading) is
   * read away, and a reader still waiting for it fails.
   */
  release(): void {
    if (!this.part.readableEnded) {
      this.part.unpipe(this.out);
      ignoreStream(this.part);
    }
    this.fail(cutOff());
  }
}

/**
 * A file part written to a temporary file (graphql-upload-ts's spool) so that the request can
 * go on to the next part before this one is read: used when a request carries several files,
 * which resolvers may read in any order. Like a streamed file, it is complete only once the
 * whole request is; a failure before that drops the spool (and its temporary file).
 */
class SpooledFile {
  private readonly spool = new WriteStream();
  private failure: Error | null = null;

  constructor(part: Readable, maxBytes: number) {
    this.spool.on('error', () => {
      part.unpipe();
      ignoreStream(part);
    });
    part.on('limit', () => {
      part.unpipe();
      this.fail(tooLarge(maxBytes));
    });
    part.on('error', (err: Error) => {
      part.unpipe();
      this.fail(unreadable(err));
    });
    part.pipe(this.spool, { end: false });
  }

  open(): Readable {
    if (this.failure) throw this.failure;
    return followSpool(this.spool);
  }

  fail(err: Error): void {
    if (this.failure || this.spool.writableEnded) return;
    this.failure = err;
    this.spool.destroy(err);
  }

  complete(): void {
    if (!this.failure) this.spool.end();
  }

  release(): void {
    this.spool.release();
  }
}

/**
 * Reads a GraphQL multipart request (the multipart request specification: `operations`, then
 * `map`, then the files) and resolves with the operations, each mapped variable holding an
 * `Upload` whose promise gives a `ReceivedFile`. The operations resolve as soon as `map` is
 * read, so resolvers run while the files arrive. A request with one file used in one place
 * streams it straight to its reader; otherwise each file is spooled to a temporary file
 * (resolvers may read them in any order, and more than once). Errors are `AppError`s (400, or
 * 413 over a limit) and fail the files not yet received.
 */
export function readMultipart(req: Request, res: Response, limits: MultipartLimits): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        defParamCharset: 'utf8',
        limits: {
          fieldSize: MAX_FIELD_BYTES,
          fields: 2,
          fileSize: limits.maxFileSize,
          files: limits.maxFiles,
        },
      });
    } catch {
      reject(new AppError('BAD_REQUEST', 'The body must be multipart/form-data with a boundary'));
      return;
    }
    let operations: unknown;
    let map: Map<string, Upload> | null = null;
    /** one file in one place: streamed straight to its reader */
    let single = false;
    const files = new Map<string, StreamedFile | SpooledFile>();
    let failure: Error | null = null;

    const exit = (err: Error, fromParser = false) => {
      if (failure) return;
      failure = err;
      for (const [name, upload] of map ?? []) {
        if (!upload.file) upload.reject(err);
        files.get(name)?.fail(err);
      }
      if (fromParser) parser.destroy();
      else parser.destroy(err);
      req.unpipe(parser);
      // the parser may have paused the request in this same tick: resume it on the next
      setImmediate(() => req.resume());
      reject(err);
    };

    parser.on('field', (name, value, { valueTruncated }) => {
      if (valueTruncated) {
        exit(
          new AppError(
            'PAYLOAD_TOO_LARGE',
            `The '${name}' multipart field is larger than ${MAX_FIELD_BYTES} bytes`,
          ),
        );
        return;
      }
      if (name === 'operations') {
        try {
          operations = JSON.parse(value);
        } catch {
          exit(badRequest(`Invalid JSON in the 'operations' multipart field`));
          return;
        }
        if (!isContainer(operations)) exit(badRequest(`Invalid type for the 'operations' multipart field`));
        return;
      }
      if (name !== 'map') return;
      if (operations === undefined) {
        exit(badRequest(`Disordered multipart fields; 'map' should follow 'operations'`));
        return;
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(value);
      } catch {
        exit(badRequest(`Invalid JSON in the 'map' multipart field`));
        return;
      }
      if (!isContainer(parsed) || Array.isArray(parsed)) {
        exit(badRequest(`Invalid type for the 'map' multipart field`));
        return;
      }
      const entries = Object.entries(parsed);
      if (entries.length > limits.maxFiles) {
        exit(new AppError('PAYLOAD_TOO_LARGE', `At most ${limits.maxFiles} files per request`));
        return;
      }
      map = new Map();
      for (const [field, paths] of entries) {
        if (!Array.isArray(paths)) {
          exit(badRequest(`Invalid type for the 'map' multipart field entry '${field}'`));
          return;
        }
        const upload = new Upload();
        map.set(field, upload);
        for (const path of paths) {
          if (typeof path !== 'string' || !place(operations, path, upload)) {
            exit(badRequest(`Invalid object path for the 'map' multipart field entry '${field}'`));
            return;
          }
        }
      }
      single = entries.length === 1 && (entries[0][1] as unknown[]).length === 1;
      resolve(operations);
    });

    parser.on('file', (field, part, info) => {
      if (!map) {
        ignoreStream(part);
        exit(badRequest(`Disordered multipart fields; files should follow 'map'`));
        return;
      }
      const upload = map.get(field);
      if (!upload || upload.file) {
        ignoreStream(part); // a part the map does not name: the rest of the request still counts
        return;
      }
      const file = single
        ? new StreamedFile(part, limits.maxFileSize)
        : new SpooledFile(part, limits.maxFileSize);
      files.set(field, file);
      const received: ReceivedFile = {
        filename: info.filename ?? '',
        fieldName: field,
        mimetype: info.mimeType,
        encoding: info.encoding,
        open: () => file.open(),
      };
      // the Upload scalar hands on whatever its promise resolves with
      upload.resolve(received as unknown as FileUpload);
    });

    parser.once('filesLimit', () => {
      exit(new AppError('PAYLOAD_TOO_LARGE', `At most ${limits.maxFiles} files per request`));
    });
    parser.once('finish', () => {
      req.unpipe(parser);
      req.resume();
      if (operations === undefined) {
        exit(badRequest(`Missing multipart field 'operations'`));
        return;
      }
      if (!map) {
        exit(badRequest(`Missing multipart field 'map'`));
        return;
      }
      for (const file of files.values()) file.complete();
      for (const upload of map.values())
        if (!upload.file) upload.reject(new AppError('BAD_REQUEST', 'File missing in the request'));
    });
    // `on`: a malformed request can make the parser fail more than once
    parser.on('error', (err: Error) => {
      exit(new AppError('BAD_REQUEST', `The multipart body cannot be read (${err.message})`), true);
    });
    res.once('close', () => {
      for (const file of files.values()) file.release();
    });
    // also a client gone while the caller was being checked, before this was called
    finished(req, (err) => {
      if (err) exit(cutOff());
    });
    req.pipe(parser);
  });
}

/** The middleware: a multipart request's body becomes its operations (other requests pass). */
export function graphqlMultipart(limits: MultipartLimits): RequestHandler {
  return (req, res, next) => {
    if (!req.is('multipart/form-data')) {
      next();
      return;
    }
    readMultipart(req, res, limits).then((operations) => {
      req.body = operations;
      next();
    }, next);
  };
}
