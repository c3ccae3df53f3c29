import type { Readable } from 'node:stream';
import type { ObjectStore } from '../../core/storage/object-store';
import { AppError, notFound } from '../../core/errors';
import type { AssociatedFile } from './file.entity';
import type { FileStructure } from './file-structure.entity';
import type { StructureNode } from './file-structure';

/** At most this many bytes of a file are read for a text, CSV/TSV or JSON preview (one range read). */
export const PREVIEW_MAX_BYTES = 64 * 1024;
/** An image is previewed (its bytes served by the preview image route) only up to this size. */
export const PREVIEW_IMAGE_MAX_BYTES = 8 * 1024 * 1024;

export type PreviewKind = 'csv' | 'tsv' | 'json' | 'text' | 'image' | 'hdf5' | 'none';

/** An HDF5 file's own structure, as its last ingestion recorded it (file-structure.ts bounds it). */
export interface PreviewStructure {
  format: string;
  /** groups, datasets and other objects in tree order; `/` is the root */
  nodes: StructureNode[];
  /** something was left out (file-structure.ts limits) */
  truncated: boolean;
  /** the ingestor that read it */
  ingestor: string | null;
  recordedAt: Date;
}

/** What a preview of a file shows (docs/web-app.md, "Previews"). */
export interface FilePreview {
  fileId: string;
  filename: string;
  kind: PreviewKind;
  size: number;
  /** csv, tsv, json, text: the first bytes as UTF-8 text (cut at the last whole character) */
  text: string | null;
  /** bytes read from storage for `text` (at most PREVIEW_MAX_BYTES) */
  bytesRead: number;
  /** the file goes on past `text` */
  truncated: boolean;
  /** image: the service path serving its bytes */
  imagePath: string | null;
  /** none: why there is nothing to show; hdf5: why there is no structure (not ingested yet, or it failed) */
  reason: string | null;
  /** hdf5: this file's own structure, once ingestion has read it */
  structure: PreviewStructure | null;
}

const TEXT = new Set([
  'txt',
  'text',
  'log',
  'md',
  'dat',
  'xy',
  'xye',
  'cif',
  'ini',
  'cfg',
  'yaml',
  'yml',
  'xml',
]);
const IMAGES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
};
/** the extensions the HDF5 ingestor reads (src/ingestors/h5/file.ts) */
const HDF5 = new Set(['h5', 'hdf5', 'hdf', 'he5', 'nxs', 'nx5', 'emd']);

const extensionOf = (name: string): string => {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
};

/** The kind of preview a file gets, by its name (then its stored media type for text). */
export function previewKind(file: Pick<AssociatedFile, 'filename' | 'contentType'>): PreviewKind {
  const ext = extensionOf(file.filename);
  if (ext === 'csv') return 'csv';
  if (ext === 'tsv' || ext === 'tab') return 'tsv';
  if (ext === 'json') return 'json';
  if (ext in IMAGES) return 'image';
  if (HDF5.has(ext)) return 'hdf5';
  if (TEXT.has(ext) || /^text\/plain\b/.test(file.contentType ?? '')) return 'text';
  return 'none';
}

/** The media type the preview image route answers with: by extension, never what was uploaded. */
export const imageType = (filename: string): string | undefined => IMAGES[extensionOf(filename)];

/** The first `max` bytes of a stream, then it is let go. */
async function firstBytes(body: Readable, max: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  let n = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      parts.push(chunk);
      n += chunk.length;
      if (n >= max) break;
    }
  } finally {
    body.destroy();
  }
  return Buffer.concat(parts).subarray(0, max);
}

/** UTF-8 text of `bytes`, a character cut by the end dropped; null when it is not text (NUL bytes, mostly invalid). */
function textOf(bytes: Buffer, cut: boolean): string | null {
  if (bytes.includes(0)) return null;
  let text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  if (cut) text = text.replace(/\uFFFD{1,3}$/, '');
  const bad = (text.match(/\uFFFD/g) ?? []).length;
  return bad > text.length / 100 + 1 ? null : text;
}

/**
 * The preview of a file whose bytes the caller may read (`readable`: the one byte check,
 * DownloadService.readableFile). Text kinds read at most {@link PREVIEW_MAX_BYTES} from the start
 * of the object (a range read: the whole file is never read); an image is only named (its bytes
 * go by {@link previewImage}); an HDF5 file's structure is what the file's own last ingestion
 * recorded (`recorded`, its `file_structure` row), so nothing is read here: without a row it is
 * not ingested yet, and a failed ingestion gives its reason.
 */
export async function previewFile(
  store: ObjectStore,
  file: AssociatedFile,
  recorded: FileStructure | null = null,
): Promise<FilePreview> {
  const size = file.size ?? 0;
  const base: FilePreview = {
    fileId: file.uniqueId,
    filename: file.filename,
    kind: previewKind(file),
    size,
    text: null,
    bytesRead: 0,
    truncated: false,
    imagePath: null,
    reason: null,
    structure: null,
  };
  const none = (reason: string): FilePreview => ({ ...base, kind: 'none', reason });
  if (!file.storageKey) return none('a remote file: its bytes are not in the service storage');
  if (base.kind === 'none') return none('no preview for this kind of file');
  if (base.kind === 'hdf5') {
    if (recorded?.nodes) {
      const { format, nodes, truncated, ingestor, recordedAt } = recorded;
      return { ...base, structure: { format, nodes, truncated, ingestor: ingestor ?? null, recordedAt } };
    }
    if (recorded?.error) return { ...base, reason: `ingestion failed on this file: ${recorded.error}` };
    return { ...base, reason: 'not ingested yet: its structure is shown once ingestion has read this file' };
  }
  if (base.kind === 'image') {
    if (size > PREVIEW_IMAGE_MAX_BYTES) return none(`an image over ${PREVIEW_IMAGE_MAX_BYTES / 1048576} MiB`);
    return { ...base, imagePath: `/api/v2/files/${file.uniqueId}/preview/image` };
  }
  if (size === 0) return { ...base, text: '' };
  const length = Math.min(size, PREVIEW_MAX_BYTES);
  const object = await store.get(file.storageKey, { start: 0, end: length - 1 });
  if (!object) throw notFound('File', file.uniqueId);
  const bytes = await firstBytes(object.body, length);
  const truncated = size > bytes.length;
  const text = textOf(bytes, truncated);
  if (text === null) return none('not text');
  return { ...base, text, bytesRead: bytes.length, truncated };
}

/** The bytes of a previewable image (at most {@link PREVIEW_IMAGE_MAX_BYTES}); 404 for any other file. */
export async function previewImage(
  store: ObjectStore,
  file: AssociatedFile,
): Promise<{ type: string; bytes: Buffer; etag: string }> {
  const type = imageType(file.filename);
  const size = file.size ?? 0;
  if (!type || !file.storageKey || size > PREVIEW_IMAGE_MAX_BYTES) {
    throw new AppError('NOT_FOUND', `File ${file.uniqueId} has no image preview`);
  }
  const object = await store.get(file.storageKey);
  if (!object) throw notFound('File', file.uniqueId);
  const bytes = await firstBytes(object.body, PREVIEW_IMAGE_MAX_BYTES);
  return { type, bytes, etag: `"${file.sha256 ?? `${file.uniqueId}-${size}`}"` };
}
