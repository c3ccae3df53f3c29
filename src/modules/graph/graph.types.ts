import { Extensions, Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { listCap } from '../../core/graphql/limits';
import { EdgeKindEnum, RelationshipTypeEnum } from '../link/link.types';

export enum GraphDirectionEnum {
  ancestors = 'ancestors',
  descendants = 'descendants',
  both = 'both',
}
registerEnumType(GraphDirectionEnum, {
  name: 'GraphDirection',
  description: 'Which way a traversal goes: to parents, to children, or both (the connected component).',
  valuesConfig: {
    ancestors: { description: 'Towards parents (and the samples a dataset was measured on).' },
    descendants: { description: 'Towards children (and the datasets measured on a sample).' },
    both: { description: 'Every link, either way: the connected component.' },
  },
});

export enum EntityTypeEnum {
  dataset = 'dataset',
  sample = 'sample',
}
registerEnumType(EntityTypeEnum, {
  name: 'EntityType',
  description: 'What a graph node is.',
  valuesConfig: { dataset: { description: 'A dataset.' }, sample: { description: 'A sample.' } },
});

@ObjectType({ description: 'A dataset or sample in an entity graph.' })
export class GraphNode {
  @Field(() => ID, { description: 'Its MFID.' })
  id!: string;

  @Field(() => EntityTypeEnum, { description: 'dataset or sample.' })
  type!: EntityTypeEnum;

  @Field(() => String, { nullable: true, description: 'Its name.' })
  name!: string | null;

  @Field(() => String, { nullable: true, description: 'Datasets: the measurement.' })
  measurement!: string | null;

  @Field(() => String, { nullable: true, description: 'Samples: the sample type.' })
  sampleType!: string | null;

  @Field(() => String, { nullable: true, description: 'Samples: the description.' })
  description!: string | null;

  @Field(() => String, { nullable: true, description: 'The MFID of its project, if any.' })
  projectMfid!: string | null;

  @Field(() => Int, { description: 'Steps from the focal node (0 for it, and in project graphs).' })
  depth!: number;
}

@ObjectType({ description: 'A link in an entity graph, from parent (source) to child (target).' })
export class GraphEdge {
  @Field(() => ID, { description: 'The parent (the sample, for sample_dataset).' })
  source!: string;

  @Field(() => ID, { description: 'The child.' })
  target!: string;

  @Field(() => EdgeKindEnum, { description: 'sample_sample, sample_dataset or dataset_dataset.' })
  kind!: EdgeKindEnum;

  @Field(() => RelationshipTypeEnum, { nullable: true, description: 'The typed relationship, if any.' })
  relationshipType!: RelationshipTypeEnum | null;
}

@ObjectType({ description: 'Datasets and samples with the links between them, as far as you may read.' })
export class EntityGraph {
  @Field(() => [GraphNode], {
    description: 'The nodes, nearest first (at most GRAPH_MAX_NODES, 5000 by default; see truncated).',
  })
  @Extensions(listCap({ size: 'graphMaxNodes' }))
  nodes!: GraphNode[];

  @Field(() => [GraphEdge], {
    description: 'The links whose two ends are both nodes (at most four times GRAPH_MAX_NODES).',
  })
  @Extensions(listCap({ size: 'graphMaxNodes', factor: 4 }))
  edges!: GraphEdge[];

  @Field({
    description:
      'Whether nodes or edges were left out at the caps (GRAPH_MAX_NODES nodes, 5000 by default, nearest first): narrow it with depth or direction, or page the records with the datasets and samples connections.',
  })
  truncated!: boolean;
}
