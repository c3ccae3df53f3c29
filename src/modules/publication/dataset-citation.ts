import type { RequestContext } from '../../core/context';
import { rawQuery } from '../../core/db/raw';
import { notFound, validationError } from '../../core/errors';
import { isMfid } from '../../core/ids';
import type { DatasetRow } from '../dataset/dataset-row';
import type { DatasetService } from '../dataset/dataset.service';
import type { FileService } from '../file/file.service';
import { notHiddenByDeletion } from '../permission/deletion-visibility';
import type { CitationRecord } from './citation-record';
import { roCrate, schemaOrg } from './citation-formats';
import { EXPORT_FORMATS } from './citation-export';

/** The most files a dataset's export lists (as a publication's manifest: 422 beyond). */
export const DATASET_EXPORT_MAX_FILES = 100_000;

/** The formats a dataset is exported in (docs/publications.md, "Datasets in schema.org and RO-Crate"). */
export const DATASET_EXPORT_FORMATS = ['schema-org', 'ro-crate'] as const;
export type DatasetExportFormat = (typeof DATASET_EXPORT_FORMATS)[number];

/** What a dataset's record says of its license: none was ever stated (SPDX's NOASSERTION). */
export const NO_LICENSE = {
  id: 'NOASSERTION',
  name: 'No license stated: ask the dataset’s owner before reuse',
  url: '#license',
};

/**
 * The dataset when the caller may read it, 404 otherwise (as for an id nothing has). An
 * anonymous caller reads a public dataset that no pending or approved deletion request hides
 * (what every signed-in stranger reads); a signed-in caller reads what the catalog lets them.
 */
async function readableDataset(
  ctx: RequestContext,
  datasets: DatasetService,
  id: string,
): Promise<DatasetRow> {
  if (ctx.isAuthenticated) return datasets.read(ctx, id, { keywords: true });
  if (!isMfid(id)) throw notFound('Dataset', id);
  const hidden = notHiddenByDeletion('d.unique_id');
  const open = await rawQuery<{ id: string }>(
    ctx.em,
    `select d.unique_id as id from dataset d where d.unique_id = ? and d.public and ${hidden.sql}`,
    [id, ...hidden.params],
  );
  if (open.length === 0) throw notFound('Dataset', id);
  const row = (await datasets.reread(ctx, id, { keywords: true })) as DatasetRow | undefined;
  if (!row) throw notFound('Dataset', id);
  return row;
}

/** What the dataset is, in words, from the columns it has (a dataset carries no description). */
function describe(row: DatasetRow, files: number): string {
  const facts = [
    row.measurement ? `measurement ${row.measurement}` : null,
    row.dataType ? `data type ${row.dataType}` : null,
    row.dataFormat ? `format ${row.dataFormat}` : null,
    row.sessionName ? `session ${row.sessionName}` : null,
    row.timestamp ? `taken ${row.timestamp}` : null,
  ].filter(Boolean);
  return (
    `Dataset ${row.datasetName ?? row.uniqueId} of the catalog` +
    (facts.length ? ` (${facts.join(', ')})` : '') +
    `, with ${files} ${files === 1 ? 'file' : 'files'}.`
  );
}

/**
 * The citation record of a dataset (the one mapping publications are exported with): its name,
 * its current files with a SHA-256 (remote files without one are left out), its keywords, the
 * publisher as its creator, its creation day as its date, and no license (NOASSERTION).
 */
export async function datasetCitation(
  ctx: RequestContext,
  deps: { datasets: DatasetService; files: FileService; baseUrl: string; publisher: string },
  id: string,
): Promise<CitationRecord> {
  const row = await readableDataset(ctx, deps.datasets, id);
  const rows = await deps.files.filesOfIn(ctx.em, [row.uniqueId], DATASET_EXPORT_MAX_FILES + 1);
  if (rows.length > DATASET_EXPORT_MAX_FILES)
    throw validationError(
      'id',
      `the dataset holds more than ${DATASET_EXPORT_MAX_FILES} files: too many to export`,
    );
  const files = rows
    .filter((f) => f.sha256 && f.size !== null)
    .map((f) => ({
      name: f.name,
      size: f.size ?? 0,
      sha256: f.sha256 ?? '',
      url: `${deps.baseUrl}/api/v2/files/${f.fileId}/download`,
    }));
  const url = `${deps.baseUrl}/datasets/${row.uniqueId}`;
  return {
    id: row.uniqueId,
    state: 'published',
    url,
    doi: null,
    citeAs: url,
    title: row.datasetName ?? row.uniqueId,
    description: describe(row, files.length),
    creators: [{ name: deps.publisher, orcid: null, affiliations: [], familyName: null, givenName: null }],
    publisher: deps.publisher,
    year: String(row.creationTime.getUTCFullYear()),
    datePublished: row.creationTime.toISOString().slice(0, 10),
    license: NO_LICENSE,
    keywords: row.keywords ?? [],
    funding: [],
    relatedIdentifiers: [],
    version: null,
    datasets: [{ id: row.uniqueId, name: row.datasetName }],
    files,
    totalBytes: files.reduce((n, f) => n + f.size, 0),
    withdrawalReason: null,
    // only the DataCite forms say when an embargo ends, and a dataset is exported as schema.org or
    // RO-Crate alone (their download URLs are closed while it lasts: docs/access-control.md)
    embargoUntil: null,
  };
}

/**
 * A dataset's record rendered as schema.org (without `license`: none is known) or RO-Crate
 * (whose root must name a license: a contextual entity saying none was stated).
 */
export function renderDataset(
  record: CitationRecord,
  format: DatasetExportFormat,
): { mediaType: string; body: string } {
  if (format === 'schema-org') {
    const doc = schemaOrg(record);
    delete doc.license;
    return { mediaType: EXPORT_FORMATS['schema-org'].mediaType, body: JSON.stringify(doc, null, 2) };
  }
  return { mediaType: EXPORT_FORMATS['ro-crate'].mediaType, body: JSON.stringify(roCrate(record), null, 2) };
}
