import { embargoedSql } from '../../core/db/embargo-sql';
import { DATASET_MAX_KEYWORDS } from './dataset.fields';
import {
  joinProjections,
  lateral,
  ownedProjection,
  ownedRow,
  type OwnedRecordInclude,
  type OwnedRecordRow,
  type RawRow,
  type RecordReader,
} from '../owned-record/owned-record-row';

/** How a dataset relates to the project a list's filter names. */
export type ProjectRelation = 'assigned' | 'shared';

/** The registered instrument as dataset rows carry it. */
export interface InstrumentRow {
  uniqueId: string;
  instrumentId: string;
  instrumentName: string;
}

/** The first thumbnail as dataset rows carry it (no image bytes: the thumbnail's resolver fetches them by id). */
export interface ThumbnailRow {
  id: number;
  thumbnailName: string;
  mimeType: string;
  dataset: { uniqueId: string };
}

/**
 * A dataset as it is read (the read model, owned-record-row.ts): its columns and, when the
 * include set asked for them, its relations. The display values of legacy records (the project
 * slug, instrument slug and name of a record whose relationship could not be resolved) are
 * resolved here, by the projection, and nowhere else.
 */
export interface DatasetRow extends OwnedRecordRow {
  datasetName: string | null;
  measurement: string | null;
  dataType: string | null;
  dataFormat: string | null;
  sessionName: string | null;
  timestamp: string | null;
  size: number;
  instrumentMfid: string | null;
  /** with `instrument`: the registered instrument */
  instrument?: InstrumentRow | null;
  /** with `instrument`: its slug, or a legacy record's display value */
  instrumentId?: string | null;
  /** with `instrument`: its name, or a legacy record's display value */
  instrumentName?: string | null;
  /** with `keywords`: at most DATASET_MAX_KEYWORDS, by text */
  keywords?: string[];
  /** with `firstThumbnail`: the thumbnail of the lowest id */
  firstThumbnail?: ThumbnailRow | null;
  /** read with `firstThumbnail`: whether an embargo holds the dataset's bytes now (for callers without a role) */
  thumbnailEmbargoed?: boolean;
  /** with `fileCount`: how many files it has */
  fileCount?: number;
  /** in a list whose filter names a project: how the dataset relates to it */
  projectRelation?: ProjectRelation | null;
}

/** What a dataset read includes besides the columns. */
export interface DatasetInclude extends OwnedRecordInclude {
  instrument?: boolean;
  keywords?: boolean;
  firstThumbnail?: boolean;
  fileCount?: boolean;
}

/** Whether `value` is a dataset row (its mapping below always sets `datasetName`). */
export function isDatasetRow(value: object): value is DatasetRow {
  return 'datasetName' in value && 'uniqueId' in value;
}

/** The dataset's own part of the projection over `d`. */
function ownProjection(include: DatasetInclude) {
  const columns = [
    'd.dataset_name, d.measurement, d.data_type, d.data_format, d.session_name, d.timestamp',
    // bigint: a number (exact up to 2^53, as SafeInt and the legacy wire write it)
    'd.size::float8 as size, d.instrument_mfid',
  ];
  const joins: string[] = [];
  if (include.instrument) {
    // plain columns, as the project's (owned-record-row.ts); the display values of a legacy record
    columns.push(`_i.unique_id as _instrument_mfid, _i.instrument_id as _instrument_slug,
      _i.instrument_name as _instrument_label, coalesce(_i.instrument_id, d.legacy_instrument_id) as _instrument_id,
      coalesce(_i.instrument_name, d.legacy_instrument_name) as _instrument_name`);
    joins.push(
      lateral('_i', 'instrument', 'd.instrument_mfid', 't.unique_id, t.instrument_id, t.instrument_name'),
    );
  }
  if (include.keywords) {
    columns.push(`array(select k.text from dataset_keyword dk join keyword k on k.id = dk.keyword_id
      where dk.dataset_mfid = d.unique_id order by k.text limit ${DATASET_MAX_KEYWORDS}) as _keywords`);
  }
  if (include.firstThumbnail) {
    // whether an embargo holds the dataset's bytes now (for anyone: who is exempt is asked only then)
    columns.push(`(select json_build_object('id', t.id, 'thumbnailName', t.thumbnail_name, 'mimeType', t.mime_type,
        'embargoed', ${embargoedSql('d')})
      from thumbnail t where t.dataset_mfid = d.unique_id order by t.id limit 1) as _thumbnail`);
  }
  if (include.fileCount) {
    columns.push(
      '(select count(*)::int from associated_file f where f.dataset_mfid = d.unique_id) as _files',
    );
  }
  return { columns: columns.join(', '), joins: joins.join(' ') };
}

/** How datasets are read: the one projection of dataset rows (alias `d`) and its rows. */
export const DATASET_ROWS: RecordReader<DatasetRow, DatasetInclude> = {
  table: 'dataset',
  alias: 'd',
  projection: (include) =>
    joinProjections(ownedProjection('d', include, 'd.legacy_project_id'), ownProjection(include)),
  row(raw: RawRow): DatasetRow {
    // Object.assign: a spread followed by more properties costs microseconds a row in V8
    const row: DatasetRow = Object.assign(ownedRow(raw), {
      datasetName: raw.dataset_name as string | null,
      measurement: raw.measurement as string | null,
      dataType: raw.data_type as string | null,
      dataFormat: raw.data_format as string | null,
      sessionName: raw.session_name as string | null,
      timestamp: raw.timestamp as string | null,
      size: raw.size as number,
      instrumentMfid: raw.instrument_mfid as string | null,
    });
    if (raw._instrument_mfid !== undefined) {
      const uniqueId = raw._instrument_mfid as string | null;
      row.instrument =
        uniqueId === null
          ? null
          : {
              uniqueId,
              instrumentId: raw._instrument_slug as string,
              instrumentName: raw._instrument_label as string,
            };
      row.instrumentId = raw._instrument_id as string | null;
      row.instrumentName = raw._instrument_name as string | null;
    }
    if (raw._keywords !== undefined) row.keywords = raw._keywords as string[];
    if (raw._thumbnail !== undefined) {
      const t = raw._thumbnail as (ThumbnailRow & { embargoed?: boolean }) | null;
      if (t) {
        t.dataset = { uniqueId: row.uniqueId };
        row.thumbnailEmbargoed = t.embargoed === true;
        delete t.embargoed;
      }
      row.firstThumbnail = t;
    }
    if (raw._files !== undefined) row.fileCount = raw._files as number;
    return row;
  },
};
