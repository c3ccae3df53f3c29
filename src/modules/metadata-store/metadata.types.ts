import { Field, Float, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { GraphQLJSON, GraphQLJSONObject } from 'graphql-scalars';
import { METADATA_OPERATORS, type MetadataOperator } from './metadata.filter';

export enum MetadataOperatorEnum {
  eq = 'eq',
  ne = 'ne',
  lt = 'lt',
  lte = 'lte',
  gt = 'gt',
  gte = 'gte',
  contains = 'contains',
  exists = 'exists',
}
registerEnumType(MetadataOperatorEnum, {
  name: 'MetadataOperator',
  description: `How a metadata condition compares (${METADATA_OPERATORS.join(', ')}).`,
  valuesConfig: {
    eq: { description: 'The value at the path equals value.' },
    ne: { description: 'The value at the path exists and differs from value.' },
    lt: { description: 'Less than value (numbers as numbers, strings as text).' },
    lte: { description: 'Less than or equal to value.' },
    gt: { description: 'Greater than value.' },
    gte: { description: 'Greater than or equal to value.' },
    contains: {
      description:
        'A string value: case-insensitive substring of the string (or of a string element of an array). Other values: an element of the array.',
    },
    exists: { description: 'The path exists (value false: it does not).' },
  },
});

@InputType({
  description:
    'A typed condition on scientific metadata: a dot-separated path, an operator and a JSON scalar value. Arrays on the path are searched element-wise.',
})
export class MetadataConditionInput {
  @Field({ description: 'Dot-separated keys, e.g. "stage.temperature".' })
  path!: string;

  @Field(() => MetadataOperatorEnum, { description: 'The comparison.' })
  op!: MetadataOperator;

  @Field(() => GraphQLJSON, {
    nullable: true,
    description: 'A string, number, boolean or null (for exists: true or false, default true).',
  })
  value?: unknown;
}

@ObjectType({ description: 'A resource whose scientific metadata matches a full-text search.' })
export class MetadataSearchHit {
  @Field(() => ID, { description: 'The MFID of the resource.' })
  uniqueId!: string;

  @Field({ description: 'dataset, sample, project or instrument.' })
  resourceType!: string;

  @Field(() => String, { nullable: true, description: 'Its display name.' })
  name!: string | null;

  @Field(() => String, { nullable: true, description: 'Its owner (ORCID or MFID).' })
  ownerOrcid!: string | null;

  @Field({ description: 'When the resource was created.' })
  creationTime!: Date;

  @Field({ description: 'When the resource last changed.' })
  modificationTime!: Date;

  @Field(() => Float, {
    description: 'Relevance (ts_rank); higher is better. The hits are newest first, not in this order.',
  })
  rank!: number;

  @Field(() => GraphQLJSONObject, { description: 'The whole metadata document.' })
  scientificMetadata!: Record<string, unknown>;
}

@ObjectType('MetadataVersion', {
  description: "One version of a resource's scientific metadata: the whole document as a write left it.",
})
export class MetadataVersionType {
  @Field(() => Int, { description: 'Its number, from 1 per resource.' })
  version!: number;

  @Field(() => GraphQLJSONObject, { description: 'The whole document.' })
  data!: Record<string, unknown>;

  @Field(() => String, {
    nullable: true,
    description: 'Who wrote it (a user id); null for the service itself.',
  })
  actorId!: string | null;

  @Field({ description: 'When.' })
  time!: Date;
}

@ObjectType('MetadataVersionPage', { description: 'A page of metadata versions, newest first.' })
export class MetadataVersionPage {
  @Field(() => [MetadataVersionType], { description: 'The versions of this page.' })
  items!: MetadataVersionType[];

  @Field(() => Int, { nullable: true, description: 'Pass as `before` for the next page; null on the last.' })
  nextBefore!: number | null;
}

@ObjectType('MetadataRestore', { description: 'The metadata after a restore.' })
export class MetadataRestore {
  @Field(() => GraphQLJSONObject, { description: 'The document now.' })
  data!: Record<string, unknown>;

  @Field(() => Int, {
    nullable: true,
    description: 'The version the restore wrote; null when the document already was that version.',
  })
  version!: number | null;
}
