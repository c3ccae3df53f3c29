import { Extensions, Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { GraphQLJSON, GraphQLJSONObject } from 'graphql-scalars';
import { listCap } from '../../core/graphql/limits';
import { DatasetFilterInput } from '../dataset/dataset.types';
import { BATCH_SAMPLE } from './batch.service';

export enum BatchKindEnum {
  add_keyword = 'add_keyword',
  remove_keyword = 'remove_keyword',
  set_field = 'set_field',
  merge_metadata = 'merge_metadata',
  grant = 'grant',
  set_public = 'set_public',
}
registerEnumType(BatchKindEnum, {
  name: 'BatchKind',
  description: 'What a batch edit does to every dataset.',
});

@InputType({ description: 'One operation of a batch edit; only the fields of its kind may be given.' })
export class BatchOperationInput {
  @Field(() => BatchKindEnum)
  kind!: BatchKindEnum;

  @Field(() => String, { nullable: true, description: 'add_keyword, remove_keyword: the keyword.' })
  keyword?: string;

  @Field(() => String, {
    nullable: true,
    description: 'set_field: dataset_name, measurement, data_type, data_format, session_name or timestamp.',
  })
  field?: string;

  @Field(() => String, { nullable: true, description: 'set_field: the new value (null clears it).' })
  value?: string;

  @Field(() => GraphQLJSONObject, {
    nullable: true,
    description: 'merge_metadata: the top-level keys to merge.',
  })
  metadata?: Record<string, unknown>;

  @Field(() => String, { nullable: true, description: 'grant: user, project or group.' })
  principalType?: string;

  @Field(() => String, {
    nullable: true,
    description: 'grant: who (ORCID, MFID, username or email; project; group).',
  })
  principal?: string;

  @Field(() => String, { nullable: true, description: 'grant: viewer, contributor, editor or admin.' })
  permission?: string;

  @Field(() => Boolean, { nullable: true, description: 'set_public: true or false.' })
  public?: boolean;
}

@InputType({
  description: 'The datasets of a batch: a list, or every result of a search (resolved at preview).',
})
export class BatchTargetsInput {
  @Field(() => [ID], { nullable: true, description: 'The datasets (MFIDs).' })
  datasetIds?: string[];

  @Field(() => DatasetFilterInput, {
    nullable: true,
    description: 'Or every dataset this filter (that of `datasets`) selects for you.',
  })
  search?: DatasetFilterInput;
}

@ObjectType('BatchItem', {
  description: 'One dataset of a batch: the value it reads and writes, before and after.',
})
export class BatchItemType {
  @Field(() => ID)
  uniqueId!: string;

  @Field(() => String, { nullable: true })
  name!: string | null;

  @Field(() => GraphQLJSON, { nullable: true })
  before!: unknown;

  @Field(() => GraphQLJSON, { nullable: true })
  after!: unknown;

  @Field({ description: 'false: the dataset already has what the batch asks.' })
  changes!: boolean;
}

@ObjectType('BatchRefusal', { description: 'A dataset you may not change this way, and why.' })
export class BatchRefusalType {
  @Field(() => ID)
  uniqueId!: string;

  @Field(() => String, { nullable: true })
  name!: string | null;

  @Field()
  reason!: string;
}

@ObjectType('Batch', { description: 'A batch edit of datasets: a preview, or once applied or undone.' })
export class BatchType {
  @Field(() => ID, { description: 'The batch MFID.' })
  id!: string;

  @Field({ description: 'previewed, applied or undone.' })
  status!: string;

  @Field(() => GraphQLJSONObject, { description: 'The operation, as stored (snake_case fields).' })
  operation!: Record<string, unknown>;

  @Field({ description: 'ids or search.' })
  targetSource!: string;

  @Field(() => Int)
  targetCount!: number;

  @Field(() => Int)
  changedCount!: number;

  @Field(() => [BatchRefusalType], { description: 'Datasets you may not change (the first 100).' })
  @Extensions(listCap({ items: 100 }))
  refused!: BatchRefusalType[];

  @Field(() => Int)
  refusedCount!: number;

  @Field(() => [BatchItemType], { description: `The first ${BATCH_SAMPLE} datasets it changes.` })
  @Extensions(listCap({ items: BATCH_SAMPLE }))
  sample!: BatchItemType[];

  @Field(() => String, { nullable: true, description: 'A preview: the token to apply it with.' })
  token!: string | null;

  @Field()
  canApply!: boolean;

  @Field()
  canUndo!: boolean;

  @Field()
  createdAt!: Date;

  @Field()
  expiresAt!: Date;

  @Field(() => Date, { nullable: true })
  appliedAt!: Date | null;

  @Field(() => Date, { nullable: true })
  undoneAt!: Date | null;
}
