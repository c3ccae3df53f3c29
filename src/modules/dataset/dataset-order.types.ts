import { Field, InputType, registerEnumType } from 'type-graphql';
import type { DatasetOrder, DatasetOrderField as OrderField } from './dataset-order';

/** The columns a dataset list can be sorted by (`DatasetOrderField`). */
export const DatasetOrderField: { [F in OrderField]: F } = {
  creationTime: 'creationTime',
  modificationTime: 'modificationTime',
  datasetName: 'datasetName',
  measurement: 'measurement',
  dataType: 'dataType',
  size: 'size',
};
registerEnumType(DatasetOrderField, {
  name: 'DatasetOrderField',
  description: 'A column a dataset list can be sorted by.',
  valuesConfig: {
    creationTime: { description: 'When the record was created.' },
    modificationTime: { description: 'When the record was last changed.' },
    datasetName: { description: 'The name, without regard to case.' },
    measurement: { description: 'The measurement, without regard to case.' },
    dataType: { description: 'The data type, without regard to case.' },
    size: { description: "The total size of the dataset's stored files." },
  },
});

const SortDirection: { [D in DatasetOrder['direction']]: D } = { asc: 'asc', desc: 'desc' };
registerEnumType(SortDirection, {
  name: 'SortDirection',
  description: 'Ascending or descending.',
  valuesConfig: {
    asc: { description: 'Smallest (or earliest, or A) first.' },
    desc: { description: 'Largest (or latest, or Z) first.' },
  },
});

@InputType({
  description:
    'The order of a dataset list: one column, then the MFID; records without a value come last in both directions.',
})
export class DatasetOrderInput {
  @Field(() => DatasetOrderField, { description: 'The column.' })
  field!: OrderField;

  @Field(() => SortDirection, {
    defaultValue: SortDirection.asc,
    description: 'The direction (default asc).',
  })
  direction: DatasetOrder['direction'] = SortDirection.asc;
}

/** The service's order of a list (`orderBy`). */
export function toDatasetOrder(input: DatasetOrderInput): DatasetOrder {
  return { field: input.field, direction: input.direction };
}
