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
  valuesConfig: {
    add_keyword: { description: 'Add a keyword.' },
    remove_keyword: { description: 'Remove a keyword.' },
    set_field: { description: 'Set one updatable field.' },
    merge_metadata: {
      description: 'Merge an object into the scientific metadata (top-level keys replaced).',
    },
    grant: { description: 'Grant a user, project or group a role.' },
    set_public: { description: 'Make public or private.' },
  },
});

@InputType({ description: 'One operation of a batch edit; only the fields of its kind may be given.' })
export class BatchOperationInput {
  @Field(() => BatchKindEnum, { description: 'What it does.' })
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
  @Field(() => ID, { description: 'The dataset MFID.' })
  uniqueId!: string;

  @Field(() => String, { nullable: true, description: 'Its name.' })
  name!: string | null;

  @Field(() => GraphQLJSON, { nullable: true, description: 'The value the batch reads, before it.' })
  before!: unknown;

  @Field(() => GraphQLJSON, { nullable: true, description: 'The value the batch writes.' })
  after!: unknown;

  @Field({ description: 'false: the dataset already has what the batch asks.' })
  changes!: boolean;
}

@ObjectType('BatchRefusal', { description: 'A dataset you may not change this way, and why.' })
export class BatchRefusalType {
  @Field(() => ID, { description: 'The dataset MFID.' })
  uniqueId!: string;

  @Field(() => String, { nullable: true, description: 'Its name.' })
  name!: string | null;

  @Field({ description: 'Why it may not be changed this way.' })
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

  @Field(() => Int, { description: 'How many datasets it names.' })
  targetCount!: number;

  @Field(() => Int, { description: 'How many of them it changes.' })
  changedCount!: number;

  @Field(() => [BatchRefusalType], { description: 'Datasets you may not change (the first 100).' })
  @Extensions(listCap({ items: 100 }))
  refused!: BatchRefusalType[];

  @Field(() => Int, { description: 'How many of them you may not change.' })
  refusedCount!: number;

  @Field(() => [BatchItemType], { description: `The first ${BATCH_SAMPLE} datasets it changes.` })
  @Extensions(listCap({ items: BATCH_SAMPLE }))
  sample!: BatchItemType[];

  @Field(() => String, { nullable: true, description: 'A preview: the token to apply it with.' })
  token!: string | null;

  @Field({ description: 'Whether you may apply it now (a preview, none refused, not expired).' })
  canApply!: boolean;

  @Field({ description: 'Whether you may undo it now (applied, not undone).' })
  canUndo!: boolean;

  @Field({ description: 'When it was previewed.' })
  createdAt!: Date;

  @Field({ description: 'When the preview can no longer be applied.' })
  expiresAt!: Date;

  @Field(() => Date, { nullable: true, description: 'When it was applied.' })
  appliedAt!: Date | null;

  @Field(() => Date, { nullable: true, description: 'When it was undone.' })
  undoneAt!: Date | null;
}
