import type { EntityManager } from '@mikro-orm/postgresql';
import { rawQuery } from '../../core/db/raw';
import type { AssociatedFile } from './file.entity';
import { boundStructure, type StructureTree } from './file-structure';
import { previewKind } from './file-preview';

/** The file whose structure is recorded. */
export type StructureFile = Pick<AssociatedFile, 'uniqueId' | 'filename' | 'contentType'>;

/** What a run found: the tree, the failure on an HDF5 file, or nothing (the run read no structure). */
export type StructureFound =
  { tree: StructureTree; ingestor: string } | { error: string; ingestor: string | null } | null;

/**
 * Writes `file_structure` for one file inside ingestion's transaction `tx` (the file module's
 * table: called through `FileService.recordStructureIn`), replacing what an earlier run recorded:
 * the tree bounded by file-structure.ts; `{ error }` when the run failed on an HDF5 file (its
 * preview then says so); null when the run read no structure (the row, if any, goes).
 */
export async function recordStructureIn(
  tx: EntityManager,
  file: StructureFile,
  found: StructureFound,
): Promise<void> {
  if (found && 'tree' in found) {
    const bounded = boundStructure(found.tree);
    await rawQuery(
      tx,
      `insert into file_structure (file_mfid, format, nodes, truncated, error, ingestor, recorded_at)
         values (?, ?, ?::jsonb, ?, null, ?, now())
         on conflict (file_mfid) do update set format = excluded.format, nodes = excluded.nodes,
           truncated = excluded.truncated, error = null, ingestor = excluded.ingestor, recorded_at = now()`,
      [file.uniqueId, bounded.format, JSON.stringify(bounded.nodes), bounded.truncated, found.ingestor],
    );
  } else if (found && previewKind(file) === 'hdf5') {
    await rawQuery(
      tx,
      `insert into file_structure (file_mfid, format, nodes, truncated, error, ingestor, recorded_at)
         values (?, 'hdf5', null, false, ?, ?, now())
         on conflict (file_mfid) do update set nodes = null, truncated = false, error = excluded.error,
           ingestor = excluded.ingestor, recorded_at = now()`,
      [file.uniqueId, found.error.slice(0, 4000), found.ingestor],
    );
  } else {
    await rawQuery(tx, 'delete from file_structure where file_mfid = ?', [file.uniqueId]);
  }
}
