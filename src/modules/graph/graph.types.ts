import { PageInfo } from '../../core/graphql/connection';
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
    description:
      'The nodes of this page, nearest first (depth, then type, then id; at most `first`, by default and at most GRAPH_MAX_NODES, 5000 by default; see pageInfo).',
  })
  @Extensions(listCap({ size: 'graphMaxNodes' }))
  nodes!: GraphNode[];

  @Field(() => [GraphEdge], {
    description:
      'The links with one end on this page and the other on it or on an earlier page (at most four per node of the page). On a first page: the links between its nodes. Paging through a graph yields each link once, never before both of its ends.',
  })
  @Extensions(listCap({ size: 'graphMaxNodes', factor: 4 }))
  edges!: GraphEdge[];

  @Field({
    description:
      'Whether anything was left out of this response: nodes on later pages (pageInfo.hasNextPage), nodes beyond the walk bound (eight rows per GRAPH_MAX_NODES; narrow it with depth or direction), or links beyond four per node.',
  })
  truncated!: boolean;

  @Field(() => PageInfo, {
    description: 'Whether more nodes follow and the cursor to pass as `after` for them (endCursor).',
  })
  pageInfo!: PageInfo;
}
