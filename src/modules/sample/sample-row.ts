import {
  joinProjections,
  ownedProjection,
  ownedRow,
  type OwnedRecordInclude,
  type OwnedRecordRow,
  type RawRow,
  type RecordReader,
} from '../owned-record/owned-record-row';

/** A sample as it is read (the read model, owned-record-row.ts): its columns and included relations. */
export interface SampleRow extends OwnedRecordRow {
  sampleName: string | null;
  sampleType: string | null;
  description: string | null;
  timestamp: string | null;
}

/** What a sample read includes besides the columns. */
export type SampleInclude = OwnedRecordInclude;

/** Whether `value` is a sample row (its mapping below always sets `sampleName`). */
export function isSampleRow(value: object): value is SampleRow {
  return 'sampleName' in value && 'uniqueId' in value;
}

/** How samples are read: the one projection of sample rows (alias `s`) and its rows. */
export const SAMPLE_ROWS: RecordReader<SampleRow, SampleInclude> = {
  table: 'sample',
  alias: 's',
  projection: (include) =>
    joinProjections(ownedProjection('s', include), {
      columns: 's.sample_name, s.sample_type, s.description, s.timestamp',
      joins: '',
    }),
  row: (raw: RawRow): SampleRow =>
    Object.assign(ownedRow(raw), {
      sampleName: raw.sample_name as string | null,
      sampleType: raw.sample_type as string | null,
      description: raw.description as string | null,
      timestamp: raw.timestamp as string | null,
    }),
};
