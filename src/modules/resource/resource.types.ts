import { createUnionType, registerEnumType } from 'type-graphql';
import { Dataset } from '../dataset/dataset.entity';
import { Sample } from '../sample/sample.entity';
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
  types: () => [Dataset, Sample, Project, Instrument] as const,
  resolveType: (value) => {
    if (value instanceof Dataset) return Dataset;
    if (value instanceof Sample) return Sample;
    if (value instanceof Project) return Project;
    if (value instanceof Instrument) return Instrument;
    return undefined;
  },
});
