import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../core/context';
import type { Config } from '../../core/config';
import {
  AppError,
  assertNoProblems,
  conflict,
  notFound,
  validationError,
  type FieldProblem,
} from '../../core/errors';
import { isMfid, newMfid } from '../../core/ids';
import { rawQuery } from '../../core/db/raw';
import { HOLDER, leaseFree } from '../../core/db/liveness';
import type { ObjectStore } from '../../core/storage/object-store';
import { tooLarge } from '../../core/storage/hashing';
import type { AssociatedFile } from '../file/file.entity';
import { objectKey, type FileAdded, type FileService } from '../file/file.service';
import { cleanContentType, cleanFilename, ingestorName } from '../file/filename';
import { ChunkReceiver, tokenHash } from './chunk-receiver';
import { UploadSession } from './upload-session.entity';

export const UPLOAD_SESSION_PATH = '/api/v2/upload-sessions';

/** CRC32C of no bytes, as the resumable protocol reports it */
const EMPTY_CRC32C = 'AAAAAA==';
const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
const SHA256 = /^[0-9a-fA-F]{64}$/;

export interface InitiateInput {
  filename?: unknown;
  size?: unknown;
  sha256?: unknown;
  ingestor?: unknown;
  contentType?: unknown;
}

/** The answer to an initiation: a session to send the bytes to, or the file that already has them. */
export type Initiated =
  { existing: AssociatedFile } | { session: UploadSession; uri: string; chunkSizeHint: number };

/**
 * The legacy resumable upload protocol (reference §6.1–6.2): initiate a session for a file of
 * known size, PUT its bytes in chunks to the session URI (see {@link ChunkReceiver}), then
 * complete it, which checks the SHA-256 and creates the file record through the file service.
 */
export class UploadService {
  readonly chunks: ChunkReceiver;

  constructor(private readonly deps: { config: Config; store: ObjectStore; files: FileService }) {
    this.chunks = new ChunkReceiver(deps.store);
  }

  async initiate(ctx: RequestContext, datasetId: string, input: InitiateInput): Promise<Initiated> {
    const problems: FieldProblem[] = [];
    const attempt = <T>(f: () => T): T | undefined => {
      try {
        return f();
      } catch (err) {
        if (err instanceof AppError) problems.push(...err.fields);
        else throw err;
        return undefined;
      }
    };
    const filename = attempt(() => cleanFilename(input.filename));
    const ingestor = attempt(() => ingestorName(input.ingestor)) ?? null;
    const size = input.size;
    if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0) {
      problems.push({ field: 'size', message: 'is required: the file size in bytes' });
    }
    const sha = input.sha256;
    if (sha !== undefined && sha !== null && (typeof sha !== 'string' || !SHA256.test(sha))) {
      problems.push({ field: 'sha256_hash', message: 'must be 64 hexadecimal characters' });
    }
    assertNoProblems(problems);
    const bytes = size as number;
    if (bytes > this.deps.config.limits.maxUploadBytes)
      throw tooLarge(this.deps.config.limits.maxUploadBytes);
    const expectedSha256 = typeof sha === 'string' ? sha.toLowerCase() : null;

    const ds = await this.deps.files.datasetForAdding(ctx, datasetId);
    if (expectedSha256) {
      const existing = await this.deps.files.findStored(ctx.em, ds.uniqueId, expectedSha256);
      if (existing) return { existing };
    }
    await this.sweepExpired(ctx.em).catch((err: unknown) => {
      ctx.log.warn({ err }, 'upload session sweep failed');
    });

    const token = randomBytes(32).toString('base64url');
    const fileMfid = newMfid();
    const session = ctx.em.create(UploadSession, {
      uniqueId: newMfid(),
      tokenHash: tokenHash(token),
      dataset: ds,
      userId: ctx.userId,
      filename: filename as string, // assertNoProblems: cleanFilename succeeded
      contentType: cleanContentType(input.contentType),
      ingestor,
      size: bytes,
      expectedSha256,
      fileMfid,
      storageKey: objectKey(ds.uniqueId, fileMfid),
      expiresAt: new Date(Date.now() + this.deps.config.uploads.sessionTtlSeconds * 1000),
    });
    if (bytes === 0) {
      // nothing will be PUT: the (empty) object is stored right away
      await this.deps.store.put(session.storageKey, Readable.from([]));
      Object.assign(session, { status: 'stored', sha256: EMPTY_SHA256, crc32c: EMPTY_CRC32C });
    }
    await ctx.em.flush();
    return {
      session,
      uri: `${this.deps.config.publicBaseUrl}${UPLOAD_SESSION_PATH}/${token}`,
      chunkSizeHint: this.deps.config.uploads.chunkSizeHint,
    };
  }

  /**
   * Turns a fully received session into a file record after checking its SHA-256. A mismatch
   * deletes the bytes and the session (nothing is stored) and fails with a validation error.
   * Completing again returns the same record.
   */
  async complete(
    ctx: RequestContext,
    datasetId: string,
    uploadId: unknown,
    sha256: unknown,
  ): Promise<FileAdded> {
    const problems: FieldProblem[] = [];
    if (typeof uploadId !== 'string' || !isMfid(uploadId))
      problems.push({ field: 'upload_id', message: 'is required' });
    if (typeof sha256 !== 'string' || !SHA256.test(sha256)) {
      problems.push({ field: 'sha256_hash', message: 'is required: 64 hexadecimal characters' });
    }
    assertNoProblems(problems);
    const ds = await this.deps.files.datasetForAdding(ctx, datasetId);
    const s = await ctx.em.findOne(UploadSession, {
      uniqueId: uploadId as string,
      dataset: ds.uniqueId,
      userId: ctx.userId,
      expiresAt: { $gt: new Date() },
    });
    if (!s) throw notFound('Upload', uploadId as string);
    if (s.status === 'completed') {
      return {
        file: await this.deps.files.get(ctx, s.fileMfid),
        created: false,
        ingestor: s.ingestor ?? null,
      };
    }
    if (s.status === 'open') {
      throw conflict(`The upload is incomplete: ${s.received} of ${s.size} bytes have been received`);
    }
    const claimed = await rawQuery(
      ctx.em,
      `update upload_session set lease_until = now() + interval '5 minutes', lease_holder = ?
       where unique_id = ? and status = 'stored' and ${leaseFree('lease_until', 'lease_holder')} returning unique_id`,
      [HOLDER, s.uniqueId],
    );
    if (!claimed.length) throw conflict('This upload is being completed by another request');
    const given = (sha256 as string).toLowerCase();
    if (given !== s.sha256 || (s.expectedSha256 && s.expectedSha256 !== s.sha256)) {
      await this.drop(ctx.em, s);
      throw validationError(
        'sha256_hash',
        `does not match the uploaded bytes (their SHA-256 is ${s.sha256}); nothing was stored, start a new upload`,
      );
    }
    let added: FileAdded;
    try {
      added = await this.deps.files.recordStored(
        ctx,
        ds.uniqueId,
        {
          uniqueId: s.fileMfid,
          key: s.storageKey,
          size: s.size,
          sha256: s.sha256,
          filename: s.filename,
          contentType: s.contentType,
        },
        s.ingestor ?? null,
        // the legacy protocol: `complete` is followed by POST /files/{mfid}/ingest (reference
        // #30, #46), which records the request; naming an ingestor on initiate asks for it here
        s.ingestor != null,
      );
    } catch (err) {
      // the file service has deleted the object: this session cannot be completed any more
      await ctx.em.nativeDelete(UploadSession, { uniqueId: s.uniqueId });
      throw err;
    }
    await ctx.em.nativeUpdate(
      UploadSession,
      { uniqueId: s.uniqueId },
      { status: 'completed', fileMfid: added.file.uniqueId, leaseUntil: null, leaseHolder: null },
    );
    return added;
  }

  /** Removes expired sessions and whatever bytes they left (completed ones left a file, kept). */
  async sweepExpired(em: EntityManager, limit = 20): Promise<number> {
    const rows = await rawQuery<{
      unique_id: string;
      storage_key: string;
      multipart_id: string | null;
      status: string;
    }>(
      em,
      `delete from upload_session where unique_id in
         (select unique_id from upload_session where expires_at < now() and ${leaseFree('lease_until', 'lease_holder')}
          order by expires_at limit ?)
       returning unique_id, storage_key, multipart_id, status`,
      [limit],
    );
    for (const row of rows) {
      if (row.status === 'completed') continue;
      if (row.multipart_id) await this.deps.store.abortMultipart(row.storage_key, row.multipart_id);
      await this.deps.store.delete(row.storage_key);
    }
    return rows.length;
  }

  private async drop(em: EntityManager, s: UploadSession): Promise<void> {
    await this.deps.store.delete(s.storageKey);
    await em.nativeDelete(UploadSession, { uniqueId: s.uniqueId });
  }
}
