import { Entity, OneToOne, PrimaryKeyProp, Property, type Rel } from '@mikro-orm/core';
import { AssociatedFile } from './file.entity';
import type { StructureNode } from './file-structure';

/**
 * The structure of one file as its last ingestion read it (an HDF5 file's groups, datasets,
 * shapes, types and attributes), or why that ingestion failed (`error`). A side table keyed by
 * the file, not a column of `associated_file`: file pages and lists never carry it, only HDF5
 * files have a row, and the row goes with the file (`on delete cascade`). Written by
 * `recordStructureIn` of structure-store.ts (through `FileService.recordStructureIn`) alone, inside ingestion's transaction: a run replaces the row.
 * Bounded by src/modules/file/file-structure.ts (docs/web-app.md, "Previews").
 */
@Entity({ tableName: 'file_structure' })
export class FileStructure {
  [PrimaryKeyProp]?: 'file';

  @OneToOne(() => AssociatedFile, {
    primary: true,
    owner: true,
    fieldName: 'file_mfid',
    deleteRule: 'cascade',
  })
  file!: Rel<AssociatedFile>;

  /** `hdf5` */
  @Property({ length: 16 })
  format!: string;

  /** the nodes in tree order; null when the ingestion failed */
  @Property({ type: 'jsonb', nullable: true })
  nodes?: StructureNode[] | null;

  /** something was left out (the limits of file-structure.ts, or the reader's own) */
  @Property({ default: false })
  truncated: boolean = false;

  /** the last ingestion of the file failed: why */
  @Property({ type: 'text', nullable: true })
  error?: string | null;

  /** the ingestor that read it */
  @Property({ length: 100, nullable: true })
  ingestor?: string | null;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  recordedAt: Date = new Date();
}
