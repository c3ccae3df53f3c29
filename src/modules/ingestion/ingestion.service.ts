import type { EntityManager } from '@mikro-orm/postgresql';
import { LockMode } from '@mikro-orm/core';
import type { RequestContext } from '../../core/context';
import { conflict, notFound } from '../../core/errors';
import { countRows, offsetRows, rowsBefore } from '../../core/db/page';
import { rawQuery } from '../../core/db/raw';
import { and, inList, sql, type Sql } from '../../core/db/sql';
import type { JobQueue } from '../../core/jobs/queue';
import { ingestorNames } from '../../ingestors/registry';
import type { DatasetService } from '../dataset/dataset.service';
import type { FileService } from '../file/file.service';
import { ingestorName } from '../file/filename';
import { AssociatedFile } from '../file/file.entity';
import { isMfid } from '../../core/ids';
import { FINAL_STATUSES, IngestionRequest } from './ingestion-request.entity';
import { checkPatch, type IngestionPatch } from './ingestion-patch';
import { parseRequestId } from './ingestion-ids';
import type { IngestionPolicy } from './ingestion.policy';
import type { EventService } from '../outbox/event.service';
import { emitIngestion } from './ingestion-events';

/** The queue ingestion jobs wait on (`{request_id, dataset_mfid}`). */
export const INGESTION_QUEUE = 'ingestion';

export interface IngestionFilter {
  datasetId?: string;
  fileId?: string;
}

export interface IngestionDeps {
  queue: JobQueue;
  files: FileService;
  datasets: DatasetService;
  policy: IngestionPolicy;
  events: EventService;
}

/** Only files held in the service's storage are ingested (spec 1.7): remote ones are a 409. */
function assertStored(file: AssociatedFile): void {
  if (!file.storageKey) {
    throw conflict(
      `file ${file.uniqueId} is a remote file (${file.storageBackend}): only files held in the service's storage are ingested`,
    );
  }
}

/** Requests joined to their dataset (aliases `r` and `d`). */
const REQUESTS = 'ingestion_request r join dataset d on d.unique_id = r.dataset_mfid';

/**
 * Ingestion requests (spec 1.3–1.7): recorded when a stored file is added (in the same
 * transaction) or asked for again, queued for the workers, readable by whoever may read the
 * dataset (who may: `IngestionPolicy`). Remote files are never ingested. Workers report progress through `update` (legacy
 * PATCH) when they run outside this service.
 */
export class IngestionService {
  constructor(private readonly deps: IngestionDeps) {}

  /** Every ingestor, by the name clients use. */
  ingestors(): string[] {
    return ingestorNames();
  }

  /**
   * Records a request for a stored file and queues it, inside `tx`: both commit with the
   * caller's rows or not at all. No permission check (the caller has made it).
   */
  async createIn(
    tx: EntityManager,
    file: { uniqueId: string; datasetId: string },
    ingestor: string | null,
    requesterId: string | null,
  ): Promise<IngestionRequest> {
    const request = tx.create(IngestionRequest, {
      fileMfid: file.uniqueId,
      dataset: file.datasetId,
      ingestionClass: ingestor,
      requesterId,
    });
    await tx.flush();
    await emitIngestion(this.deps.events, tx, {
      requestId: request.id,
      datasetId: file.datasetId,
      fileId: file.uniqueId,
      status: 'requested',
      actorId: requesterId,
    });
    await this.deps.queue.enqueue(tx, INGESTION_QUEUE, {
      request_id: request.id,
      dataset_mfid: file.datasetId,
    });
    return request;
  }

  /**
   * Asks for (another) ingestion of a stored file: needs `contribute` on its dataset. Remote
   * files are refused (409): only files held in the service's storage are ingested.
   *
   * A request for the file still waiting in the queue (`requested`) is joined rather than
   * doubled: the 3.1 client asks for ingestion right after every upload, which already queued
   * one. Joining sets the waiting request's ingestor when it had none; asking for a different
   * ingestor than the one it names queues a new request. The worker reads the ingestor when it
   * starts the request (one atomic update), so a joined ingestor is never missed.
   */
  async request(
    ctx: RequestContext,
    fileId: string,
    rawIngestor: unknown,
    field = 'ingestion_class',
  ): Promise<IngestionRequest> {
    const ingestor = ingestorName(rawIngestor, field);
    const file = await this.deps.files.get(ctx, fileId);
    const ds = await this.deps.datasets.get(ctx, file.dataset.uniqueId);
    await this.deps.policy.assertMayRequest(ctx, ds);
    assertStored(file);
    return ctx.em.transactional(async (tx) => {
      const waiting = await tx.findOne(
        IngestionRequest,
        { fileMfid: file.uniqueId, status: 'requested' },
        { orderBy: { id: 'desc' }, lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
      );
      if (
        waiting &&
        (ingestor === null || waiting.ingestionClass == null || waiting.ingestionClass === ingestor)
      ) {
        if (ingestor !== null) waiting.ingestionClass = ingestor;
        await tx.flush();
        return waiting;
      }
      return this.createIn(tx, { uniqueId: file.uniqueId, datasetId: ds.uniqueId }, ingestor, ctx.userId);
    });
  }

  /**
   * Records that the uploader of a file asked for no ingestion (`POST /files/{id}/ingest?status=
   * not_requested`, the 3.2 client's `skip_ingestion`): a request of status `not_requested`,
   * final at once and never queued, on a stored or a remote file alike (nothing is read). Needs
   * `contribute` on the dataset, as asking for an ingestion does. A request already waiting for
   * the file is left as it is: this one says what the uploader chose, it cancels nothing.
   */
  async recordNotRequested(ctx: RequestContext, fileId: string): Promise<IngestionRequest> {
    const file = await this.deps.files.get(ctx, fileId);
    const ds = await this.deps.datasets.get(ctx, file.dataset.uniqueId);
    await this.deps.policy.assertMayRequest(ctx, ds);
    return ctx.em.transactional(async (tx) => {
      const request = tx.create(IngestionRequest, {
        fileMfid: file.uniqueId,
        dataset: ds.uniqueId,
        requesterId: ctx.userId,
        status: 'not_requested',
        timeCompleted: new Date(),
      });
      await tx.flush();
      await emitIngestion(this.deps.events, tx, {
        requestId: request.id,
        datasetId: ds.uniqueId,
        fileId: file.uniqueId,
        status: 'not_requested',
        actorId: ctx.userId,
      });
      return request;
    });
  }

  /** `request` for an operator at the command line: no caller, no permission check. */
  async requestAsOperator(
    em: EntityManager,
    fileId: string,
    rawIngestor: unknown,
  ): Promise<IngestionRequest> {
    const ingestor = ingestorName(rawIngestor, 'ingestor');
    const file = isMfid(fileId) ? await em.findOne(AssociatedFile, { uniqueId: fileId }) : null;
    if (!file) throw notFound('File', fileId);
    assertStored(file);
    return em.transactional((tx) =>
      this.createIn(tx, { uniqueId: file.uniqueId, datasetId: file.dataset.uniqueId }, ingestor, null),
    );
  }

  /** A request on a dataset the caller may read; 404 otherwise. */
  async get(ctx: RequestContext, rawId: unknown): Promise<IngestionRequest> {
    const id = parseRequestId(rawId);
    const request = id ? await ctx.em.findOne(IngestionRequest, { id }) : null;
    if (!request) throw notFound('Ingestion request', String(rawId));
    try {
      await this.deps.datasets.get(ctx, request.dataset.uniqueId);
    } catch {
      throw notFound('Ingestion request', String(rawId));
    }
    return request;
  }

  private async where(ctx: RequestContext, f: IngestionFilter, alias = 'r'): Promise<Sql> {
    return and(
      f.datasetId !== undefined ? sql(`${alias}.dataset_mfid = ?`, f.datasetId) : null,
      f.fileId !== undefined ? sql(`${alias}.file_mfid = ?`, f.fileId) : null,
      await this.deps.policy.visibleWhere(ctx, 'd'),
    );
  }

  /** The requests of these ids on datasets the caller may read (as `get`), in one statement. */
  async readable(ctx: RequestContext, ids: readonly number[]): Promise<IngestionRequest[]> {
    if (!ids.length) return [];
    const where = and(inList('r.id', ids), await this.where(ctx, {}));
    const rows = await rawQuery<Record<string, unknown>>(
      ctx.em,
      `select r.* from ${REQUESTS} where ${where.sql}`,
      where.params,
    );
    return rows.map((row) => ctx.em.map(IngestionRequest, row));
  }

  /** Requests on datasets the caller may read, newest first, by offset (legacy lists). */
  async list(
    ctx: RequestContext,
    filter: IngestionFilter,
    page: { limit: number; offset: number },
  ): Promise<{ items: IngestionRequest[]; total: number }> {
    const where = await this.where(ctx, filter);
    return offsetRows(
      ctx.em,
      IngestionRequest,
      { select: 'r.*', from: REQUESTS, where, order: 'r.id desc' },
      page,
    );
  }

  /** Newest first after the request `before` (keyset by id, for GraphQL); one more than `limit` tells if more follow. */
  async page(
    ctx: RequestContext,
    filter: IngestionFilter,
    page: { limit: number; before?: number },
  ): Promise<IngestionRequest[]> {
    const where = await this.where(ctx, filter);
    return rowsBefore(ctx.em, IngestionRequest, { select: 'r.*', from: REQUESTS, where, key: 'r.id' }, page);
  }

  async count(ctx: RequestContext, filter: IngestionFilter): Promise<number> {
    return countRows(ctx.em, REQUESTS, await this.where(ctx, filter));
  }

  /**
   * A worker's report (legacy PATCH): platform admins, and service accounts on requests they
   * may read. Statuses move forward only: a final status may be repeated, never changed (409).
   * Reaching `complete` or `failed` marks the file as ingested, as the service's own worker does.
   */
  async update(
    ctx: RequestContext,
    rawId: unknown,
    input: Record<string, unknown>,
  ): Promise<IngestionRequest> {
    const id = parseRequestId(rawId);
    const patch: IngestionPatch = checkPatch(input, id);
    const found = await this.get(ctx, rawId);
    this.deps.policy.assertMayReport(ctx);
    return ctx.em.transactional(async (tx) => {
      const request = await tx.findOneOrFail(
        IngestionRequest,
        { id: found.id },
        { lockMode: LockMode.PESSIMISTIC_WRITE },
      );
      const status = patch.status ?? request.status;
      const previous = request.status;
      if (FINAL_STATUSES.has(request.status) && status !== request.status) {
        throw conflict(`ingestion request ${request.id} is already ${request.status}`);
      }
      if (status === 'requested' && request.status !== 'requested') {
        throw conflict(
          `ingestion request ${request.id} has already ${request.status}: it cannot go back to requested`,
        );
      }
      if (status === 'started' && (request.status !== 'started' || !request.timeStarted))
        request.timeStarted = new Date();
      if (FINAL_STATUSES.has(status))
        request.timeCompleted = patch.timeCompleted ?? request.timeCompleted ?? new Date();
      request.status = status;
      if (patch.ingestionGithash !== undefined) request.ingestionGithash = patch.ingestionGithash;
      if (patch.ingestionClass !== undefined) request.ingestorUsed = patch.ingestionClass;
      if (patch.errorMessage !== undefined) request.errorMessage = patch.errorMessage;
      await tx.flush();
      if (status !== previous) {
        await emitIngestion(this.deps.events, tx, {
          requestId: request.id,
          datasetId: request.dataset.uniqueId,
          fileId: request.fileMfid,
          status,
          actorId: ctx.userId,
          ingestor: request.ingestorUsed,
          error: request.errorMessage,
        });
      }
      if (status === 'complete' || status === 'failed')
        await this.deps.files.recordIngestedIn(tx, request.fileMfid);
      return request;
    });
  }
}
