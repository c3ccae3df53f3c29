import { NullableString, Type } from '../../core/rest/schema';
import type { AssociatedFile } from './file.entity';

/** The legacy REST shape of a file record (reference §5.7, §12, §14). */
export function toLegacyFile(f: AssociatedFile): Record<string, unknown> {
  return {
    mfid: f.uniqueId,
    dataset_mfid: f.dataset.uniqueId,
    filename: f.filename,
    storage_backend: f.storageBackend,
    storage_path: f.storagePath ?? null,
    access_note: f.accessNote ?? null,
    size: f.size ?? null,
    sha256_hash: f.sha256 ?? null,
    content_type: f.contentType ?? null,
    creation_time: f.creationTime.toISOString(),
    modification_time: f.modificationTime.toISOString(),
  };
}

const nullable = NullableString();
/** A file record on the legacy wire. */
export const FILE = Type.Object(
  {
    mfid: Type.String(),
    dataset_mfid: Type.String(),
    filename: Type.String(),
    storage_backend: Type.String(),
    storage_path: nullable,
    access_note: nullable,
    size: Type.Union([Type.Integer(), Type.Null()]),
    sha256_hash: nullable,
    content_type: nullable,
    creation_time: Type.String({ format: 'date-time' }),
    modification_time: Type.String({ format: 'date-time' }),
  },
  { title: 'File' },
);
