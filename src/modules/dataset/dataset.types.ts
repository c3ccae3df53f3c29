import { Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { GraphQLSafeInt } from 'graphql-scalars';
import { IsOptional, MaxLength } from 'class-validator';
import { connectionTypes } from '../../core/graphql/connection';
import { FACET_LIMIT, FACET_SAMPLE } from './dataset-facets';
import {
  OwnedRecordChangesInput,
  OwnedRecordFilterInput,
  OwnedRecordType,
  RecordCapabilitiesType,
  withCreationFields,
} from '../owned-record/owned-record.types';
import { Node } from '../../core/graphql/node';

/**
 * The GraphQL type `Dataset`. Its nodes are dataset rows (dataset-row.ts): the column fields read
 * them as they are; the other fields have resolvers, which read a row's included relations or,
 * when its read left them out, load them.
 */
@ObjectType('Dataset', {
  implements: Node,
  description:
    'A dataset record: structured fields; files, metadata, keywords, thumbnails, samples and links hang off it.',
})
export class DatasetType extends OwnedRecordType {
  @Field(() => ID, { description: 'The dataset MFID.' })
  uniqueId!: string;

  @Field(() => String, { description: 'Human-readable name.', nullable: true })
  datasetName!: string | null;

  @Field(() => String, { description: 'Industry-standard experiment type.', nullable: true })
  measurement!: string | null;

  @Field(() => String, { description: 'Institution-specific organization descriptor.', nullable: true })
  dataType!: string | null;

  @Field(() => String, { description: 'File type or extension.', nullable: true })
  dataFormat!: string | null;

  @Field(() => String, { description: 'Tag grouping the datasets of one session.', nullable: true })
  sessionName!: string | null;

  @Field(() => String, { description: 'ISO 8601: when the data was collected.', nullable: true })
  timestamp!: string | null;

  @Field(() => GraphQLSafeInt, { description: "Total size in bytes of the dataset's stored files." })
  size!: number;
}

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
export class DatasetCapabilities extends RecordCapabilitiesType {
  @Field({ description: 'May add files and thumbnails.' }) canAddFiles!: boolean;
  @Field({ description: 'May add and change scientific metadata, keywords and links.' })
  canEditMetadata!: boolean;
  @Field({ description: 'Always false: datasets have no lifecycle status.' }) canChangeStatus!: boolean;
}

@ObjectType({ description: 'A keyword with the number of datasets you may read that carry it.' })
export class KeywordCountType {
  @Field({ description: 'The keyword.' }) keyword!: string;
  @Field(() => Int, { description: 'How many datasets you may read carry it.' }) numDatasets!: number;
}

@InputType({
  description:
    'Filters of the dataset collection: the text fields (instrument name, measurement, dataset name, session name, data format, data type) equal their value ignoring case, keyword is a substring in any case (keywordExact the whole keyword, any case), the rest match exactly.',
})
export class DatasetFilterInput extends OwnedRecordFilterInput {
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
  @Field(() => String, { nullable: true, description: 'Instrument name, any case.' })
  instrumentName?: string;
  @Field(() => String, { nullable: true, description: 'Measurement, any case.' }) measurement?: string;
  @Field(() => String, { nullable: true, description: 'Keyword substring, case-insensitive.' })
  keyword?: string;
  @Field(() => String, {
    nullable: true,
    description:
      'Carries this whole keyword (any case; not a substring): what a keyword facet value counts, so its list has that many datasets.',
  })
  keywordExact?: string;
  @Field(() => String, { nullable: true, description: 'Dataset name, any case.' }) datasetName?: string;
  @Field(() => String, { nullable: true, description: 'Session name, any case.' }) sessionName?: string;
  @Field(() => String, { nullable: true, description: 'Data format, any case.' }) dataFormat?: string;
  @Field(() => String, { nullable: true, description: 'Data type, any case.' }) dataType?: string;
  @Field(() => String, { nullable: true, description: 'Associated with this sample (MFID).' })
  sampleMfid?: string;
  @Field(() => String, {
    nullable: true,
    description:
      'Full-text query (web-search syntax: words, "phrases", or, -not; English stemming) over the name, measurement, data type, data format, session name, scientific metadata (keys and values) and the names of its first 1,000 files. The order stays newest first.',
  })
  text?: string;
}

@ObjectType({
  description: 'One value of a facet dimension and how many datasets of the result set carry it.',
})
export class FacetValueType {
  @Field({
    description:
      'What the matching filter takes: the text, an MFID (instrument, project), an ORCID (owner), or true/false (public).',
  })
  value!: string;
  @Field(() => String, {
    nullable: true,
    description:
      'For display: instrument name, project title (or slug), owner username, public/private; null otherwise.',
  })
  label!: string | null;
  @Field(() => Int, { description: 'How many datasets of the result set carry it.' }) count!: number;
}

const top = `the ${FACET_LIMIT} most frequent values, ties by value`;

@ObjectType({
  description: `Counts of the datasets a filter selects, per dimension (${top}); datasets without a value in a dimension are not counted in it.`,
})
export class DatasetFacetsType {
  @Field(() => Int, {
    description:
      'How many datasets the filter selects (the list total); at least this many when `totalIsExact` is false.',
  })
  total!: number;
  @Field({
    description:
      "False when a full-text or metadata search matches more than TOTAL_COUNT_LIMIT datasets (as the list's `totalCountIsExact`).",
  })
  totalIsExact!: boolean;
  @Field({
    description: `True when more than ${FACET_SAMPLE} datasets match: the keyword counts (and every count, for a filter on keyword, text, metadata, names, sessions, samples, relatives or access selectors) are over the newest ${FACET_SAMPLE} of them; false when every count is exact.`,
  })
  capped!: boolean;
  @Field(() => [FacetValueType], { description: `By measurement: ${top}.` }) measurement!: FacetValueType[];
  @Field(() => [FacetValueType], { description: `By instrument (MFID): ${top}.` })
  instrument!: FacetValueType[];
  @Field(() => [FacetValueType], { description: `By assigned project (MFID): ${top}.` })
  project!: FacetValueType[];
  @Field(() => [FacetValueType], { description: `By keyword: ${top}.` }) keyword!: FacetValueType[];
  @Field(() => [FacetValueType], { description: `By data type: ${top}.` }) dataType!: FacetValueType[];
  @Field(() => [FacetValueType], { description: `By owner (ORCID): ${top}.` }) owner!: FacetValueType[];
  @Field(() => [FacetValueType], { description: 'Public (true) and private (false).' })
  public!: FacetValueType[];
}

@InputType({ description: 'Fields of a dataset an update may change.' })
class DatasetTextInput extends OwnedRecordChangesInput {
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
}

@InputType({ description: 'A new dataset. Files, metadata and keywords are added afterwards.' })
export class CreateDatasetInput extends withCreationFields(DatasetTextInput) {
  @Field(() => String, { nullable: true, description: 'Registered instrument name.' }) instrumentName?:
    string | null;
  @Field(() => String, { nullable: true, description: 'Instrument slug.' }) instrumentId?: string | null;
  @Field(() => String, { nullable: true, description: 'Instrument MFID.' }) instrumentMfid?: string | null;
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

export const { Connection: DatasetConnection } = connectionTypes(
  'Dataset',
  DatasetType,
  'A page of datasets.',
  {
    projectRelation: true,
    boundedTotal: true,
  },
);
