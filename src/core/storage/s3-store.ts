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
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { S3Settings } from '../config';
import type { Logger } from '../logger';
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

/** Streaming writes buffer at most PUT_PART_BYTES × PUT_QUEUE bytes per upload. */
const PUT_PART_BYTES = 8 * MiB;
const PUT_QUEUE = 2;

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
    const meter = new HashingMeter(opts.maxBytes);
    body.on('error', (err) => meter.destroy(err));
    body.pipe(meter);
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: assertKey(key), Body: meter, ContentType: opts.contentType },
      partSize: PUT_PART_BYTES,
      queueSize: PUT_QUEUE,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (err) {
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
