import { Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { IsOptional, MaxLength } from 'class-validator';
import { connectionTypes } from '../../core/graphql/connection';
import {
  OwnedRecordChangesInput,
  OwnedRecordFilterInput,
  OwnedRecordType,
  RecordCapabilitiesType,
  withCreationFields,
} from '../owned-record/owned-record.types';
import { Node } from '../../core/graphql/node';

/**
 * The GraphQL type `Sample`. Its nodes are sample rows (sample-row.ts): the column fields read
 * them as they are; the other fields have resolvers.
 */
@ObjectType('Sample', {
  implements: Node,
  description: 'A physical sample: it has parent/child samples and is associated with datasets.',
})
export class SampleType extends OwnedRecordType {
  @Field(() => ID, { description: 'The sample MFID.' })
  uniqueId!: string;

  @Field(() => String, { description: 'Human-readable name.', nullable: true })
  sampleName!: string | null;

  @Field(() => String, { description: 'Kind of sample.', nullable: true })
  sampleType!: string | null;

  @Field(() => String, { description: 'Free-text description.', nullable: true })
  description!: string | null;

  @Field(() => String, { description: 'ISO 8601: when the sample was made or collected.', nullable: true })
  timestamp!: string | null;
}

@ObjectType({ description: 'What you may do with a sample next (guidance; every mutation re-checks).' })
export class SampleCapabilities extends RecordCapabilitiesType {
  @Field({ description: 'May add and change scientific metadata and links.' }) canEditMetadata!: boolean;
}

@InputType({ description: 'Filters of the sample collection; exact match.' })
export class SampleFilterInput extends OwnedRecordFilterInput {
  @Field(() => String, { nullable: true, description: 'Project MFID (must agree with projectId).' })
  projectMfid?: string;
  @Field(() => String, { nullable: true, description: 'Sample name.' }) sampleName?: string;
  @Field(() => String, { nullable: true, description: 'Sample type.' }) sampleType?: string;
  @Field(() => String, { nullable: true, description: 'Associated with this dataset (MFID).' })
  datasetMfid?: string;
}

@InputType({ description: 'Fields of a sample an update may change.' })
class SampleTextInput extends OwnedRecordChangesInput {
  @Field(() => String, { nullable: true, description: 'Human-readable name.' })
  @IsOptional()
  @MaxLength(500)
  sampleName?: string | null;

  @Field(() => String, { nullable: true, description: 'Kind of sample.' })
  @IsOptional()
  @MaxLength(200)
  sampleType?: string | null;

  @Field(() => String, { nullable: true, description: 'Free-text description.' })
  @IsOptional()
  @MaxLength(100_000)
  description?: string | null;

  @Field(() => String, { nullable: true, description: 'ISO 8601: when the sample was made or collected.' })
  @IsOptional()
  @MaxLength(64)
  timestamp?: string | null;
}

@InputType({ description: 'A new sample.' })
export class CreateSampleInput extends withCreationFields(SampleTextInput) {}

@InputType({ description: 'Changes to a sample; project and owner change only through their workflows.' })
export class UpdateSampleInput extends SampleTextInput {}

export const { Connection: SampleConnection } = connectionTypes('Sample', SampleType, 'A page of samples.', {
  boundedTotal: true,
});

/** The fields samples are counted by (`sampleFacets`): the 3.2 client's names, as `GET /samples/facets`. */
export enum SampleFacetFieldEnum {
  sample_type = 'sample_type',
  project = 'project',
  owner = 'owner',
}
registerEnumType(SampleFacetFieldEnum, {
  name: 'SampleFacetField',
  description: 'A field samples are counted by.',
  valuesConfig: {
    sample_type: { description: 'The sample type.' },
    project: { description: 'The assigned project (its MFID; the label is its title or slug).' },
    owner: { description: "The owner (MFID or ORCID; the label is the owner's username)." },
  },
});

@ObjectType('SampleFacetValue', { description: 'One value of a sample field and how many samples carry it.' })
export class SampleFacetValueType {
  @Field({ description: 'What the matching filter takes: the text, or the MFID of the project or owner.' })
  value!: string;
  @Field(() => String, {
    nullable: true,
    description:
      "For display: the project's title (else slug), the owner's username; the text itself for a type.",
  })
  label!: string | null;
  @Field(() => Int, { description: 'How many samples of the result set carry it.' }) count!: number;
}
