import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../../core/logger';
import { rawQuery } from '../../core/db/raw';
import type { EventService } from '../outbox/event.service';

/** A progress report is written once the file has advanced by this fraction since the last one. */
export const PROGRESS_STEP = 0.05;

export interface ProgressSettings {
  /** files smaller than this report no progress */
  minBytes: number;
  /** at most one report per this long */
  intervalMs: number;
}

/**
 * Records how far an ingestor has read a large file: `bytes_read`/`bytes_total` on the request
 * and an `ingestion.progress` event on its dataset, in one transaction per report. Reports are
 * throttled: at most one per `intervalMs` and per PROGRESS_STEP of the file (the end of the file
 * is always reported). The reader is never held up: a report made while the previous one is
 * still being written replaces any other waiting report, and a failed write is logged, not thrown.
 */
export class ProgressReporter {
  private lastAt = 0;
  private lastRead = 0;
  private waiting: { read: number; total: number } | null = null;
  private writing: Promise<void> | null = null;

  constructor(
    private readonly em: EntityManager,
    private readonly events: EventService,
    private readonly request: { id: number; datasetId: string; fileId: string },
    private readonly intervalMs: number,
    private readonly log: Logger,
  ) {}

  /** The source's progress listener. */
  readonly listener = (read: number, total: number): void => {
    const now = Date.now();
    const end = read >= total;
    if (!end && (now - this.lastAt < this.intervalMs || read - this.lastRead < total * PROGRESS_STEP)) return;
    this.lastAt = now;
    this.lastRead = read;
    this.waiting = { read, total };
    this.writing ??= this.writeWaiting().finally(() => {
      this.writing = null;
    });
  };

  /** Waits for the reports made so far to be written (before the final status is). */
  async settle(): Promise<void> {
    while (this.writing) await this.writing;
  }

  private async writeWaiting(): Promise<void> {
    while (this.waiting) {
      const report = this.waiting;
      this.waiting = null;
      try {
        await this.write(report.read, report.total);
      } catch (err) {
        this.log.warn({ err }, 'could not record ingestion progress');
      }
    }
  }

  private async write(read: number, total: number): Promise<void> {
    const { id, datasetId, fileId } = this.request;
    await this.em.fork().transactional(async (tx) => {
      const rows = await rawQuery(
        tx,
        `update ingestion_request set bytes_read = ?, bytes_total = ? where id = ? and status = 'started' returning id`,
        [read, total, id],
      );
      if (!rows.length) return;
      await this.events.emit(tx, {
        type: 'ingestion.progress',
        actorId: null,
        resourceId: datasetId,
        resourceType: 'dataset',
        payload: {
          request_id: id,
          file_id: fileId,
          status: 'started',
          bytes_read: read,
          bytes_total: total,
          percent: total > 0 ? Math.floor((read / total) * 100) : 100,
        },
      });
    });
  }
}
