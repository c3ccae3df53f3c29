import type { EntityManager } from '@mikro-orm/postgresql';

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
