import { createUnionType, registerEnumType } from 'type-graphql';
import { isDatasetRow } from '../dataset/dataset-row';
import { DatasetType } from '../dataset/dataset.types';
import { isSampleRow } from '../sample/sample-row';
import { SampleType } from '../sample/sample.types';
import { Project } from '../project/project.entity';
import { Instrument } from '../instrument/instrument.entity';

export enum ResourceTypeEnum {
  dataset = 'dataset',
  sample = 'sample',
  project = 'project',
  instrument = 'instrument',
}
registerEnumType(ResourceTypeEnum, {
  name: 'ResourceType',
  description: 'The type of a catalog resource.',
  valuesConfig: {
    dataset: { description: 'A dataset.' },
    sample: { description: 'A sample.' },
    project: { description: 'A project.' },
    instrument: { description: 'An instrument.' },
  },
});

export const ResourceUnion = createUnionType({
  name: 'Resource',
  description: 'Any catalog resource addressed by MFID.',
  types: () => [DatasetType, SampleType, Project, Instrument] as const,
  // datasets and samples are rows (plain objects), projects and instruments entities
  resolveType: (value) => {
    if (value instanceof Project) return Project;
    if (value instanceof Instrument) return Instrument;
    if (isDatasetRow(value)) return DatasetType;
    if (isSampleRow(value)) return SampleType;
    return undefined;
  },
});
