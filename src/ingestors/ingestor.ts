import type { StructureTree } from '../modules/file/file-structure';
import type { Readable } from 'node:stream';

/**
 * The bytes of one file, as an ingestor reads them. Nothing is read until asked: `head` for
 * magic numbers, `stream` for a single pass, `bytes` for small files, `path` when a library
 * needs a file on disk (the contents are then spooled once to a temporary file).
 */
export interface Source {
  readonly filename: string;
  /** the extension, lowercase, without the dot ('' when there is none) */
  readonly extension: string;
  readonly size: number;
  /** the first bytes (up to 64 KiB) */
  head(): Promise<Buffer>;
  stream(): Promise<Readable>;
  /** the whole contents; fails when the file is larger than `limit` */
  bytes(limit: number): Promise<Buffer>;
  path(): Promise<string>;
  /**
   * A value computed once per source and shared by ingestors (an opened HDF5 file read by the
   * detection and then by the extraction); `dispose` runs when the source is released.
   */
  memo<T>(key: string, create: () => Promise<T>, dispose?: (value: T) => Promise<void>): Promise<T>;
}

/** The structured dataset fields an ingestor may fill (only where the dataset has no value). */
export interface ExtractedFields {
  datasetName?: string;
  measurement?: string;
  dataType?: string;
  dataFormat?: string;
  sessionName?: string;
  /** ISO 8601 */
  timestamp?: string;
}

export interface ExtractedThumbnail {
  /** the thumbnail name; a new run replaces the thumbnails of the same names */
  name: string;
  /** any image sharp reads; stored as JPEG */
  image: Buffer;
  /**
   * `image` is already the stored form (a thumbnail JPEG of `thumbnailJpeg`): stored as it is
   * instead of being encoded again
   */
  stored?: boolean;
}

/** What an ingestor found in a file. */
export interface Extraction {
  fields?: ExtractedFields;
  /** merged into the dataset's scientific metadata (new keys added, existing keys replaced) */
  metadata?: Record<string, unknown>;
  thumbnails?: ExtractedThumbnail[];
  keywords?: string[];
  /**
   * The file's own structure (an HDF5 file's groups and datasets), recorded per file for its
   * preview: a new run replaces what an earlier one recorded (src/modules/file/file-structure.ts)
   */
  structure?: StructureTree;
}

/**
 * A data-type-specific parser. `supports` must be cheap where it can (extension, magic
 * numbers) and never throw; `extract` throws when the file is not what it expects (the request
 * then ends `failed` with the message).
 */
export interface Ingestor {
  /** the class name clients use (`ingestion_class`) */
  readonly name: string;
  readonly description: string;
  supports(source: Source): Promise<boolean>;
  extract(source: Source): Promise<Extraction>;
}

/** A file name without its extension. */
export function stem(filename: string): string {
  const dot = filename.lastIndexOf('.');
  return dot > 0 ? filename.slice(0, dot) : filename;
}

/** Whether `bytes` starts with `magic` at `offset`. */
export function startsWith(bytes: Buffer, magic: number[] | string, offset = 0): boolean {
  const m = typeof magic === 'string' ? Buffer.from(magic, 'latin1') : Buffer.from(magic);
  return bytes.length >= offset + m.length && bytes.subarray(offset, offset + m.length).equals(m);
}
