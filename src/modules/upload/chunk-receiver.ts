import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError, conflict, validationError } from '../../core/errors';
import { rawQuery } from '../../core/db/raw';
import { HOLDER, leaseFree } from '../../core/db/liveness';
import type { ObjectStore, PartRef } from '../../core/storage/object-store';
import { OffThreadDigest } from '../../core/storage/digest-thread';
import { ChunkSlice, collect, feed, prepend } from './chunk-stream';
import { parseContentRange } from './content-range';
import { UploadSession } from './upload-session.entity';

/** How a chunk PUT is answered (the status codes of Google's resumable protocol). */
export type ChunkReply =
  | { status: 308; range: string | null }
  | { status: 200; body: Record<string, unknown> }
  | { status: 416; range: string | null; body: Record<string, unknown> };

export const tokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');

/**
 * How long one chunk request may hold a session before another may take over (sooner when the
 * process writing it is gone: see core/db/liveness.ts).
 */
const LEASE_MINUTES = 30;

const received = (s: UploadSession): string | null => (s.received > 0 ? `bytes=0-${s.received - 1}` : null);

/**
 * Receives the chunk PUTs of resumable uploads. Each chunk is streamed straight into the store
 * (an offset write on the filesystem, one multipart part on S3, or held in the session row
 * until it fills S3's minimum part), with the running SHA-256/CRC32C kept in the session row
 * or, on the filesystem, in the process (see `digest`).
 */
export class ChunkReceiver {
  constructor(private readonly store: ObjectStore) {}

  async receive(
    em: EntityManager,
    token: string,
    headers: { contentRange?: string; contentLength?: number },
    body: Readable,
  ): Promise<ChunkReply> {
    const session = await this.find(em, token);
    const range = parseContentRange(headers.contentRange, headers.contentLength);
    if (range.total !== null && range.total !== session.size) {
      throw validationError(
        'Content-Range',
        `the total must be the size announced at initiation, ${session.size}`,
      );
    }
    if (range.kind === 'probe' || session.status !== 'open') return this.state(session);
    const length = range.end - range.start + 1;
    if (range.end >= session.size)
      throw validationError('Content-Range', `the upload has ${session.size} bytes`);
    if (headers.contentLength !== undefined && headers.contentLength !== length) {
      throw validationError('Content-Length', `must equal the Content-Range length, ${length}`);
    }
    if (range.start > session.received) {
      return {
        status: 416,
        range: received(session),
        body: { detail: `The upload has ${session.received} bytes: resume from byte ${session.received}` },
      };
    }
    if (range.end < session.received) return this.state(session);

    const leased = await this.lease(em, session);
    try {
      // the write's own final update frees the lease
      return await this.write(em, leased, range.start, range.end, body);
    } catch (err) {
      await em.nativeUpdate(
        UploadSession,
        { uniqueId: leased.uniqueId },
        { leaseUntil: null, leaseHolder: null },
      );
      throw err;
    }
  }

  /** The live session behind a token; 404 when unknown or expired. */
  async find(em: EntityManager, token: string): Promise<UploadSession> {
    const session = await em.findOne(
      UploadSession,
      { tokenHash: tokenHash(token), expiresAt: { $gt: new Date() } },
      { refresh: true },
    );
    if (!session) throw new AppError('NOT_FOUND', 'This upload session does not exist or has expired');
    return session;
  }

  state(s: UploadSession): ChunkReply {
    if (s.status === 'open') return { status: 308, range: received(s) };
    return {
      status: 200,
      body: {
        upload_id: s.uniqueId,
        name: s.filename,
        size: s.size,
        sha256_hash: s.sha256,
        crc32c: s.crc32c,
      },
    };
  }

  /** Takes the session for this request, as long as nobody else holds it and it has not moved on. */
  private async lease(em: EntityManager, s: UploadSession): Promise<UploadSession> {
    const rows = await rawQuery<Record<string, unknown>>(
      em,
      `update upload_session set lease_until = now() + interval '${LEASE_MINUTES} minutes', lease_holder = ?
       where unique_id = ? and received = ? and status = 'open' and ${leaseFree('lease_until', 'lease_holder')}
       returning *`,
      [HOLDER, s.uniqueId, s.received],
    );
    if (!rows.length)
      throw conflict('Another request is writing to this upload: ask for its status and resume');
    return em.map(UploadSession, rows[0]);
  }

  /**
   * The running digest of the session's received bytes. A session on a store that can read its
   * staged bytes back (the filesystem) keeps a native SHA-256 in the process that received its
   * last chunk (no state in the row). When a chunk lands on another process, or after a restart,
   * the digest is rebuilt once from the staged bytes, and the session keeps its state in the row
   * from then on (as on S3, whose staged parts cannot be read back), so a session moving between
   * replicas is rebuilt at most once.
   */
  private async digest(s: UploadSession, pending: Buffer): Promise<OffThreadDigest> {
    if (s.sha256State && s.crc32cState)
      return OffThreadDigest.start({ sha256: s.sha256State, crc32c: s.crc32cState });
    const readStaged = this.store.readStaged?.bind(this.store);
    const multipartId = s.multipartId;
    if (!readStaged || !multipartId) {
      if (s.received > 0) throw new Error(`upload ${s.uniqueId} has received bytes but no digest state`);
      return OffThreadDigest.start(null);
    }
    const kept = await OffThreadDigest.resume(s.uniqueId, s.received);
    if (kept) return kept;
    const rebuilt = OffThreadDigest.start(null);
    try {
      const staged = s.received - pending.length;
      let read = 0;
      for await (const chunk of readStaged(s.storageKey, multipartId, staged) as AsyncIterable<Buffer>) {
        read += chunk.length;
        await rebuilt.update(chunk);
      }
      if (read !== staged) throw new Error(`upload ${s.uniqueId}: ${read} staged bytes, expected ${staged}`);
      if (pending.length) await rebuilt.update(pending);
    } catch (err) {
      rebuilt.drop();
      throw err;
    }
    return rebuilt;
  }

  private async write(
    em: EntityManager,
    s: UploadSession,
    start: number,
    end: number,
    body: Readable,
  ): Promise<ChunkReply> {
    const { minPartBytes, maxPartBytes, maxParts } = this.store.multipartLimits;
    const minPart = Math.max(minPartBytes, Math.ceil(s.size / maxParts));
    const last = end + 1 === s.size;
    const fresh = end + 1 - s.received;
    const pending = s.pending ?? Buffer.alloc(0);
    if (pending.length + fresh > maxPartBytes) {
      throw new AppError('PAYLOAD_TOO_LARGE', `Send chunks of at most ${maxPartBytes} bytes`);
    }
    if (!s.multipartId) {
      s.multipartId = await this.store.createMultipart(s.storageKey);
      await em.nativeUpdate(UploadSession, { uniqueId: s.uniqueId }, { multipartId: s.multipartId });
    }
    const digest = await this.digest(s, pending);
    const update: Partial<UploadSession> = { received: end + 1, leaseUntil: null, leaseHolder: null };
    try {
      const slice = new ChunkSlice(s.received - start, fresh, digest);
      const sliced = feed(body, slice);
      if (!last && pending.length + fresh < minPart) {
        // too small for a part of its own: keep it in the session until more arrives
        const [bytes] = await Promise.all([collect(slice), sliced]);
        Object.assign(update, { parts: s.parts, pending: Buffer.concat([pending, bytes]) });
      } else {
        const [ref] = await Promise.all([
          this.store.uploadPart(s.storageKey, s.multipartId, {
            partNumber: s.parts.length + 1,
            offset: s.received - pending.length,
            body: pending.length ? prepend(pending, slice) : slice,
            length: pending.length + fresh,
          }),
          sliced,
        ]);
        Object.assign(update, { parts: [...s.parts, ref], pending: null });
      }
    } catch (err) {
      digest.drop();
      throw err;
    }
    if (last) {
      await this.store.completeMultipart(s.storageKey, s.multipartId, update.parts as PartRef[], s.size);
      Object.assign(update, {
        status: 'stored',
        ...(await digest.finish()),
        sha256State: null,
        crc32cState: null,
      });
    } else {
      const state = await digest.save();
      Object.assign(update, { sha256State: state?.sha256 ?? null, crc32cState: state?.crc32c ?? null });
    }
    const moved = await em.nativeUpdate(
      UploadSession,
      { uniqueId: s.uniqueId, received: s.received },
      update,
    );
    if (!moved)
      throw conflict('The upload changed while this chunk was written: ask for its status and resume');
    Object.assign(s, update);
    return this.state(s);
  }
}
