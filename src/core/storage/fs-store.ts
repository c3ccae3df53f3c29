import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { HashingMeter } from './hashing';
import { assertKey } from './keys';
import { countUpload } from '../metrics/registry';
import { processTag, sweepLeftovers } from './leftovers';
import type {
  ByteRange,
  MultipartLimits,
  ObjectBody,
  ObjectInfo,
  ObjectStore,
  PartInput,
  PartRef,
  PutOptions,
  StoredObject,
} from './object-store';

const GiB = 1024 ** 3;
/**
 * Writes buffer up to this much, so receiving from the network and writing to disk overlap
 * instead of taking turns 16 KiB at a time (memory per upload stays bounded by it).
 */
const WRITE_BUFFER = 4 * 1024 * 1024;

/**
 * Objects as files under one directory: `<root>/<key>`. Writes go to `<root>/.tmp` (named after
 * the writing process, so a restart removes what a crashed one left) and are renamed into place
 * once complete and synced, so an object appears whole or not at all.
 * Multipart writes are one staging file under `<root>/.multipart`, written at each part's
 * offset. Several API replicas may share the directory (a network filesystem).
 */
export class FileSystemObjectStore implements ObjectStore {
  readonly kind = 'filesystem' as const;
  readonly multipartLimits: MultipartLimits = {
    minPartBytes: 0,
    maxPartBytes: 64 * GiB,
    maxParts: 1_000_000,
  };
  private readonly tmpDir: string;
  private readonly multipartDir: string;

  constructor(
    private readonly root: string,
    readonly name = 'objects',
  ) {
    this.tmpDir = path.join(root, '.tmp');
    this.multipartDir = path.join(root, '.multipart');
  }

  /** Creates the directories and removes the temporary files of processes that died writing. */
  async init(): Promise<void> {
    await fsp.mkdir(this.tmpDir, { recursive: true });
    await fsp.mkdir(this.multipartDir, { recursive: true });
    await sweepLeftovers(this.tmpDir, true);
  }

  private file(key: string): string {
    return path.join(this.root, assertKey(key));
  }

  private staging(uploadId: string): string {
    if (!/^[0-9a-f-]{36}$/.test(uploadId)) throw new Error(`invalid multipart id ${uploadId}`);
    return path.join(this.multipartDir, uploadId);
  }

  async put(key: string, body: Readable, opts: PutOptions = {}): Promise<StoredObject> {
    const target = this.file(key);
    const tmp = path.join(this.tmpDir, `${processTag()}${randomUUID()}`);
    const meter = new HashingMeter(opts.maxBytes);
    const out = fs.createWriteStream(tmp, { flags: 'wx', highWaterMark: WRITE_BUFFER });
    try {
      await pipeline(body, meter, out);
      await syncAndMove(tmp, target);
      countUpload(this.kind, meter.bytes, true);
      return { size: meter.bytes, sha256: meter.sha256() };
    } catch (err) {
      // a body that fails at once can fail before the file is even opened: the open still
      // completes (creating it) and only then closes, so remove it after that
      if (!out.closed)
        await new Promise<void>((resolve) =>
          out.once('close', () => {
            resolve();
          }),
        );
      await fsp.rm(tmp, { force: true });
      throw meter.error ?? err;
    }
  }

  async get(key: string, range?: ByteRange): Promise<ObjectBody | null> {
    const info = await this.head(key);
    if (!info) return null;
    const body = fs.createReadStream(this.file(key), range ? { start: range.start, end: range.end } : {});
    return { ...info, body, range };
  }

  async head(key: string): Promise<ObjectInfo | null> {
    try {
      const stat = await fsp.stat(this.file(key));
      return stat.isFile() ? { size: stat.size } : null;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await fsp.rm(this.file(key), { force: true });
  }

  presignedUrl(): Promise<string | null> {
    return Promise.resolve(null);
  }

  async createMultipart(key: string): Promise<string> {
    assertKey(key);
    const uploadId = randomUUID();
    await fsp.writeFile(this.staging(uploadId), '', { flag: 'wx' });
    return uploadId;
  }

  async uploadPart(_key: string, uploadId: string, part: PartInput): Promise<PartRef> {
    const counter = new ByteCounter();
    await pipeline(
      part.body,
      counter,
      fs.createWriteStream(this.staging(uploadId), {
        flags: 'r+',
        start: part.offset,
        highWaterMark: WRITE_BUFFER,
      }),
    );
    if (counter.bytes !== part.length) {
      throw new Error(`part ${part.partNumber}: got ${counter.bytes} bytes, expected ${part.length}`);
    }
    countUpload(this.kind, counter.bytes, false);
    return { partNumber: part.partNumber, etag: '' };
  }

  async completeMultipart(key: string, uploadId: string, _parts: PartRef[], size: number): Promise<void> {
    const staging = this.staging(uploadId);
    // an interrupted write may have left bytes past the end; the object is exactly `size`
    await fsp.truncate(staging, size);
    await syncAndMove(staging, this.file(key));
    countUpload(this.kind, 0, true);
  }

  readStaged(_key: string, uploadId: string, length: number): Readable {
    if (length === 0) return Readable.from([]);
    return fs.createReadStream(this.staging(uploadId), {
      start: 0,
      end: length - 1,
      highWaterMark: WRITE_BUFFER,
    });
  }

  async abortMultipart(_key: string, uploadId: string): Promise<void> {
    await fsp.rm(this.staging(uploadId), { force: true });
  }
}

async function syncAndMove(from: string, to: string): Promise<void> {
  const handle = await fsp.open(from, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fsp.mkdir(path.dirname(to), { recursive: true });
  await fsp.rename(from, to);
}

class ByteCounter extends Transform {
  bytes = 0;
  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    done(null, chunk);
  }
}
