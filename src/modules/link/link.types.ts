import { Field, ID, InputType, ObjectType, registerEnumType } from 'type-graphql';
import type { LinkRow } from './link.loaders';
import { RELATIONSHIP_ALIAS } from './relationship';

export enum RelationshipTypeEnum {
  is_derived_from = 'is_derived_from',
  is_part_of = 'is_part_of',
}
registerEnumType(RelationshipTypeEnum, {
  name: 'RelationshipType',
  description: 'The type of a parent/child link, read child relative to parent.',
  valuesConfig: {
    is_derived_from: {
      description: 'The child was derived from the parent (raw -> calibrated -> analyzed).',
    },
    is_part_of: { description: 'The child is a part of the parent.' },
  },
});

export enum LinkDirectionEnum {
  source = 'source',
  target = 'target',
  undirected = 'undirected',
}
registerEnumType(LinkDirectionEnum, {
  name: 'LinkDirection',
  description:
    'How a linked resource relates: source (it is the parent), target (it is the child), undirected (associated).',
  valuesConfig: {
    source: { description: 'The linked resource is the parent.' },
    target: { description: 'The linked resource is the child.' },
    undirected: { description: 'An association between a dataset and a sample.' },
  },
});

export enum LinkRelationshipEnum {
  parent = 'parent',
  child = 'child',
  associated = 'associated',
}
registerEnumType(LinkRelationshipEnum, {
  name: 'LinkRelationship',
  description: 'Compatibility alias of the direction: parent, child or associated.',
  valuesConfig: {
    parent: { description: 'The linked resource is a parent (direction source).' },
    child: { description: 'The linked resource is a child (direction target).' },
    associated: { description: 'A dataset-sample association (direction undirected).' },
  },
});

export enum EdgeKindEnum {
  dataset_dataset = 'dataset_dataset',
  sample_sample = 'sample_sample',
  sample_dataset = 'sample_dataset',
}
registerEnumType(EdgeKindEnum, {
  name: 'EdgeKind',
  description: 'The kind of a link: dataset to child dataset, sample to child sample, or sample to dataset.',
  valuesConfig: {
    dataset_dataset: { description: 'A dataset and a dataset derived from it.' },
    sample_sample: { description: 'A sample and a sample made from it.' },
    sample_dataset: { description: 'A sample and a dataset measured on it.' },
  },
});

@ObjectType({ description: 'A resource linked to the one whose links are listed (spec link object).' })
export class LinkedResource {
  @Field(() => ID, { description: 'The MFID of the linked resource.' })
  uniqueId!: string;

  @Field({ description: 'dataset or sample.' })
  resourceType!: string;

  @Field(() => String, { nullable: true, description: 'Its display name.' })
  name!: string | null;

  @Field(() => LinkDirectionEnum, { description: 'source: it is the parent; target: the child; undirected.' })
  direction!: LinkDirectionEnum;

  @Field(() => LinkRelationshipEnum, { description: 'parent, child or associated (alias of direction).' })
  relationship!: LinkRelationshipEnum;

  @Field(() => RelationshipTypeEnum, {
    nullable: true,
    description: 'The typed relationship, child relative to parent; null on associations and untyped links.',
  })
  relationshipType!: RelationshipTypeEnum | null;
}

/** A link row as the GraphQL link object. */
export function toLinked(row: LinkRow): LinkedResource {
  return {
    uniqueId: row.unique_id,
    resourceType: row.resource_type,
    name: row.name,
    direction: row.direction as LinkDirectionEnum,
    relationship: RELATIONSHIP_ALIAS[row.direction] as LinkRelationshipEnum,
    relationshipType: row.relationship_type as RelationshipTypeEnum | null,
  };
}

@ObjectType({ description: 'A link that was made or removed.' })
export class LinkResult {
  @Field(() => EdgeKindEnum, { description: 'What kind of link.' })
  kind!: EdgeKindEnum;

  @Field(() => ID, { description: 'The parent (the sample, for an association).' })
  parentId!: string;

  @Field({ description: 'dataset or sample.' })
  parentType!: string;

  @Field(() => ID, { description: 'The child (the dataset, for an association).' })
  childId!: string;

  @Field({ description: 'dataset or sample.' })
  childType!: string;

  @Field(() => RelationshipTypeEnum, { nullable: true, description: 'The typed relationship, if any.' })
  relationshipType!: RelationshipTypeEnum | null;
}

@InputType({ description: 'Two resources to link; their types decide the kind of link.' })
export class LinkResourcesInput {
  @Field(() => ID, { description: 'The parent (for a dataset and a sample: either one).' })
  parentId!: string;

  @Field(() => ID, { description: 'The child.' })
  childId!: string;

  @Field(() => RelationshipTypeEnum, {
    nullable: true,
    description: 'Only for two datasets or two samples: an error on a dataset-sample association.',
  })
  relationshipType?: RelationshipTypeEnum | null;
}
