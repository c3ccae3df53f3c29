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
