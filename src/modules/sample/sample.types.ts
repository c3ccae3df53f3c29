import { Field, InputType, ObjectType } from 'type-graphql';
import { IsOptional, Matches, MaxLength } from 'class-validator';
import { GraphQLJSONObject } from 'graphql-scalars';
import { connectionTypes } from '../../core/graphql/connection';
import { MFID_PATTERN } from '../../core/ids';
import { MetadataConditionInput } from '../metadata/metadata.types';
import { Sample } from './sample.entity';

@ObjectType({ description: 'What you may do with a sample next (guidance; every mutation re-checks).' })
export class SampleCapabilities {
  @Field({ description: 'May read it.' }) canRead!: boolean;
  @Field({ description: 'May change its fields.' }) canUpdate!: boolean;
  @Field({ description: 'May add and change scientific metadata and links.' }) canEditMetadata!: boolean;
  @Field({ description: 'May grant and revoke access, and make it public or private.' })
  canManageAccess!: boolean;
  @Field({ description: 'May transfer its ownership.' }) canTransferOwnership!: boolean;
  @Field({ description: 'May reassign it to another project.' }) canReassignProject!: boolean;
  @Field({ description: 'May request its deletion.' }) canRequestDeletion!: boolean;
  @Field({ description: 'May delete it outright (platform administrators).' }) canDelete!: boolean;
}

@InputType({ description: 'Filters of the sample collection; exact match.' })
export class SampleFilterInput {
  @Field(() => String, { nullable: true, description: 'Project slug.' }) projectId?: string;
  @Field(() => String, { nullable: true, description: 'Project MFID (must agree with projectId).' })
  projectMfid?: string;
  @Field(() => String, { nullable: true, description: 'Sample name.' }) sampleName?: string;
  @Field(() => String, { nullable: true, description: 'Sample type.' }) sampleType?: string;
  @Field(() => String, { nullable: true, description: 'Owner ORCID or MFID.' }) ownerOrcid?: string;
  @Field(() => String, { nullable: true, description: 'Timestamp, as stored.' }) timestamp?: string;
  @Field(() => Boolean, { nullable: true, description: 'Public or not.' }) public?: boolean;
  @Field(() => String, { nullable: true, description: 'Associated with this dataset (MFID).' })
  datasetMfid?: string;
  @Field(() => [String], {
    nullable: true,
    description:
      'Only what each of these users may read (MFID, ORCID, username or email). Inspecting another user needs platform admin. At most 10 selectors in all.',
  })
  accessibleToUser?: string[];
  @Field(() => [String], {
    nullable: true,
    description:
      'Only what is assigned or granted to each of these projects (MFID or slug). Needs membership of them. At most 10 selectors in all.',
  })
  accessibleToProject?: string[];
  @Field(() => [MetadataConditionInput], {
    nullable: true,
    description: 'Typed conditions on the scientific metadata; all must hold.',
  })
  metadata?: MetadataConditionInput[];
}

@InputType({ description: 'Fields of a sample an update may change.' })
class SampleTextInput {
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

  @Field(() => Boolean, { nullable: true, description: 'Whether every authenticated user may read it.' })
  @IsOptional()
  public?: boolean;
}

@InputType({ description: 'A new sample.' })
export class CreateSampleInput extends SampleTextInput {
  @Field(() => String, {
    nullable: true,
    description: 'Your own MFID for it; the server makes one when omitted.',
  })
  @IsOptional()
  @Matches(MFID_PATTERN, { message: 'uniqueId must be a 26-character MFID' })
  uniqueId?: string | null;

  @Field(() => String, { nullable: true, description: 'Project slug.' }) projectId?: string | null;
  @Field(() => String, { nullable: true, description: 'Project MFID; must agree with projectId.' })
  projectMfid?: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'The owner: ORCID, MFID, username or email. Defaults to you.',
  })
  owner?: string | null;

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'Initial scientific metadata.' })
  scientificMetadata?: Record<string, unknown> | null;
}

@InputType({ description: 'Changes to a sample; project and owner change only through their workflows.' })
export class UpdateSampleInput extends SampleTextInput {}

export const { Connection: SampleConnection } = connectionTypes('Sample', Sample, 'A page of samples.');
