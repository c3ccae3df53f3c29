import type { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { S3Settings } from '../config';
import type { Logger } from '../logger';
import { AppError } from '../errors';
import { HashingMeter } from './hashing';
import { assertKey, attachmentDisposition } from './keys';
import { countUpload } from '../metrics/registry';
import type {
  ByteRange,
  MultipartLimits,
  ObjectBody,
  ObjectInfo,
  ObjectStore,
  PartInput,
  PartRef,
  PutOptions,
  SignedUrlOptions,
  StoredObject,
} from './object-store';

const MiB = 1024 ** 2;

/**
 * A streamed write (`put`) sends parts of PUT_PART_BYTES, PUT_QUEUE at a time while the next
 * fills: (PUT_QUEUE + 1) part buffers per upload, reused for its whole length (only the pages a
 * small file touches count). Parts double in size every PART_DOUBLING parts, so S3's 10,000
 * parts hold about 290 GiB (the buffers double with them).
 */
const PUT_PART_BYTES = 8 * MiB;
const PUT_QUEUE = 2;
const PART_DOUBLING = 2500;
const MAX_PARTS = 10_000;
const partBytes = (partNumber: number) => PUT_PART_BYTES * 2 ** Math.floor((partNumber - 1) / PART_DOUBLING);

function isMissing(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NotFound' || e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404;
}

/** The SDK's own messages (e.g. about a body that failed mid-request) go to the service log, quietly. */
function sdkLogger(log?: Logger) {
  const debug = (...args: unknown[]) => log?.debug({ sdk: args }, 'aws sdk');
  return {
    trace: debug,
    debug,
    info: debug,
    warn: debug,
    error: (...args: unknown[]) => log?.warn({ sdk: args }, 'aws sdk'),
  };
}

/**
 * Objects in an S3-compatible bucket (AWS S3, MinIO, GCS interoperability, s3rver in tests).
 * Path-style addressing is configurable; checksums are sent only when an operation requires
 * them, which every S3 implementation accepts.
 */
export class S3ObjectStore implements ObjectStore {
  readonly kind = 's3' as const;
  readonly multipartLimits: MultipartLimits = {
    minPartBytes: 5 * MiB,
    maxPartBytes: 5 * 1024 * MiB,
    maxParts: 10_000,
  };
  readonly client: S3Client;
  /** signs presigned URLs for the public endpoint (the same client when there is none) */
  private readonly signer: S3Client;
  private readonly bucket: string;

  constructor(
    settings: S3Settings,
    private readonly log?: Logger,
  ) {
    this.bucket = settings.bucket;
    this.client = S3ObjectStore.makeClient(settings, settings.endpoint, log);
    // a presigned URL's signature covers its host: sign for the address clients reach
    this.signer =
      settings.publicEndpoint && settings.publicEndpoint !== settings.endpoint
        ? S3ObjectStore.makeClient(settings, settings.publicEndpoint, log)
        : this.client;
  }

  private static makeClient(settings: S3Settings, endpoint: string | undefined, log?: Logger): S3Client {
    return new S3Client({
      endpoint,
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      credentials:
        settings.accessKeyId && settings.secretAccessKey
          ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey }
          : undefined,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      logger: sdkLogger(log),
    });
  }

  get name(): string {
    return this.bucket;
  }

  async init(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    } catch (err) {
      if (!isMissing(err)) throw err;
      try {
        await this.client.send(new CreateBucketCommand({ Bucket: this.bucket }));
        this.log?.info({ bucket: this.bucket }, 'created the S3 bucket');
      } catch (inner) {
        // replicas starting together: another one created it first
        if ((inner as { name?: string }).name !== 'BucketAlreadyOwnedByYou') throw inner;
      }
    }
  }

  async put(key: string, body: Readable, opts: PutOptions = {}): Promise<StoredObject> {
    assertKey(key);
    const meter = new HashingMeter(opts.maxBytes);
    body.on('error', (err) => meter.destroy(err));
    body.pipe(meter);
    const write = new StreamedWrite(this.client, this.bucket, key, opts.contentType);
    try {
      await write.from(meter);
    } catch (err) {
      body.unpipe(meter);
      meter.destroy();
      const uploadId = await write.settle();
      if (uploadId !== null) await this.abortMultipart(key, uploadId);
      // a failed abort (some servers lack AbortMultipartUpload) must not hide the real cause
      throw meter.error ?? err;
    }
    countUpload(this.kind, meter.bytes, true);
    return { size: meter.bytes, sha256: meter.sha256() };
  }

  async get(key: string, range?: ByteRange): Promise<ObjectBody | null> {
    try {
      const out = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: assertKey(key),
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      );
      const total = range ? Number(/\/(\d+)$/.exec(out.ContentRange ?? '')?.[1]) : Number(out.ContentLength);
      return { body: out.Body as Readable, size: total, contentType: out.ContentType, range };
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async head(key: string): Promise<ObjectInfo | null> {
    try {
      const out = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: assertKey(key) }));
      return { size: out.ContentLength ?? 0, contentType: out.ContentType };
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: assertKey(key) }));
  }

  presignedUrl(key: string, opts: SignedUrlOptions): Promise<string> {
    const command = new GetObjectCommand({
      Bucket: this.bucket,
      Key: assertKey(key),
      ResponseContentDisposition: opts.filename ? attachmentDisposition(opts.filename) : undefined,
      ResponseContentType: opts.contentType,
    });
    return getSignedUrl(this.signer, command, { expiresIn: opts.expiresInSeconds });
  }

  async createMultipart(key: string): Promise<string> {
    const out = await this.client.send(
      new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: assertKey(key) }),
    );
    if (!out.UploadId) throw new Error('CreateMultipartUpload returned no UploadId');
    return out.UploadId;
  }

  async uploadPart(key: string, uploadId: string, part: PartInput): Promise<PartRef> {
    // a body that fails (the client went away) must end the request, or it waits for bytes forever
    const abort = new AbortController();
    part.body.once('error', () => {
      abort.abort();
    });
    const out = await this.client.send(
      new UploadPartCommand({
        Bucket: this.bucket,
        Key: assertKey(key),
        UploadId: uploadId,
        PartNumber: part.partNumber,
        Body: part.body,
        ContentLength: part.length,
      }),
      { abortSignal: abort.signal },
    );
    countUpload(this.kind, part.length, false);
    return { partNumber: part.partNumber, etag: out.ETag ?? '' };
  }

  async completeMultipart(key: string, uploadId: string, parts: PartRef[]): Promise<void> {
    await this.client.send(
      new CompleteMultipartUploadCommand({
        Bucket: this.bucket,
        Key: assertKey(key),
        UploadId: uploadId,
        MultipartUpload: { Parts: parts.map((p) => ({ PartNumber: p.partNumber, ETag: p.etag })) },
      }),
    );
    countUpload(this.kind, 0, true);
  }

  async abortMultipart(key: string, uploadId: string): Promise<void> {
    try {
      await this.client.send(
        new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: assertKey(key), UploadId: uploadId }),
      );
    } catch (err) {
      this.log?.warn({ err, key }, 'could not abort a multipart upload (the bucket lifecycle must clean it)');
    }
  }
}

/**
 * One streamed write to S3: the bytes are copied into part buffers; a stream that ends within
 * the first part is one PutObject, a longer one a multipart upload with PUT_QUEUE parts in
 * flight while the next fills (the stream is not read further until one is done).
 */
class StreamedWrite {
  private uploadId: string | null = null;
  private readonly parts: { PartNumber: number; ETag?: string }[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private readonly free: Buffer[] = [];
  private buf: Buffer | null = null;
  private used = 0;
  /** a part that failed: the write stops at the next chunk */
  private failed: { err: unknown } | null = null;

  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
    private readonly key: string,
    private readonly contentType: string | undefined,
  ) {}

  async from(stream: AsyncIterable<Buffer>): Promise<void> {
    for await (const chunk of stream) {
      if (this.failed) throw this.failed.err;
      let offset = 0;
      while (offset < chunk.length) {
        this.buf ??= this.free.pop() ?? Buffer.allocUnsafeSlow(partBytes(this.parts.length + 1));
        const n = chunk.copy(this.buf, this.used, offset);
        this.used += n;
        offset += n;
        if (this.used === this.buf.length) await this.sendPart();
      }
    }
    if (this.uploadId === null) {
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: this.key,
          Body: this.buf ? this.buf.subarray(0, this.used) : Buffer.alloc(0),
          ContentLength: this.used,
          ContentType: this.contentType,
        }),
      );
      return;
    }
    if (this.used > 0) await this.sendPart();
    await Promise.all(this.inFlight);
    await this.client.send(
      new CompleteMultipartUploadCommand({
        Bucket: this.bucket,
        Key: this.key,
        UploadId: this.uploadId,
        MultipartUpload: { Parts: this.parts },
      }),
    );
  }

  /** Sends the filled buffer as the next part, once fewer than PUT_QUEUE parts are in flight. */
  private async sendPart(): Promise<void> {
    const buf = this.buf;
    if (!buf) return;
    const length = this.used;
    this.buf = null;
    this.used = 0;
    if (this.uploadId === null) {
      const out = await this.client.send(
        new CreateMultipartUploadCommand({
          Bucket: this.bucket,
          Key: this.key,
          ContentType: this.contentType,
        }),
      );
      if (!out.UploadId) throw new Error('CreateMultipartUpload returned no UploadId');
      this.uploadId = out.UploadId;
    }
    while (this.inFlight.size >= PUT_QUEUE) await Promise.race(this.inFlight);
    const partNumber = this.parts.length + 1;
    if (partNumber > MAX_PARTS)
      throw new AppError('PAYLOAD_TOO_LARGE', 'The file is larger than a streamed write to S3 can hold');
    const part = { PartNumber: partNumber } as { PartNumber: number; ETag?: string };
    this.parts.push(part);
    const sent = this.client
      .send(
        new UploadPartCommand({
          Bucket: this.bucket,
          Key: this.key,
          UploadId: this.uploadId,
          PartNumber: partNumber,
          Body: buf.subarray(0, length),
          ContentLength: length,
        }),
      )
      .then((out) => {
        part.ETag = out.ETag;
        // the buffer serves again while the parts keep its size
        if (buf.length === partBytes(this.parts.length + 1)) this.free.push(buf);
      });
    this.inFlight.add(sent);
    sent.then(
      () => this.inFlight.delete(sent),
      (err: unknown) => {
        this.failed ??= { err };
        this.inFlight.delete(sent);
      },
    );
  }

  /** After a failure: waits for the parts in flight; the multipart upload to abort, if any. */
  async settle(): Promise<string | null> {
    await Promise.allSettled(this.inFlight);
    return this.uploadId;
  }
}
