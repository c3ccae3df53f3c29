import type { Readable } from 'node:stream';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../core/context';
import type { Config } from '../../core/config';
import { notFound, validationError } from '../../core/errors';
import { isMfid, newMfid } from '../../core/ids';
import { rawQuery } from '../../core/db/raw';
import type { ObjectStore } from '../../core/storage/object-store';
import type { Dataset } from '../dataset/dataset.entity';
import type { DatasetService } from '../dataset/dataset.service';
import { AssociatedFile } from './file.entity';
import { FileStructure } from './file-structure.entity';
import { recordStructureIn, type StructureFile, type StructureFound } from './structure-store';
import type { FilePolicy } from './file.policy';
import { FileQuery, type FileFilter } from './file.query';
import { cleanContentType, cleanFilename, ingestorName } from './filename';
import { insertStoredIn, StoredFileHooks, storedRowsIn } from './stored-file';
import { applyFilePatch, checkRemoteInput, type FilePatch, type RemoteFileInput } from './file-input';
import type { EventService } from '../outbox/event.service';
import { emitFileEvent } from './file-events';
import { archiveFiles, type ArchiveFiles } from './archive-files';
import { fieldChanges } from '../outbox/domain-event';

/** Bytes already written to the store, ready to become a file record. */
export interface StoredUpload {
  uniqueId: string;
  key: string;
  size: number;
  sha256: string;
  filename: string;
  contentType: string;
}

/** A dataset's file as `filesOfIn` reads it (a remote file may have no size and no SHA-256). */
export interface DatasetFileRow {
  datasetId: string;
  fileId: string;
  name: string;
  size: number | null;
  sha256: string | null;
  stored: boolean;
}

/**
 * The outcome of adding a stored file. `created` is false on a dedup hit (the dataset already
 * had these bytes: the existing record comes back, nothing new is stored). `ingestor` is the
 * ingestor the caller asked for, for the ingestion request a new file gets.
 */
export interface FileAdded {
  file: AssociatedFile;
  created: boolean;
  ingestor: string | null;
}

export interface FileDeps {
  config: Config;
  store: ObjectStore;
  datasets: DatasetService;
  policy: FilePolicy;
  events: EventService;
}

/** The object key of a stored file: stable, and unique per upload so a dedup loser can drop its own. */
export const objectKey = (datasetId: string, fileId: string): string => `${datasetId}/${fileId}`;

/**
 * Files of datasets (spec 1.3, 1.6–1.8, 2.3): stored uploads deduplicated by SHA-256 per
 * dataset, remote files catalogued by location, lookups, updates and deletion. Object first,
 * row last: a request that fails leaves neither a row nor an object behind.
 */
export class FileService {
  readonly policy: FilePolicy;
  readonly store: ObjectStore;
  /** what other modules do when a stored file is recorded (ingestion registers its request) */
  readonly stored = new StoredFileHooks();
  private readonly query: FileQuery;

  constructor(private readonly deps: FileDeps) {
    this.policy = deps.policy;
    this.store = deps.store;
    this.query = new FileQuery(deps.policy);
  }

  /** A file of a dataset the caller may read; 404 otherwise (also for malformed ids). */
  async get(ctx: RequestContext, uniqueId: string): Promise<AssociatedFile> {
    const file = isMfid(uniqueId) ? await ctx.em.findOne(AssociatedFile, { uniqueId }) : null;
    if (!file) throw notFound('File', uniqueId);
    try {
      await this.deps.datasets.get(ctx, file.dataset.uniqueId);
    } catch {
      throw notFound('File', uniqueId);
    }
    return file;
  }

  /**
   * A readable dataset's files by MFID: a page by offset, or (`after`, a file MFID) the files after that
   * one, whose cost does not grow with the dataset's size.
   */
  async ofDataset(
    ctx: RequestContext,
    datasetId: string,
    page?: { limit: number; offset: number; after?: string },
  ): Promise<AssociatedFile[]> {
    if (page?.after !== undefined && !isMfid(page.after))
      throw validationError('after', 'must be a file MFID');
    const ds = await this.deps.datasets.get(ctx, datasetId);
    return ctx.em.find(
      AssociatedFile,
      page?.after === undefined
        ? { dataset: ds.uniqueId }
        : { dataset: ds.uniqueId, uniqueId: { $gt: page.after } },
      { orderBy: { uniqueId: 'asc' }, ...(page ? { limit: page.limit, offset: page.offset } : {}) },
    );
  }

  /** A readable dataset's files as an archive reads them (`archive-files.ts`). */
  async archiveFiles(ctx: RequestContext, datasetId: string): Promise<ArchiveFiles> {
    const ds = await this.deps.datasets.get(ctx, datasetId);
    return archiveFiles(ctx.em, ds.uniqueId);
  }

  /** The files of these MFIDs on datasets the caller may read (as `get`), in one statement. */
  readable(ctx: RequestContext, ids: readonly string[]): Promise<AssociatedFile[]> {
    const wanted = ids.filter(isMfid);
    return wanted.length ? this.query.byIds(ctx, wanted) : Promise.resolve([]);
  }

  list(ctx: RequestContext, filter: FileFilter, page: { limit: number; offset: number }) {
    return this.query.offsetPage(ctx, filter, page);
  }

  page(ctx: RequestContext, filter: FileFilter, page: { limit: number; cursor?: string }) {
    return this.query.keyset(ctx, filter, page);
  }

  count(ctx: RequestContext, filter: FileFilter): Promise<number> {
    return this.query.count(ctx, filter);
  }

  /** A dataset the caller may add files to (contribute); checked before any byte is read. */
  async datasetForAdding(ctx: RequestContext, datasetId: string): Promise<Dataset> {
    const ds = await this.deps.datasets.get(ctx, datasetId);
    await this.policy.assertCanAdd(ctx, ds);
    return ds;
  }

  /**
   * The files of these datasets, inside the caller's transaction (the publication module, which
   * has checked the caller may manage every one of them), ordered by dataset then MFID; at most
   * `limit` rows (the caller asks one more than it accepts to know when there are too many).
   */
  filesOfIn(tx: EntityManager, datasetIds: readonly string[], limit: number): Promise<DatasetFileRow[]> {
    if (!datasetIds.length) return Promise.resolve([]);
    return rawQuery<DatasetFileRow>(
      tx,
      `select dataset_mfid as "datasetId", unique_id as "fileId", filename as "name", size::float8 as "size",
              sha256, storage_key is not null as "stored"
       from associated_file where dataset_mfid in (?) order by dataset_mfid, unique_id limit ?`,
      [[...datasetIds], limit],
    );
  }

  /** The stored file of the dataset with these bytes, if any (the dedup lookup). */
  async findStored(em: EntityManager, datasetId: string, sha256: string): Promise<AssociatedFile | null> {
    return em.findOne(AssociatedFile, {
      dataset: datasetId,
      sha256: sha256.toLowerCase(),
      storageKey: { $ne: null },
    });
  }

  /**
   * Streams an upload to the store, then records it (or returns the existing duplicate). The
   * body is opened only once the input and the caller's permission have been checked.
   */
  async addStored(
    ctx: RequestContext,
    datasetId: string,
    input: { filename: unknown; open: () => Readable; contentType?: unknown; ingestor?: unknown },
  ): Promise<FileAdded> {
    const filename = cleanFilename(input.filename);
    const ingestor = ingestorName(input.ingestor);
    const ds = await this.datasetForAdding(ctx, datasetId);
    const uniqueId = newMfid();
    const key = objectKey(ds.uniqueId, uniqueId);
    const contentType = cleanContentType(input.contentType);
    const stored = await this.store.put(key, input.open(), {
      maxBytes: this.deps.config.limits.maxUploadBytes,
      contentType,
    });
    return this.recordStored(ctx, ds.uniqueId, { uniqueId, key, filename, contentType, ...stored }, ingestor);
  }

  /**
   * Creates the record of bytes already in the store, in one transaction with the dataset's
   * size. When the dataset already holds the same bytes (also when a concurrent upload of them
   * won the race), the existing record is returned and this upload's object is deleted.
   * On any failure the object is deleted too: no row, no orphan.
   */
  async recordStored(
    ctx: RequestContext,
    datasetId: string,
    upload: StoredUpload,
    ingestor: string | null,
    /** ingest the file (false: the caller asks for ingestion itself) */
    ingest = true,
  ): Promise<FileAdded> {
    let result: { row: Record<string, unknown>; created: boolean } | null = null;
    try {
      for (let attempt = 0; attempt < 3 && !result; attempt++) {
        result = await ctx.em.transactional(async (tx) => {
          const inserted = await insertStoredIn(tx, {
            ...upload,
            datasetId,
            // its legacy location is known once the object is stored (clients download by it)
            storagePath: storedPath(this.store.name, datasetId, upload.filename),
            creatorId: ctx.userId,
          });
          if (inserted.length) {
            await this.deps.datasets.changeSizeIn(tx, datasetId, upload.size);
            await emitFileEvent(this.deps.events, tx, ctx, 'file.added', datasetId, inserted[0]);
            // the hooks' rows (the ingestion request) commit with the record or not at all
            await this.stored.recordedIn(tx, {
              uniqueId: upload.uniqueId,
              datasetId,
              creatorId: ctx.userId,
              ingestor,
              ingest,
            });
            return { row: inserted[0], created: true };
          }
          const existing = await storedRowsIn(tx, datasetId, upload.sha256);
          // null: the duplicate was deleted meanwhile, so try the insert again
          return existing.length ? { row: existing[0], created: false } : null;
        });
      }
      if (!result) throw new Error(`could not record file ${upload.uniqueId}: the dataset kept changing`);
    } catch (err) {
      await this.discard(ctx, upload.key);
      throw err;
    }
    // a dedup hit drops this upload's object (unless it is the very one on record: a repeated completion)
    if (!result.created && result.row.storage_key !== upload.key) await this.discard(ctx, upload.key);
    return { file: ctx.em.map(AssociatedFile, result.row), created: result.created, ingestor };
  }

  /**
   * Marks a stored file as ingested inside `tx`: a stored file recorded before storage paths
   * were set on storing gets its legacy `storage_path`, `<store name>/{dataset}/{filename}`
   * (see docs/files-and-storage.md); one already set is kept.
   */
  async recordIngestedIn(tx: EntityManager, uniqueId: string): Promise<void> {
    await rawQuery(
      tx,
      `update associated_file set storage_path = ? || '/' || dataset_mfid || '/' || filename, modification_time = now()
       where unique_id = ? and storage_key is not null and storage_path is null`,
      [this.store.name, uniqueId],
    );
  }

  /**
   * Records what the latest ingestion of a file read of its structure, inside ingestion's
   * transaction `tx`, replacing what an earlier run recorded (`recordStructureIn` of
   * structure-store.ts).
   */
  recordStructureIn(tx: EntityManager, file: StructureFile, found: StructureFound): Promise<void> {
    return recordStructureIn(tx, file, found);
  }

  /** The recorded structure of a file the caller has already been allowed to read (null when none). */
  async structureOf(em: EntityManager, fileId: string): Promise<FileStructure | null> {
    return em.findOne(FileStructure, { file: fileId });
  }

  /** Catalogues a remote file: a location only, never fetched, uploaded or verified (spec 1.7). */
  async addRemote(ctx: RequestContext, datasetId: string, input: RemoteFileInput): Promise<AssociatedFile> {
    const values = checkRemoteInput(input);
    const ds = await this.datasetForAdding(ctx, datasetId);
    const file = ctx.em.create(AssociatedFile, {
      uniqueId: newMfid(),
      dataset: ds,
      ...values,
      storageKey: null,
      creatorId: ctx.userId,
    });
    await ctx.em.transactional(async (tx) => {
      tx.persist(file);
      await tx.flush();
      await emitFileEvent(this.deps.events, tx, ctx, 'file.added', ds.uniqueId, {
        unique_id: file.uniqueId,
        filename: file.filename,
        size: file.size ?? null,
        sha256: file.sha256 ?? null,
        storage_path: file.storagePath ?? null,
      });
    });
    return file;
  }

  /** Changes a file record (e.g. its storage_path); a stored file keeps its bytes and backend. */
  async update(ctx: RequestContext, uniqueId: string, patch: FilePatch): Promise<AssociatedFile> {
    const file = await this.get(ctx, uniqueId);
    const ds = await this.deps.datasets.get(ctx, file.dataset.uniqueId);
    await this.policy.assertCanChange(ctx, ds, file);
    const snapshot = (): Record<string, unknown> => ({
      filename: file.filename,
      storage_path: file.storagePath,
      storage_backend: file.storageBackend,
      access_note: file.accessNote,
      size: file.size,
      sha256: file.sha256,
    });
    const before = snapshot();
    applyFilePatch(file, patch);
    const changes = fieldChanges(before, snapshot());
    await ctx.em.transactional(async (tx) => {
      tx.persist(file);
      if (Object.keys(changes).length === 0) return;
      const type =
        Object.keys(changes).length === 1 && 'storage_path' in changes
          ? 'file.storage_path_set'
          : 'file.updated';
      await emitFileEvent(this.deps.events, tx, ctx, type, ds.uniqueId, {
        unique_id: file.uniqueId,
        filename: file.filename,
        changes,
      });
    });
    return file;
  }

  /** Deletes a file irreversibly: the row (and the dataset's size) first, then the object. */
  async delete(ctx: RequestContext, uniqueId: string): Promise<AssociatedFile> {
    const file = await this.get(ctx, uniqueId);
    await this.policy.assertCanDelete(ctx, await this.deps.datasets.get(ctx, file.dataset.uniqueId));
    await this.remove(ctx, file);
    return file;
  }

  /** Takes back a file this request has just added (when the rest of the request fails). */
  async undoAdd(ctx: RequestContext, added: FileAdded): Promise<void> {
    if (added.created) await this.remove(ctx, added.file);
  }

  private async remove(ctx: RequestContext, file: AssociatedFile): Promise<void> {
    await ctx.em.transactional(async (tx) => {
      const gone = await rawQuery<{ size: number | null }>(
        tx,
        'delete from associated_file where unique_id = ? returning size',
        [file.uniqueId],
      );
      if (gone.length) {
        await emitFileEvent(this.deps.events, tx, ctx, 'file.removed', file.dataset.uniqueId, {
          unique_id: file.uniqueId,
          filename: file.filename,
        });
      }
      if (gone.length && file.storageKey) {
        await this.deps.datasets.changeSizeIn(tx, file.dataset.uniqueId, -(gone[0].size ?? 0));
      }
    });
    ctx.em.getUnitOfWork().unsetIdentity(file);
    if (file.storageKey) await this.discard(ctx, file.storageKey);
  }

  private async discard(ctx: RequestContext, key: string): Promise<void> {
    try {
      await this.store.delete(key);
    } catch (err) {
      ctx.log.warn({ err, key }, 'could not delete an object; it is orphaned');
    }
  }
}

/** The legacy `storage_path` of a stored file: `<store name>/{dataset}/{filename}`. */
export function storedPath(storeName: string, datasetId: string, filename: string): string {
  return `${storeName}/${datasetId}/${filename}`;
}
