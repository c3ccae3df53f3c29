import type { EntityManager } from '@mikro-orm/postgresql';
import { rawQuery } from '../../core/db/raw';
import { SERVICE_STORAGE_BACKEND } from './file.entity';

/** A stored file as it is recorded (not a dedup hit), with what the uploader asked for along with it. */
export interface StoredFile {
  uniqueId: string;
  datasetId: string;
  creatorId: string;
  /** the ingestor the uploader named; null for none */
  ingestor: string | null;
  /** false when the client asks for ingestion itself, later (the legacy resumable protocol) */
  ingest: boolean;
}

/**
 * A module's part in recording a stored file: it runs inside the transaction that inserts the
 * record, using only `tx`, so its rows commit with the record or not at all.
 */
export interface StoredFileHook {
  name: string;
  recordedIn(tx: EntityManager, file: StoredFile): Promise<void>;
}

/**
 * The registry of stored-file hooks. Modules register at start-up (see `createServices`), so
 * the file module calls them without depending on them (ingestion records its request this way).
 */
export class StoredFileHooks {
  private readonly hooks: StoredFileHook[] = [];

  register(hook: StoredFileHook): void {
    this.hooks.push(hook);
  }

  /** Runs every hook, in registration order, inside `tx`. */
  async recordedIn(tx: EntityManager, file: StoredFile): Promise<void> {
    for (const hook of this.hooks) await hook.recordedIn(tx, file);
  }
}

/** The row of a stored file to insert: bytes already in the store, and where they came from. */
export interface StoredRow {
  uniqueId: string;
  datasetId: string;
  key: string;
  size: number;
  sha256: string;
  filename: string;
  contentType: string;
  storagePath: string;
  creatorId: string;
}

/**
 * Inserts a stored file's row inside `tx`, unless the dataset already holds the same bytes
 * (then nothing is inserted and no row is returned).
 */
export function insertStoredIn(tx: EntityManager, f: StoredRow): Promise<Record<string, unknown>[]> {
  return rawQuery<Record<string, unknown>>(
    tx,
    `insert into associated_file
       (unique_id, dataset_mfid, filename, size, sha256, content_type, storage_backend, storage_key,
        storage_path, creator_id)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     on conflict (dataset_mfid, sha256) where storage_key is not null do nothing
     returning *`,
    [
      f.uniqueId,
      f.datasetId,
      f.filename,
      f.size,
      f.sha256,
      f.contentType,
      SERVICE_STORAGE_BACKEND,
      f.key,
      f.storagePath,
      f.creatorId,
    ],
  );
}

/** The stored file of a dataset with these bytes, as rows (none or one), inside `tx`. */
export function storedRowsIn(
  tx: EntityManager,
  datasetId: string,
  sha256: string,
): Promise<Record<string, unknown>[]> {
  return rawQuery<Record<string, unknown>>(
    tx,
    'select * from associated_file where dataset_mfid = ? and sha256 = ? and storage_key is not null',
    [datasetId, sha256],
  );
}
