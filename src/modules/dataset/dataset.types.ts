import { Field, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import { IsOptional, MaxLength, Matches } from 'class-validator';
import { connectionTypes } from '../../core/graphql/connection';
import { MFID_PATTERN } from '../../core/ids';
import { Dataset } from './dataset.entity';
import { MetadataConditionInput } from '../metadata/metadata.types';

export enum ProjectScopeEnum {
  assigned = 'assigned',
  shared = 'shared',
  all = 'all',
}
registerEnumType(ProjectScopeEnum, {
  name: 'ProjectScope',
  description: 'Which datasets of a project: assigned to it, shared with it (assigned elsewhere), or both.',
  valuesConfig: {
    assigned: { description: 'Assigned to the project.' },
    shared: { description: 'Shared with the project but assigned elsewhere or nowhere.' },
    all: { description: 'Both.' },
  },
});

@ObjectType({ description: 'What you may do with a dataset next (guidance; every mutation re-checks).' })
export class DatasetCapabilities {
  @Field({ description: 'May read it.' }) canRead!: boolean;
  @Field({ description: 'May change its fields.' }) canUpdate!: boolean;
  @Field({ description: 'May add files and thumbnails.' }) canAddFiles!: boolean;
  @Field({ description: 'May add and change scientific metadata, keywords and links.' })
  canEditMetadata!: boolean;
  @Field({ description: 'May grant and revoke access, and make it public or private.' })
  canManageAccess!: boolean;
  @Field({ description: 'May transfer its ownership.' }) canTransferOwnership!: boolean;
  @Field({ description: 'May reassign it to another project.' }) canReassignProject!: boolean;
  @Field({ description: 'May request its deletion.' }) canRequestDeletion!: boolean;
  @Field({ description: 'May delete it outright (platform administrators).' }) canDelete!: boolean;
  @Field({ description: 'Always false: datasets have no lifecycle status.' }) canChangeStatus!: boolean;
}

@ObjectType({ description: 'A keyword with the number of datasets you may read that carry it.' })
export class KeywordCountType {
  @Field({ description: 'The keyword.' }) keyword!: string;
  @Field(() => Int, { description: 'How many datasets you may read carry it.' }) numDatasets!: number;
}

@InputType({
  description: 'Filters of the dataset collection; exact match except keyword (substring, any case).',
})
export class DatasetFilterInput {
  @Field(() => String, { nullable: true, description: 'Project slug.' }) projectId?: string;
  @Field(() => String, {
    nullable: true,
    description: 'Project MFID (must agree with projectId when both are given).',
  })
  projectMfid?: string;
  @Field(() => ProjectScopeEnum, {
    nullable: true,
    description: 'With a project filter: assigned (default), shared or all.',
  })
  projectScope?: ProjectScopeEnum;
  @Field(() => String, { nullable: true, description: 'Instrument MFID, across every project you can see.' })
  instrumentMfid?: string;
  @Field(() => String, { nullable: true, description: 'Instrument name.' }) instrumentName?: string;
  @Field(() => String, { nullable: true, description: 'Measurement.' }) measurement?: string;
  @Field(() => String, { nullable: true, description: 'Keyword substring, case-insensitive.' })
  keyword?: string;
  @Field(() => String, { nullable: true, description: 'Dataset name.' }) datasetName?: string;
  @Field(() => String, { nullable: true, description: 'Owner ORCID or MFID.' }) ownerOrcid?: string;
  @Field(() => String, { nullable: true, description: 'Session name.' }) sessionName?: string;
  @Field(() => String, { nullable: true, description: 'Data format.' }) dataFormat?: string;
  @Field(() => String, { nullable: true, description: 'Data type.' }) dataType?: string;
  @Field(() => String, { nullable: true, description: 'Timestamp, as stored.' }) timestamp?: string;
  @Field(() => Boolean, { nullable: true, description: 'Public or not.' }) public?: boolean;
  @Field(() => String, { nullable: true, description: 'Associated with this sample (MFID).' })
  sampleMfid?: string;
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

@InputType({ description: 'Fields of a dataset an update may change.' })
class DatasetTextInput {
  @Field(() => String, { nullable: true, description: 'Human-readable name.' })
  @IsOptional()
  @MaxLength(500)
  datasetName?: string | null;

  @Field(() => String, { nullable: true, description: 'Industry-standard experiment type.' })
  @IsOptional()
  @MaxLength(200)
  measurement?: string | null;

  @Field(() => String, { nullable: true, description: 'Institution-specific organization descriptor.' })
  @IsOptional()
  @MaxLength(200)
  dataType?: string | null;

  @Field(() => String, { nullable: true, description: 'File type or extension.' })
  @IsOptional()
  @MaxLength(100)
  dataFormat?: string | null;

  @Field(() => String, { nullable: true, description: 'Tag grouping the datasets of one session.' })
  @IsOptional()
  @MaxLength(200)
  sessionName?: string | null;

  @Field(() => String, { nullable: true, description: 'ISO 8601: when the data was collected.' })
  @IsOptional()
  @MaxLength(64)
  timestamp?: string | null;

  @Field(() => Boolean, { nullable: true, description: 'Whether every authenticated user may read it.' })
  @IsOptional()
  public?: boolean;
}

@InputType({ description: 'A new dataset. Files, metadata and keywords are added afterwards.' })
export class CreateDatasetInput extends DatasetTextInput {
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
  @Field(() => String, { nullable: true, description: 'Registered instrument name.' }) instrumentName?:
    string | null;
  @Field(() => String, { nullable: true, description: 'Instrument slug.' }) instrumentId?: string | null;
  @Field(() => String, { nullable: true, description: 'Instrument MFID.' }) instrumentMfid?: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'The owner: ORCID, MFID, username or email. Defaults to you.',
  })
  owner?: string | null;

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'Initial scientific metadata.' })
  scientificMetadata?: Record<string, unknown> | null;
}

@InputType({
  description: 'Changes to a dataset. The instrument is fixed: you may only repeat the current one.',
})
export class UpdateDatasetInput extends DatasetTextInput {
  @Field(() => String, {
    nullable: true,
    description: 'Must equal the current instrument slug (CONFLICT otherwise).',
  })
  instrumentId?: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'Must equal the current instrument name (CONFLICT otherwise).',
  })
  instrumentName?: string | null;
}

export const { Connection: DatasetConnection } = connectionTypes('Dataset', Dataset, 'A page of datasets.', {
  projectRelation: true,
});
