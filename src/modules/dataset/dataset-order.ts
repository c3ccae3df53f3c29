import type { EntityManager } from '@mikro-orm/postgresql';
import type { PageOrder } from '../../core/db/page';
import type { Sql } from '../../core/db/sql';
import {
  columnAnchor,
  columnPageOrder,
  type ColumnAnchor,
  type ColumnOrder,
  type SortColumn,
} from '../../core/db/column-order';

/** The columns a dataset list can be sorted by (`columnPageOrder`: keyset under the sort). */
export type DatasetOrderField =
  'creationTime' | 'modificationTime' | 'datasetName' | 'measurement' | 'dataType' | 'size';

/** The order of a dataset list: one column, then the MFID. */
export type DatasetOrder = ColumnOrder<DatasetOrderField>;

const COLUMNS: Record<DatasetOrderField, SortColumn> = {
  creationTime: { column: 'creation_time', type: 'timestamptz', notNull: true },
  modificationTime: { column: 'modification_time', type: 'timestamptz', notNull: true },
  datasetName: { column: 'dataset_name', type: 'text' },
  measurement: { column: 'measurement', type: 'text' },
  dataType: { column: 'data_type', type: 'text' },
  size: { column: 'size', type: 'bigint', notNull: true },
};

/** The SQL order and keyset condition of a dataset page sorted by `order`, after `cursor`. */
export function datasetPageOrder(
  alias: string,
  order: DatasetOrder,
  cursor?: string,
  anchor?: ColumnAnchor,
): PageOrder {
  return columnPageOrder(alias, COLUMNS, order, cursor, anchor);
}

/** Where a dataset page sorted by `order` starts when it starts at `mfid` (`columnAnchor`). */
export function datasetAnchor(
  em: EntityManager,
  alias: string,
  where: Sql,
  order: DatasetOrder,
  mfid: string,
): Promise<ColumnAnchor> {
  return columnAnchor(em, 'dataset', alias, where, COLUMNS, order, mfid);
}
