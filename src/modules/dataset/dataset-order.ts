import type { PageOrder } from '../../core/db/page';
import { columnPageOrder, type ColumnOrder, type SortColumn } from '../../core/db/column-order';

/** The columns a dataset list can be sorted by (`columnPageOrder`: keyset under the sort). */
export type DatasetOrderField =
  'creationTime' | 'modificationTime' | 'datasetName' | 'measurement' | 'dataType' | 'size';

/** The order of a dataset list: one column, then the MFID. */
export type DatasetOrder = ColumnOrder<DatasetOrderField>;

const COLUMNS: Record<DatasetOrderField, SortColumn> = {
  creationTime: { column: 'creation_time', type: 'timestamptz' },
  modificationTime: { column: 'modification_time', type: 'timestamptz' },
  datasetName: { column: 'dataset_name', type: 'text' },
  measurement: { column: 'measurement', type: 'text' },
  dataType: { column: 'data_type', type: 'text' },
  size: { column: 'size', type: 'bigint' },
};

/** The SQL order and keyset condition of a dataset page sorted by `order`, after `cursor`. */
export function datasetPageOrder(alias: string, order: DatasetOrder, cursor?: string): PageOrder {
  return columnPageOrder(alias, COLUMNS, order, cursor);
}
