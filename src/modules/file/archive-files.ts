import type { EntityManager } from '@mikro-orm/postgresql';
import { rawQuery } from '../../core/db/raw';

/** Stored files read per statement while an archive streams. */
export const ARCHIVE_BATCH = 1000;

/** What an archive needs of a file, as a plain row. */
export interface ArchiveRow {
  unique_id: string;
  filename: string;
  size: number | null;
  content_type: string | null;
  storage_key: string | null;
  storage_backend: string;
  storage_path: string | null;
}

/** A dataset's remote files (all) and its stored files (in batches, read as they are consumed). */
export interface ArchiveFiles {
  remote: ArchiveRow[];
  stored: AsyncIterable<ArchiveRow[]>;
}

const SELECT = `select unique_id, filename, size::float8 as size, content_type, storage_key, storage_backend, storage_path
  from associated_file where dataset_mfid = ?`;

/**
 * The files of the dataset `datasetMfid` (the caller has checked it may be read) as plain rows,
 * by MFID, without entities (a dataset may hold a hundred thousand files): its remote files at
 * once, for the archive's manifest (from the partial index `associated_file_remote_idx`), and
 * its stored files in keyset batches of `ARCHIVE_BATCH`, each read when the archive asks for it.
 */
export async function archiveFiles(em: EntityManager, datasetMfid: string): Promise<ArchiveFiles> {
  const remote = await rawQuery<ArchiveRow>(em, `${SELECT} and storage_key is null order by unique_id`, [
    datasetMfid,
  ]);
  async function* stored(): AsyncIterable<ArchiveRow[]> {
    let after = '';
    for (;;) {
      const rows = await rawQuery<ArchiveRow>(
        em,
        `${SELECT} and storage_key is not null and unique_id > ? order by unique_id limit ?`,
        [datasetMfid, after, ARCHIVE_BATCH],
      );
      if (rows.length > 0) yield rows;
      if (rows.length < ARCHIVE_BATCH) return;
      after = rows[rows.length - 1].unique_id;
    }
  }
  return { remote, stored: stored() };
}
