import type { EntityManager } from '@mikro-orm/postgresql';
import { rawQuery } from '../../core/db/raw';
import type { Publication, ManifestDataset, PublicationState } from './publication.entity';

/** A record's row: the publication, its datestamp, its sets and its neighbours' DOIs. */
export interface RecordRow {
  unique_id: string;
  state: PublicationState;
  metadata: Publication['metadata'];
  dataset_ids: string[];
  manifest: ManifestDataset[] | null;
  doi: string | null;
  published_at: Date | string | null;
  withdrawn_at: Date | string | null;
  withdrawal_reason: string | null;
  previous_version_id: string | null;
  creation_time: Date | string;
  datestamp: Date | string;
  next_id: string | null;
  next_doi: string | null;
  prev_doi: string | null;
  sets: string;
}

/**
 * A record's datestamp: the last change of anything its metadata shows, to the second. Its own
 * row (publishing, withdrawal, a DOI), and its neighbours' (a next version published links it
 * `IsPreviousVersionOf`; a DOI of either changes the link).
 */
const DATESTAMP = `date_trunc('second', greatest(p.modification_time, n.modification_time, pv.modification_time))`;
const RECORDS_FROM = `from publication p
  left join publication n on n.previous_version_id = p.unique_id and n.state <> 'draft'
  left join publication pv on pv.unique_id = p.previous_version_id`;

export interface RecordFilter {
  after?: string;
  id?: string;
  set?: string | null;
  from?: string | null;
  until?: string | null;
}

function where(f: RecordFilter): { sql: string; params: unknown[] } {
  const terms = [`p.state in ('published', 'withdrawn')`];
  const params: unknown[] = [];
  if (f.id !== undefined) {
    terms.push('p.unique_id = ?');
    params.push(f.id);
  }
  if (f.after !== undefined) {
    terms.push('p.unique_id > ?');
    params.push(f.after);
  }
  if (f.from) {
    terms.push(`${DATESTAMP} >= ?`);
    params.push(f.from);
  }
  if (f.until) {
    terms.push(`${DATESTAMP} <= ?`);
    params.push(f.until);
  }
  if (f.set) {
    terms.push(
      'exists (select 1 from publication_set s where s.publication_id = p.unique_id and s.project_mfid = ?)',
    );
    params.push(f.set);
  }
  return { sql: terms.join(' and '), params };
}

/**
 * The harvestable records (published and withdrawn publications) of a filter, in the order of
 * their ids, at most `limit`; the manifest is read only when the metadata format shows it.
 */
export async function recordRows(
  em: EntityManager,
  f: RecordFilter,
  limit: number,
  withManifest: boolean,
): Promise<RecordRow[]> {
  const w = where(f);
  return rawQuery<RecordRow>(
    em,
    `select p.unique_id, p.state, p.metadata, p.dataset_ids, ${withManifest ? 'p.manifest' : 'null as manifest'},
       p.doi, p.published_at, p.withdrawn_at, p.withdrawal_reason, p.previous_version_id, p.creation_time,
       ${DATESTAMP} as datestamp, n.unique_id as next_id, n.doi as next_doi, pv.doi as prev_doi,
       (select coalesce(string_agg(s.project_mfid, ',' order by s.project_mfid), '')
          from publication_set s where s.publication_id = p.unique_id) as sets
     ${RECORDS_FROM} where ${w.sql} order by p.unique_id limit ?`,
    [...w.params, limit],
  );
}

/** How many harvestable records a filter matches (joining the neighbours only for dates). */
export async function countRecords(em: EntityManager, f: RecordFilter): Promise<number> {
  const w = where(f);
  const needsJoins = Boolean(f.from ?? f.until);
  const [row] = await rawQuery<{ n: number }>(
    em,
    `select count(*)::int as n ${needsJoins ? RECORDS_FROM : 'from publication p'} where ${w.sql}`,
    w.params,
  );
  return row.n;
}

/**
 * Records the OAI-PMH sets of a publication being published, in its publishing transaction: the
 * projects its datasets are in now (they never change after; publication-set.entity.ts).
 */
export async function recordSetsIn(
  tx: EntityManager,
  publicationId: string,
  datasetIds: readonly string[],
): Promise<void> {
  if (!datasetIds.length) return;
  await rawQuery(
    tx,
    `insert into publication_set (publication_id, project_mfid)
     select distinct ?, project_mfid from dataset where unique_id in (${datasetIds.map(() => '?').join(', ')})
       and project_mfid is not null
     on conflict do nothing`,
    [publicationId, ...datasetIds],
  );
}
