import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../../core/logger';
import { rawQuery } from '../../core/db/raw';
import type { ClaimedJob } from '../../core/jobs/queue';
import { observeIngestion } from '../../core/metrics/registry';
import type { JobHandler } from '../../core/jobs/worker';
import type { ObjectStore } from '../../core/storage/object-store';
import type { Extraction, Ingestor } from '../../ingestors/ingestor';
import { detectIngestor, findIngestor } from '../../ingestors/registry';
import { StoredSource } from '../../ingestors/source';
import { AssociatedFile } from '../file/file.entity';
import type { IngestionStatus } from './ingestion-request.entity';
import { applyResults, prepareResults, type ResultServices } from './ingestion-apply';
import { emitIngestion } from './ingestion-events';
import { ProgressReporter, type ProgressSettings } from './ingestion-progress';

export interface RunnerDeps extends ResultServices {
  store: ObjectStore;
  log: Logger;
  tmpDir: string;
  timeoutMs: number;
  /** recorded as `ingestion_githash` */
  version: string | null;
  progress: ProgressSettings;
}

interface Outcome {
  status: IngestionStatus;
  ingestor?: string | null;
  error?: string | null;
  /** the file, when it is to be marked as ingested */
  file?: AssociatedFile;
  /** the results and the status are already recorded */
  applied?: boolean;
}

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new Error(`${what} did not finish within ${ms / 1000} s`));
    }, ms);
  });
  return Promise.race([work, timeout]).finally(() => {
    clearTimeout(timer);
  });
}

/**
 * Runs one ingestion job: marks the request `started`, finds the file and the ingestor (the
 * one named, else the first in scan order that supports the file), extracts, and applies the
 * results and the final status in one transaction. What the file does to the ingestor (a
 * damaged or unexpected file) ends the request `failed` with the reason at once; anything else
 * (the database, the store) throws, so the queue retries the job, and its dead letter ends the
 * request `failed`. A request already final is left alone, so a job that runs twice (its worker
 * died after finishing) changes nothing.
 */
export class IngestionRunner implements JobHandler {
  constructor(private readonly deps: RunnerDeps) {}

  async run(job: ClaimedJob, em: EntityManager): Promise<void> {
    const id = Number(job.payload.request_id);
    const started = await em.transactional(async (tx) => {
      const rows = await rawQuery<{
        file_mfid: string;
        dataset_mfid: string;
        ingestion_class: string | null;
      }>(
        tx,
        `update ingestion_request set status = 'started', time_started = now(), ingestion_githash = ?, error_message = null,
           bytes_read = null, bytes_total = null
         where id = ? and status in ('requested', 'started') returning file_mfid, dataset_mfid, ingestion_class`,
        [this.deps.version, id],
      );
      if (rows.length) {
        await emitIngestion(this.deps.events, tx, {
          requestId: id,
          datasetId: rows[0].dataset_mfid,
          fileId: rows[0].file_mfid,
          status: 'started',
          actorId: null,
        });
      }
      return rows;
    });
    if (!started.length) return;
    const { file_mfid: fileId, dataset_mfid: datasetId, ingestion_class: named } = started[0];
    const log = this.deps.log.child({ ingestion: id, file: fileId });
    const began = process.hrtime.bigint();
    try {
      const outcome = await this.ingest(em, { id, datasetId, fileId }, named, log);
      if (!outcome.applied) await this.finish(em, id, outcome);
      observeIngestion(outcome.ingestor ?? 'none', outcome.status, began);
    } catch (err) {
      observeIngestion('unknown', 'error', began);
      throw err;
    }
  }

  async deadLetter(job: ClaimedJob, reason: string, em: EntityManager): Promise<void> {
    await this.finish(em, Number(job.payload.request_id), { status: 'failed', error: reason });
  }

  /** Returns the outcome to record, or the one already recorded with the results (`applied`). */
  private async ingest(
    em: EntityManager,
    request: { id: number; datasetId: string; fileId: string },
    named: string | null,
    log: Logger,
  ): Promise<Outcome> {
    const { id, fileId } = request;
    const file = await em.findOne(AssociatedFile, { uniqueId: fileId });
    if (!file) return { status: 'file not found', error: `file ${fileId} no longer exists` };
    if (!file.storageKey) return { status: 'failed', error: 'remote files are not ingested' };
    const info = await this.deps.store.head(file.storageKey);
    if (!info)
      return {
        status: 'file not found',
        error: `the contents of file ${fileId} are missing from the storage`,
      };
    const source = new StoredSource(
      this.deps.store,
      file.storageKey,
      file.filename,
      info.size,
      this.deps.tmpDir,
    );
    const { progress } = this.deps;
    const reporter =
      info.size >= progress.minBytes && info.size > 0
        ? new ProgressReporter(em, this.deps.events, request, progress.intervalMs, log)
        : null;
    source.onProgress(reporter?.listener ?? null);
    try {
      let ingestor: Ingestor | null;
      if (named) {
        ingestor = findIngestor(named) ?? null;
        if (!ingestor) return { status: 'failed', error: `unknown ingestor ${named}` };
      } else {
        try {
          ingestor = await withTimeout(
            detectIngestor(source, (name, err) => {
              log.warn({ err, ingestor: name }, 'supports() failed');
            }),
            this.deps.timeoutMs,
            'choosing an ingestor',
          );
        } catch (err) {
          return { status: 'failed', error: err instanceof Error ? err.message : String(err), file };
        }
        if (!ingestor) return { status: 'not supported', error: null };
      }
      let results;
      try {
        const extraction: Extraction = await withTimeout(
          ingestor.extract(source),
          this.deps.timeoutMs,
          ingestor.name,
        );
        results = await prepareResults(this.deps, source, extraction);
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        log.info({ err, ingestor: ingestor.name }, 'ingestion failed on the file');
        return { status: 'failed', ingestor: ingestor.name, error: `${ingestor.name}: ${message}`, file };
      }
      // the progress of the reading is recorded before what it led to
      source.onProgress(null);
      await reporter?.settle();
      await applyResults(this.deps, em, id, file, ingestor.name, results);
      log.info({ ingestor: ingestor.name }, 'ingested');
      return { status: 'complete', ingestor: ingestor.name, applied: true };
    } finally {
      source.onProgress(null);
      await reporter?.settle();
      await source.dispose();
    }
  }

  /** Records a final status unless the request is already final; `complete`/`failed` mark the file ingested. */
  private async finish(em: EntityManager, id: number, outcome: Outcome): Promise<void> {
    await em.transactional(async (tx) => {
      const updated = await rawQuery<{
        file_mfid: string;
        dataset_mfid: string;
        ingestor_used: string | null;
      }>(
        tx,
        `update ingestion_request set status = ?, ingestor_used = coalesce(?, ingestor_used),
           error_message = ?, time_completed = now()
         where id = ? and status in ('requested', 'started') returning file_mfid, dataset_mfid, ingestor_used`,
        [outcome.status, outcome.ingestor ?? null, outcome.error?.slice(0, 4000) ?? null, id],
      );
      if (updated.length) {
        await emitIngestion(this.deps.events, tx, {
          requestId: id,
          datasetId: updated[0].dataset_mfid,
          fileId: updated[0].file_mfid,
          status: outcome.status,
          actorId: null,
          ingestor: updated[0].ingestor_used,
          error: outcome.error ?? null,
        });
      }
      if (updated.length && outcome.file) {
        // a failed run on an HDF5 file replaces its recorded structure with the reason (its preview says so)
        if (outcome.status === 'failed') {
          await this.deps.files.recordStructureIn(tx, outcome.file, {
            error: outcome.error ?? 'ingestion failed',
            ingestor: outcome.ingestor ?? null,
          });
        }
        await this.deps.files.recordIngestedIn(tx, outcome.file.uniqueId);
      }
    });
  }
}
