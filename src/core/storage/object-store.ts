import type { Readable } from 'node:stream';

/** What a completed write stored: its size and SHA-256, both computed while streaming. */
export interface StoredObject {
  size: number;
  /** lowercase hex */
  sha256: string;
}

export interface ObjectInfo {
  size: number;
  contentType?: string;
}

/** An inclusive byte range of an object. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface ObjectBody extends ObjectInfo {
  body: Readable;
  /** the range served; absent when the whole object is */
  range?: ByteRange;
}

export interface PutOptions {
  contentType?: string;
  /** the write fails with PAYLOAD_TOO_LARGE once the stream passes this many bytes */
  maxBytes?: number;
}

export interface SignedUrlOptions {
  expiresInSeconds: number;
  /** offered as the download's file name (Content-Disposition) */
  filename?: string;
  contentType?: string;
}

/** One part of a multipart write, in the order the parts make up the object. */
export interface PartRef {
  partNumber: number;
  etag: string;
}

export interface PartInput {
  /** 1-based; S3 orders parts by it */
  partNumber: number;
  /** where the part starts in the object; the filesystem store writes there */
  offset: number;
  /** exactly `length` bytes */
  body: Readable;
  length: number;
}

/** The rules a store imposes on multipart writes. */
export interface MultipartLimits {
  /** every part but the last must be at least this large */
  minPartBytes: number;
  maxPartBytes: number;
  maxParts: number;
}

/**
 * Where file contents live (DESIGN §6): a small interface with a filesystem and an S3
 * implementation. Keys are opaque `/`-separated strings; rows store keys, never URLs.
 */
export interface ObjectStore {
  /** `filesystem` or `s3`, for logs and documentation */
  readonly kind: 'filesystem' | 's3';
  /** the bucket or store name, as shown in storage paths */
  readonly name: string;
  readonly multipartLimits: MultipartLimits;

  /** Prepares the store (directories, the bucket); called once at start. */
  init(): Promise<void>;

  /**
   * Streams `body` to `key`, computing size and SHA-256 on the way. The object appears whole or
   * not at all: on any failure nothing is left under `key`.
   */
  put(key: string, body: Readable, opts?: PutOptions): Promise<StoredObject>;

  /** The object's bytes, or the inclusive `range` of them; null when there is no such object. */
  get(key: string, range?: ByteRange): Promise<ObjectBody | null>;

  head(key: string): Promise<ObjectInfo | null>;

  /** Removes the object; removing a missing object is not an error. */
  delete(key: string): Promise<void>;

  /**
   * A URL from which anyone may GET the object (with Range) until it expires, or null when the
   * store cannot sign URLs itself (the service then signs its own URL and serves the bytes).
   */
  presignedUrl(key: string, opts: SignedUrlOptions): Promise<string | null>;

  /** Starts a multipart write to `key`; returns its id. */
  createMultipart(key: string): Promise<string>;

  /** Writes one part; returns the reference `completeMultipart` needs. */
  uploadPart(key: string, uploadId: string, part: PartInput): Promise<PartRef>;

  /** Assembles the parts into the object at `key` (of `size` bytes) and ends the write. */
  completeMultipart(key: string, uploadId: string, parts: PartRef[], size: number): Promise<void>;

  /**
   * The first `length` bytes its parts have written so far, where the store can read them back
   * before completion (the filesystem store; S3 cannot). Resumable uploads use it to rebuild a
   * digest kept in another process.
   */
  readStaged?(key: string, uploadId: string, length: number): Readable;

  /** Abandons a multipart write and frees its parts (best effort). */
  abortMultipart(key: string, uploadId: string): Promise<void>;
}
