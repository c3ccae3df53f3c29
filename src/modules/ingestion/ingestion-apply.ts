import type { EntityManager } from '@mikro-orm/postgresql';
import { rawQuery } from '../../core/db/raw';
import type { Extraction, ExtractedFields, Source } from '../../ingestors/ingestor';
import type { StructureTree } from '../file/file-structure';
import { toMetadata } from '../../ingestors/sanitize';
import type { DatasetService } from '../dataset/dataset.service';
import type { FileService } from '../file/file.service';
import type { KeywordService } from '../keyword/keyword.service';
import type { MetadataStore } from '../metadata-store/metadata-store';
import type { ThumbnailService } from '../thumbnail/thumbnail.service';
import type { EventService } from '../outbox/event.service';
import { emitIngestion } from './ingestion-events';
import type { AssociatedFile } from '../file/file.entity';
import { FINAL_STATUSES } from './ingestion-request.entity';

/** The services ingestion writes through. */
export interface ResultServices {
  files: FileService;
  datasets: DatasetService;
  metadata: MetadataStore;
  thumbnails: ThumbnailService;
  keywords: KeywordService;
  events: EventService;
}

/** Results ready to write: JSON-safe metadata, JPEG thumbnails, checked keywords. */
export interface PreparedResults {
  fields: ExtractedFields;
  metadata: Record<string, unknown>;
  thumbnails: { name: string; jpeg: Buffer }[];
  keywords: string[];
  /** the file's own structure, recorded per file (null: the run read none, and an earlier record goes) */
  structure: StructureTree | null;
}

/**
 * Everything that can fail because of the file's contents happens here, before the
 * transaction: metadata made JSON-safe, thumbnails converted to JPEG. An ingestor that found
 * anything also names the dataset after the file and gives the extension as its data format
 * (each only where the dataset has no value; the register-only ingestor finds nothing).
 */
export async function prepareResults(
  services: ResultServices,
  source: Source,
  extraction: Extraction,
): Promise<PreparedResults> {
  const found = Boolean(
    extraction.fields || extraction.metadata || extraction.thumbnails?.length || extraction.keywords?.length,
  );
  const defaults: ExtractedFields = found
    ? { datasetName: source.filename, ...(source.extension ? { dataFormat: source.extension } : {}) }
    : {};
  const thumbnails = [];
  for (const t of extraction.thumbnails ?? []) {
    const jpeg = t.stored === true ? t.image : await services.thumbnails.prepare(t.image);
    thumbnails.push({ name: t.name.slice(0, 255), jpeg });
  }
  const keywords = [];
  for (const k of extraction.keywords ?? []) {
    try {
      keywords.push(services.keywords.normalize(k));
    } catch {
      // an empty or oversized keyword is dropped, not a failure
    }
  }
  return {
    fields: { ...defaults, ...extraction.fields },
    metadata: extraction.metadata ? toMetadata(extraction.metadata) : {},
    thumbnails,
    keywords: [...new Set(keywords)],
    structure: extraction.structure ?? null,
  };
}

/**
 * Writes the results into the dataset and completes the request, in one transaction (all or
 * nothing), unless the request has meanwhile reached a final status (then nothing is written:
 * re-running a finished job changes nothing). The rules (spec 1.5): structured fields are only
 * filled where empty, so nothing set at creation (or since) is overwritten; metadata is
 * merged on top-level keys, a parsed key replacing the whole existing value of that key; thumbnails replace those of the same
 * name (a re-run does not duplicate them); keywords are added once; the file's own structure
 * replaces what an earlier run recorded for the file (or goes, when this run read none).
 */
export async function applyResults(
  services: ResultServices,
  em: EntityManager,
  requestId: number,
  file: AssociatedFile,
  ingestor: string,
  results: PreparedResults,
): Promise<void> {
  const datasetId = file.dataset.uniqueId;
  await em.transactional(async (tx) => {
    // completes the request first (its row lock is the guard against a concurrent run): a
    // request already final is left alone and nothing is written
    const open = await rawQuery<{ id: number }>(
      tx,
      `update ingestion_request set status = 'complete', ingestor_used = ?, error_message = null, time_completed = now()
       where id = ? and status not in (?) returning id`,
      [ingestor, requestId, [...FINAL_STATUSES]],
    );
    if (!open.length) return;
    const filled = await services.datasets.fillEmptyIn(tx, datasetId, results.fields);
    if (Object.keys(results.metadata).length) {
      await services.metadata.writeIn(tx, 'dataset', datasetId, 'merge', results.metadata);
    }
    for (const t of results.thumbnails) await services.thumbnails.replaceIn(tx, datasetId, t.name, t.jpeg);
    for (const k of results.keywords) await services.keywords.addIn(tx, datasetId, k);
    await services.files.recordStructureIn(
      tx,
      file,
      results.structure ? { tree: results.structure, ingestor } : null,
    );
    await services.files.recordIngestedIn(tx, file.uniqueId);
    await emitIngestion(services.events, tx, {
      requestId,
      datasetId,
      fileId: file.uniqueId,
      status: 'complete',
      actorId: null,
      ingestor,
      // one event for the whole ingestion: what it changed in the dataset
      details: {
        fields_filled: filled,
        metadata_keys: Object.keys(results.metadata),
        keywords: results.keywords,
        thumbnails: results.thumbnails.map((t) => t.name),
      },
    });
  });
}
