/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
/** What a batch edit does to every dataset. */
export type BatchKind =
  /** Add a keyword. */
  | 'add_keyword'
  /** Grant a user, project or group a role. */
  | 'grant'
  /** Merge an object into the scientific metadata (top-level keys replaced). */
  | 'merge_metadata'
  /** Remove a keyword. */
  | 'remove_keyword'
  /** Set one updatable field. */
  | 'set_field'
  /** Make public or private. */
  | 'set_public';

/** One operation of a batch edit; only the fields of its kind may be given. */
export type BatchOperationInput = {
  /** set_field: dataset_name, measurement, data_type, data_format, session_name or timestamp. */
  field?: string | null | undefined;
  /** add_keyword, remove_keyword: the keyword. */
  keyword?: string | null | undefined;
  /** What it does. */
  kind: BatchKind;
  /** merge_metadata: the top-level keys to merge. */
  metadata?: Record<string, unknown> | null | undefined;
  /** grant: viewer, contributor, editor or admin. */
  permission?: string | null | undefined;
  /** grant: who (ORCID, MFID, username or email; project; group). */
  principal?: string | null | undefined;
  /** grant: user, project or group. */
  principalType?: string | null | undefined;
  /** set_public: true or false. */
  public?: boolean | null | undefined;
  /** set_field: the new value (null clears it). */
  value?: string | null | undefined;
};

/** The datasets of a batch: a list, or every result of a search (resolved at preview). */
export type BatchTargetsInput = {
  /** The datasets (MFIDs). */
  datasetIds?: Array<string | number> | null | undefined;
  /** Or every dataset this filter (that of `datasets`) selects for you. */
  search?: DatasetFilterInput | null | undefined;
};

/** A new dataset. Files, metadata and keywords are added afterwards. */
export type CreateDatasetInput = {
  /** File type or extension. */
  dataFormat?: string | null | undefined;
  /** Institution-specific organization descriptor. */
  dataType?: string | null | undefined;
  /** Human-readable name. */
  datasetName?: string | null | undefined;
  /** Instrument slug. */
  instrumentId?: string | null | undefined;
  /** Instrument MFID. */
  instrumentMfid?: string | null | undefined;
  /** Registered instrument name. */
  instrumentName?: string | null | undefined;
  /** Industry-standard experiment type. */
  measurement?: string | null | undefined;
  /** The owner: ORCID, MFID, username or email. Defaults to you. */
  owner?: string | null | undefined;
  /** Project slug. */
  projectId?: string | null | undefined;
  /** Project MFID; must agree with projectId. */
  projectMfid?: string | null | undefined;
  /** Whether every authenticated user may read it. */
  public?: boolean | null | undefined;
  /** Initial scientific metadata. */
  scientificMetadata?: Record<string, unknown> | null | undefined;
  /** Tag grouping the datasets of one session. */
  sessionName?: string | null | undefined;
  /** ISO 8601: when the data was collected. */
  timestamp?: string | null | undefined;
  /** Your own MFID for it; the server makes one when omitted. */
  uniqueId?: string | null | undefined;
};

/** A new instrument. */
export type CreateInstrumentInput = {
  /** Free-text description. */
  description?: string | null | undefined;
  /** Slug; derived from the name when omitted. */
  instrumentId?: string | null | undefined;
  /** Registered name, unique. */
  instrumentName: string;
  /** Kind of instrument. */
  instrumentType?: string | null | undefined;
  /** Where it is. */
  location?: string | null | undefined;
  /** Manufacturer. */
  manufacturer?: string | null | undefined;
  /** Model. */
  model?: string | null | undefined;
  /** An identifier in another registry. */
  otherId?: string | null | undefined;
  /** The registry otherId belongs to. */
  otherIdSource?: string | null | undefined;
  /** The owner (operator): ORCID, MFID, username or email. Defaults to you. */
  owner?: string | null | undefined;
  /** Whether it is listed publicly. */
  public?: boolean | null | undefined;
  /** Lifecycle status (default active; null sets it back to active). */
  status?: InstrumentStatus | null | undefined;
};

/** A new project. */
export type CreateProjectInput = {
  /** Free-text description. */
  description?: string | null | undefined;
  /** Organization. */
  organization?: string | null | undefined;
  /** Slug: 2-64 letters, digits, "_" or "-". */
  projectId: string;
  /** The lead (the owner): ORCID, MFID, username or email. Defaults to the caller. */
  projectLead?: string | null | undefined;
  /** Status (default active). */
  status?: string | null | undefined;
  /** Title. */
  title?: string | null | undefined;
};

/** A new sample. */
export type CreateSampleInput = {
  /** Free-text description. */
  description?: string | null | undefined;
  /** The owner: ORCID, MFID, username or email. Defaults to you. */
  owner?: string | null | undefined;
  /** Project slug. */
  projectId?: string | null | undefined;
  /** Project MFID; must agree with projectId. */
  projectMfid?: string | null | undefined;
  /** Whether every authenticated user may read it. */
  public?: boolean | null | undefined;
  /** Human-readable name. */
  sampleName?: string | null | undefined;
  /** Kind of sample. */
  sampleType?: string | null | undefined;
  /** Initial scientific metadata. */
  scientificMetadata?: Record<string, unknown> | null | undefined;
  /** ISO 8601: when the sample was made or collected. */
  timestamp?: string | null | undefined;
  /** Your own MFID for it; the server makes one when omitted. */
  uniqueId?: string | null | undefined;
};

/** Filters of the dataset collection: the text fields (instrument name, measurement, dataset name, session name, data format, data type) equal their value ignoring case, keyword is a substring in any case (keywordExact the whole keyword, any case), the rest match exactly. */
export type DatasetFilterInput = {
  /** Only what is assigned or granted to each of these projects (MFID or slug). Needs membership of them. At most 10 selectors in all. */
  accessibleToProject?: Array<string> | null | undefined;
  /** Only what each of these users may read (MFID, ORCID, username or email). Inspecting another user needs platform admin. At most 10 selectors in all. */
  accessibleToUser?: Array<string> | null | undefined;
  /** Data format, any case. */
  dataFormat?: string | null | undefined;
  /** Data type, any case. */
  dataType?: string | null | undefined;
  /** Dataset name, any case. */
  datasetName?: string | null | undefined;
  /** Instrument MFID, across every project you can see. */
  instrumentMfid?: string | null | undefined;
  /** Instrument name, any case. */
  instrumentName?: string | null | undefined;
  /** Keyword substring, case-insensitive. */
  keyword?: string | null | undefined;
  /** Carries this whole keyword (any case; not a substring): what a keyword facet value counts, so its list has that many datasets. */
  keywordExact?: string | null | undefined;
  /** Measurement, any case. */
  measurement?: string | null | undefined;
  /** Typed conditions on the scientific metadata; all must hold. */
  metadata?: Array<MetadataConditionInput> | null | undefined;
  /** Owner ORCID or MFID. */
  ownerOrcid?: string | null | undefined;
  /** Project slug. */
  projectId?: string | null | undefined;
  /** Project MFID (must agree with projectId when both are given). */
  projectMfid?: string | null | undefined;
  /** With a project filter: assigned (default), shared or all. */
  projectScope?: ProjectScope | null | undefined;
  /** Public or not. */
  public?: boolean | null | undefined;
  /** Associated with this sample (MFID). */
  sampleMfid?: string | null | undefined;
  /** Session name, any case. */
  sessionName?: string | null | undefined;
  /** Full-text query (web-search syntax: words, "phrases", or, -not; English stemming) over the name, measurement, data type, data format, session name, scientific metadata (keys and values) and the names of its first 1,000 files. The order stays newest first. */
  text?: string | null | undefined;
  /** Timestamp, as stored. */
  timestamp?: string | null | undefined;
};

/** A column a dataset list can be sorted by. */
export type DatasetOrderField =
  /** When the record was created. */
  | 'creationTime'
  /** The data type, without regard to case. */
  | 'dataType'
  /** The name, without regard to case. */
  | 'datasetName'
  /** The measurement, without regard to case. */
  | 'measurement'
  /** When the record was last changed. */
  | 'modificationTime'
  /** The total size of the dataset's stored files. */
  | 'size';

/** The order of a dataset list: one column, then the MFID; records without a value come last in both directions. */
export type DatasetOrderInput = {
  /** The direction (default asc). */
  direction?: SortDirection;
  /** The column. */
  field: DatasetOrderField;
};

/** The kind of a link: dataset to child dataset, sample to child sample, or sample to dataset. */
export type EdgeKind =
  /** A dataset and a dataset derived from it. */
  | 'dataset_dataset'
  /** A sample and a dataset measured on it. */
  | 'sample_dataset'
  /** A sample and a sample made from it. */
  | 'sample_sample';

/** What a graph node is. */
export type EntityType =
  /** A dataset. */
  | 'dataset'
  /** A sample. */
  | 'sample';

/** Who a grant is given to. */
export type GrantKind =
  /** The members of a named access group: its name. */
  | 'groups'
  /** The members of a project: MFID or slug. */
  | 'projects'
  /** A user: ORCID, MFID, username or email. */
  | 'users';

/** The lifecycle status of an instrument. */
export type InstrumentStatus =
  /** In service (the default). */
  | 'active'
  /** Retired; its datasets stay. */
  | 'decommissioned'
  /** Temporarily out of service. */
  | 'maintenance';

/** Two resources to link; their types decide the kind of link. */
export type LinkResourcesInput = {
  /** The child. */
  childId: string | number;
  /** The parent (for a dataset and a sample: either one). */
  parentId: string | number;
  /** Only for two datasets or two samples: an error on a dataset-sample association. */
  relationshipType?: RelationshipType | null | undefined;
};

/** A typed condition on scientific metadata: a dot-separated path, an operator and a JSON scalar value. Arrays on the path are searched element-wise. */
export type MetadataConditionInput = {
  /** The comparison. */
  op: MetadataOperator;
  /** Dot-separated keys, e.g. "stage.temperature". */
  path: string;
  /** A string, number, boolean or null (for exists: true or false, default true). */
  value?: unknown;
};

/** How a metadata condition compares (eq, ne, lt, lte, gt, gte, contains, exists). */
export type MetadataOperator =
  /** A string value: case-insensitive substring of the string (or of a string element of an array). Other values: an element of the array. */
  | 'contains'
  /** The value at the path equals value. */
  | 'eq'
  /** The path exists (value false: it does not). */
  | 'exists'
  /** Greater than value. */
  | 'gt'
  /** Greater than or equal to value. */
  | 'gte'
  /** Less than value (numbers as numbers, strings as text). */
  | 'lt'
  /** Less than or equal to value. */
  | 'lte'
  /** The value at the path exists and differs from value. */
  | 'ne';

/** The permission ladder: viewer < contributor < editor < admin < owner. */
export type PermissionLevel =
  /** Also grant and revoke access, make public or private, request deletion. */
  | 'admin'
  /** Also add files, thumbnails, metadata, keywords and links. */
  | 'contributor'
  /** Also change the record's fields; delete files and thumbnails. */
  | 'editor'
  /** Also transfer ownership and reassign the project. Never granted: it moves by transfer only. */
  | 'owner'
  /** Read the record and everything attached to it. */
  | 'viewer';

/** Access selectors of the project collection; they intersect. */
export type ProjectFilterInput = {
  /** Only these projects (MFID or slug); needs membership of them. At most 10 selectors in all. */
  accessibleToProject?: Array<string> | null | undefined;
  /** Only projects each of these users holds a role in (MFID, ORCID, username or email). Inspecting another user needs platform admin. At most 10 selectors in all. */
  accessibleToUser?: Array<string> | null | undefined;
};

/** A member to add to a project, or whose role to change. */
export type ProjectMemberInput = {
  /** Role: viewer, contributor, editor or admin. */
  role?: string;
  /** The member: ORCID, MFID, username or email. */
  user: string;
};

/** Which datasets of a project: assigned to it, shared with it (assigned elsewhere), or both. */
export type ProjectScope =
  /** Both. */
  | 'all'
  /** Assigned to the project. */
  | 'assigned'
  /** Shared with the project but assigned elsewhere or nowhere. */
  | 'shared';

/** An affiliation. */
export type PublicationAffiliationInput = {
  /** The organisation. */
  name: string;
  /** Its ROR id (bare or as its URL). */
  rorId?: string | null | undefined;
};

/** A creator. */
export type PublicationCreatorInput = {
  /** The affiliations (at most 20). */
  affiliations?: Array<PublicationAffiliationInput> | null | undefined;
  /** The name ("Family, Given" for a person). */
  name: string;
  /** The ORCID iD (bare or as its URL); its check digit is verified. */
  orcid?: string | null | undefined;
};

/** A funding reference. */
export type PublicationFundingInput = {
  /** The award number. */
  awardNumber?: string | null | undefined;
  /** The award title. */
  awardTitle?: string | null | undefined;
  /** The funder's identifier. */
  funderIdentifier?: string | null | undefined;
  /** The funder. */
  funderName: string;
};

/** The metadata of a publication; in a change, what is left out is kept. */
export type PublicationMetadataInput = {
  /** The creators (1 to 100). */
  creators?: Array<PublicationCreatorInput> | null | undefined;
  /** The description (50 to 5,000 characters). */
  description?: string | null | undefined;
  /** The embargo date (ISO 8601 date-time with offset, or a date; null clears it): the files stay closed to readers without a role on the datasets until then. */
  embargoUntil?: string | null | undefined;
  /** Funding references (at most 50). */
  funding?: Array<PublicationFundingInput> | null | undefined;
  /** Keywords (at most 50). */
  keywords?: Array<string> | null | undefined;
  /** An SPDX license id (CC-BY-4.0, CC0-1.0, …). */
  license?: string | null | undefined;
  /** Related identifiers (at most 100). */
  relatedIdentifiers?: Array<PublicationRelatedIdentifierInput> | null | undefined;
  /** The title (at most 500 characters). */
  title?: string | null | undefined;
  /** The version. */
  version?: string | null | undefined;
};

/** A related identifier. */
export type PublicationRelatedIdentifierInput = {
  /** The identifier. */
  relatedIdentifier: string;
  /** Its DataCite type (DOI, URL, …). */
  relatedIdentifierType: string;
  /** The DataCite relation (Cites, IsSupplementTo, …); version links are made by the service. */
  relationType: string;
};

/** The type of a parent/child link, read child relative to parent. */
export type RelationshipType =
  /** The child was derived from the parent (raw -> calibrated -> analyzed). */
  | 'is_derived_from'
  /** The child is a part of the parent. */
  | 'is_part_of';

/** Filters of the sample collection; exact match. */
export type SampleFilterInput = {
  /** Only what is assigned or granted to each of these projects (MFID or slug). Needs membership of them. At most 10 selectors in all. */
  accessibleToProject?: Array<string> | null | undefined;
  /** Only what each of these users may read (MFID, ORCID, username or email). Inspecting another user needs platform admin. At most 10 selectors in all. */
  accessibleToUser?: Array<string> | null | undefined;
  /** Associated with this dataset (MFID). */
  datasetMfid?: string | null | undefined;
  /** Typed conditions on the scientific metadata; all must hold. */
  metadata?: Array<MetadataConditionInput> | null | undefined;
  /** Owner ORCID or MFID. */
  ownerOrcid?: string | null | undefined;
  /** Project slug. */
  projectId?: string | null | undefined;
  /** Project MFID (must agree with projectId). */
  projectMfid?: string | null | undefined;
  /** Public or not. */
  public?: boolean | null | undefined;
  /** Sample name. */
  sampleName?: string | null | undefined;
  /** Sample type. */
  sampleType?: string | null | undefined;
  /** Timestamp, as stored. */
  timestamp?: string | null | undefined;
};

/** Ascending or descending. */
export type SortDirection =
  /** Smallest (or earliest, or A) first. */
  | 'asc'
  /** Largest (or latest, or Z) first. */
  | 'desc';

/** Changes to a dataset. The instrument is fixed: you may only repeat the current one. */
export type UpdateDatasetInput = {
  /** File type or extension. */
  dataFormat?: string | null | undefined;
  /** Institution-specific organization descriptor. */
  dataType?: string | null | undefined;
  /** Human-readable name. */
  datasetName?: string | null | undefined;
  /** Must equal the current instrument slug (CONFLICT otherwise). */
  instrumentId?: string | null | undefined;
  /** Must equal the current instrument name (CONFLICT otherwise). */
  instrumentName?: string | null | undefined;
  /** Industry-standard experiment type. */
  measurement?: string | null | undefined;
  /** Whether every authenticated user may read it. */
  public?: boolean | null | undefined;
  /** Tag grouping the datasets of one session. */
  sessionName?: string | null | undefined;
  /** ISO 8601: when the data was collected. */
  timestamp?: string | null | undefined;
};

/** Changes to an instrument; ownership changes only through ownership transfer. */
export type UpdateInstrumentInput = {
  /** Free-text description. */
  description?: string | null | undefined;
  /** A new slug (rename). */
  instrumentId?: string | null | undefined;
  /** A new name. */
  instrumentName?: string | null | undefined;
  /** Kind of instrument. */
  instrumentType?: string | null | undefined;
  /** Where it is. */
  location?: string | null | undefined;
  /** Manufacturer. */
  manufacturer?: string | null | undefined;
  /** Model. */
  model?: string | null | undefined;
  /** An identifier in another registry. */
  otherId?: string | null | undefined;
  /** The registry otherId belongs to. */
  otherIdSource?: string | null | undefined;
  /** Whether it is listed publicly. */
  public?: boolean | null | undefined;
  /** Lifecycle status (default active; null sets it back to active). */
  status?: InstrumentStatus | null | undefined;
};

/** Changes to a project; the lead changes only through ownership transfer. */
export type UpdateProjectInput = {
  /** Free-text description. */
  description?: string | null | undefined;
  /** Organization. */
  organization?: string | null | undefined;
  /** A new slug (rename). */
  projectId?: string | null | undefined;
  /** Status. */
  status?: string | null | undefined;
  /** Title. */
  title?: string | null | undefined;
};

/** Changes to a sample; project and owner change only through their workflows. */
export type UpdateSampleInput = {
  /** Free-text description. */
  description?: string | null | undefined;
  /** Whether every authenticated user may read it. */
  public?: boolean | null | undefined;
  /** Human-readable name. */
  sampleName?: string | null | undefined;
  /** Kind of sample. */
  sampleType?: string | null | undefined;
  /** ISO 8601: when the sample was made or collected. */
  timestamp?: string | null | undefined;
};

export type BatchFieldsFragment = { id: string, status: string, operation: Record<string, unknown>, targetCount: number, changedCount: number, refusedCount: number, token: string | null, canApply: boolean, canUndo: boolean, createdAt: string, refused: Array<{ uniqueId: string, name: string | null, reason: string }>, sample: Array<{ uniqueId: string, name: string | null, before: unknown, after: unknown, changes: boolean }> };

export type PreviewBatchMutationVariables = Exact<{
  targets: BatchTargetsInput;
  operation: BatchOperationInput;
}>;


export type PreviewBatchMutation = { previewDatasetBatch: { id: string, status: string, operation: Record<string, unknown>, targetCount: number, changedCount: number, refusedCount: number, token: string | null, canApply: boolean, canUndo: boolean, createdAt: string, refused: Array<{ uniqueId: string, name: string | null, reason: string }>, sample: Array<{ uniqueId: string, name: string | null, before: unknown, after: unknown, changes: boolean }> } };

export type ApplyBatchMutationVariables = Exact<{
  id: string | number;
  token: string;
}>;


export type ApplyBatchMutation = { applyDatasetBatch: { id: string, status: string, operation: Record<string, unknown>, targetCount: number, changedCount: number, refusedCount: number, token: string | null, canApply: boolean, canUndo: boolean, createdAt: string, refused: Array<{ uniqueId: string, name: string | null, reason: string }>, sample: Array<{ uniqueId: string, name: string | null, before: unknown, after: unknown, changes: boolean }> } };

export type UndoBatchMutationVariables = Exact<{
  id: string | number;
}>;


export type UndoBatchMutation = { undoDatasetBatch: { id: string, status: string, operation: Record<string, unknown>, targetCount: number, changedCount: number, refusedCount: number, token: string | null, canApply: boolean, canUndo: boolean, createdAt: string, refused: Array<{ uniqueId: string, name: string | null, reason: string }>, sample: Array<{ uniqueId: string, name: string | null, before: unknown, after: unknown, changes: boolean }> } };

export type RecentBatchesQueryVariables = Exact<{ [key: string]: never; }>;


export type RecentBatchesQuery = { datasetBatches: Array<{ id: string, status: string, operation: Record<string, unknown>, targetCount: number, changedCount: number, refusedCount: number, token: string | null, canApply: boolean, canUndo: boolean, createdAt: string, refused: Array<{ uniqueId: string, name: string | null, reason: string }>, sample: Array<{ uniqueId: string, name: string | null, before: unknown, after: unknown, changes: boolean }> }> };

export type FilePreviewQueryVariables = Exact<{
  file: string | number;
}>;


export type FilePreviewQuery = { filePreview: { fileId: string, filename: string, kind: string, size: number, text: string | null, bytesRead: number, truncated: boolean, imagePath: string | null, reason: string | null, structure: { truncated: boolean, ingestor: string | null, nodes: Array<{ path: string, kind: string, shape: Array<number> | null, dtype: string | null, attributes: Record<string, unknown> }> } | null } };

export type HistoryUndoBatchMutationVariables = Exact<{
  id: string | number;
}>;


export type HistoryUndoBatchMutation = { undoDatasetBatch: { id: string, status: string } };

export type HistoryRevertDatasetMutationVariables = Exact<{
  id: string | number;
  input: UpdateDatasetInput;
}>;


export type HistoryRevertDatasetMutation = { updateDataset: { uniqueId: string } };

export type HistoryRevertSampleMutationVariables = Exact<{
  id: string | number;
  input: UpdateSampleInput;
}>;


export type HistoryRevertSampleMutation = { updateSample: { uniqueId: string } };

export type PickUsersQueryVariables = Exact<{
  q: string;
  first: number;
}>;


export type PickUsersQuery = { searchUsers: Array<{ uniqueId: string, username: string | null, firstName: string | null, lastName: string | null }> };

export type PickProjectsQueryVariables = Exact<{
  q: string;
  first: number;
}>;


export type PickProjectsQuery = { searchProjects: Array<{ uniqueId: string, projectId: string, title: string | null }> };

export type PickInstrumentsQueryVariables = Exact<{
  q: string;
  first: number;
}>;


export type PickInstrumentsQuery = { searchInstruments: Array<{ uniqueId: string, instrumentName: string, instrumentType: string | null }> };

export type PickSamplesQueryVariables = Exact<{
  q: string;
  first: number;
}>;


export type PickSamplesQuery = { searchSamples: Array<{ uniqueId: string, sampleName: string | null, sampleType: string | null }> };

export type PickDatasetsQueryVariables = Exact<{
  q: string;
  first: number;
}>;


export type PickDatasetsQuery = { searchDatasets: Array<{ uniqueId: string, datasetName: string | null, measurement: string | null }> };

export type MeQueryVariables = Exact<{ [key: string]: never; }>;


export type MeQuery = { me: { isPlatformAdmin: boolean, user: { uniqueId: string, username: string | null, firstName: string | null, lastName: string | null } } };

export type MyApiKeysQueryVariables = Exact<{ [key: string]: never; }>;


export type MyApiKeysQuery = { myApiKeys: Array<{ uniqueId: string, prefix: string, label: string | null, status: string, createdAt: string, expiresAt: string | null, lastUsedAt: string | null }> };

export type CreateApiKeyMutationVariables = Exact<{
  label: string;
  expiresAt?: string | null | undefined;
}>;


export type CreateApiKeyMutation = { createApiKey: { secret: string, apiKey: { uniqueId: string, prefix: string } } };

export type RevokeApiKeyMutationVariables = Exact<{
  id: string | number;
}>;


export type RevokeApiKeyMutation = { revokeApiKey: { uniqueId: string, status: string } };

export type CreateCapabilitiesQueryVariables = Exact<{ [key: string]: never; }>;


export type CreateCapabilitiesQuery = { me: { canElevate: boolean, capabilities: { canCreateProject: boolean, canRegisterInstrument: boolean, canCreateSample: boolean, canCreateDataset: boolean, canCreateForOthers: boolean } } };

export type CreateProjectPageMutationVariables = Exact<{
  input: CreateProjectInput;
}>;


export type CreateProjectPageMutation = { createProject: { projectId: string } };

export type CreateInstrumentPageMutationVariables = Exact<{
  input: CreateInstrumentInput;
}>;


export type CreateInstrumentPageMutation = { createInstrument: { uniqueId: string } };

export type CreateSamplePageMutationVariables = Exact<{
  input: CreateSampleInput;
}>;


export type CreateSamplePageMutation = { createSample: { uniqueId: string } };

export type CreateDatasetPageMutationVariables = Exact<{
  input: CreateDatasetInput;
}>;


export type CreateDatasetPageMutation = { createDataset: { uniqueId: string } };

export type LinkNewDatasetSampleMutationVariables = Exact<{
  input: LinkResourcesInput;
}>;


export type LinkNewDatasetSampleMutation = { linkResources: { kind: EdgeKind } };

export type DatasetPageQueryVariables = Exact<{
  id: string | number;
}>;


export type DatasetPageQuery = { dataset: { uniqueId: string, datasetName: string | null, measurement: string | null, dataType: string | null, dataFormat: string | null, sessionName: string | null, timestamp: string | null, public: boolean, size: number, creationTime: string, modificationTime: string, ownerOrcid: string, keywords: Array<string>, scientificMetadata: unknown, owner: { uniqueId: string, username: string | null, firstName: string | null, lastName: string | null } | null, project: { projectId: string, title: string | null } | null, instrument: { uniqueId: string, instrumentName: string } | null, thumbnails: Array<{ id: number, mimeType: string, url: string, thumbnailName: string }>, parents: Array<{ uniqueId: string, datasetName: string | null }>, children: Array<{ uniqueId: string, datasetName: string | null }>, samples: Array<{ uniqueId: string, sampleName: string | null }>, capabilities: { canUpdate: boolean, canAddFiles: boolean, canEditMetadata: boolean, canRequestDeletion: boolean, canManageAccess: boolean, canTransferOwnership: boolean, canReassignProject: boolean } | null, deletionRequest: { id: number, status: string, reason: string | null, requestTime: string, requesterId: string, requester: { uniqueId: string, username: string | null, firstName: string | null, lastName: string | null } | null } | null } };

export type UpdateDatasetMutationVariables = Exact<{
  id: string | number;
  input: UpdateDatasetInput;
}>;


export type UpdateDatasetMutation = { updateDataset: { uniqueId: string } };

export type AddDatasetKeywordMutationVariables = Exact<{
  id: string | number;
  keyword: string;
}>;


export type AddDatasetKeywordMutation = { addDatasetKeyword: { keyword: string } };

export type RequestDatasetDeletionMutationVariables = Exact<{
  id: string | number;
  reason?: string | null | undefined;
}>;


export type RequestDatasetDeletionMutation = { requestDeletion: { id: number, status: string } };

export type DatasetFilesQueryVariables = Exact<{
  id: string | number;
}>;


export type DatasetFilesQuery = { dataset: { uniqueId: string, files: { totalCount: number, nodes: Array<{ uniqueId: string, filename: string, size: number | null, sha256: string | null, storageBackend: string, ingestionStatus: string | null, downloadUrl: string | null, latestIngestion: { id: number, status: string, errorMessage: string | null, bytesRead: number | null, bytesTotal: number | null } | null }> } } };

export type DatasetIngestionEventsSubscriptionVariables = Exact<{
  dataset: string | number;
}>;


export type DatasetIngestionEventsSubscription = { ingestionProgress: { type: string, payload: Record<string, unknown> } };

export type AddDatasetFilesMutationVariables = Exact<{
  dataset: string | number;
  file: File;
}>;


export type AddDatasetFilesMutation = { addDatasetFile: { created: boolean, file: { uniqueId: string, ingestionStatus: string | null } } };

export type RerunIngestionMutationVariables = Exact<{
  fileId: string | number;
}>;


export type RerunIngestionMutation = { requestIngestion: { id: number, status: string } };

export type DeleteDatasetFileMutationVariables = Exact<{
  id: string | number;
}>;


export type DeleteDatasetFileMutation = { deleteFile: string };

export type MergeDatasetMetadataMutationVariables = Exact<{
  id: string | number;
  metadata: Record<string, unknown>;
}>;


export type MergeDatasetMetadataMutation = { mergeScientificMetadata: Record<string, unknown> };

export type LinkRecordsMutationVariables = Exact<{
  input: LinkResourcesInput;
}>;


export type LinkRecordsMutation = { linkResources: { kind: EdgeKind } };

export type UnlinkRecordsMutationVariables = Exact<{
  a: string | number;
  b: string | number;
}>;


export type UnlinkRecordsMutation = { unlinkResources: { kind: EdgeKind } };

export type DatasetAccessQueryVariables = Exact<{
  id: string | number;
}>;


export type DatasetAccessQuery = { resourceAccess: { grantsComplete: boolean, grants: Array<{ principalType: string, principalId: string, principalName: string | null, permission: PermissionLevel, grantedBy: string | null, granter: { uniqueId: string, username: string | null, firstName: string | null, lastName: string | null } | null }> } };

export type GrantAccessMutationVariables = Exact<{
  id: string | number;
  kind: GrantKind;
  principal: string;
  permission: PermissionLevel;
}>;


export type GrantAccessMutation = { setAccess: { permission: PermissionLevel } };

export type RevokeAccessMutationVariables = Exact<{
  id: string | number;
  kind: GrantKind;
  principal: string;
}>;


export type RevokeAccessMutation = { revokeAccess: boolean };

export type ChangePreviewFieldsFragment = { action: string, applied: boolean, token: string, currentOwner: { uniqueId: string, username: string | null, firstName: string | null, lastName: string | null } | null, newOwner: { uniqueId: string, username: string | null, firstName: string | null, lastName: string | null } | null, currentProject: { projectId: string } | null, newProject: { projectId: string } | null, gains: Array<{ before: PermissionLevel | null, after: PermissionLevel | null, user: { uniqueId: string, username: string | null, firstName: string | null, lastName: string | null } }>, losses: Array<{ before: PermissionLevel | null, after: PermissionLevel | null, user: { uniqueId: string, username: string | null, firstName: string | null, lastName: string | null } }>, grantsAffected: Array<{ principalType: string, principalId: string, permission: string, effect: string, reason: string }> };

export type TransferDatasetMutationVariables = Exact<{
  id: string | number;
  newOwner: string;
  confirm: boolean;
  token?: string | null | undefined;
}>;


export type TransferDatasetMutation = { transferOwnership: { action: string, applied: boolean, token: string, currentOwner: { uniqueId: string, username: string | null, firstName: string | null, lastName: string | null } | null, newOwner: { uniqueId: string, username: string | null, firstName: string | null, lastName: string | null } | null, currentProject: { projectId: string } | null, newProject: { projectId: string } | null, gains: Array<{ before: PermissionLevel | null, after: PermissionLevel | null, user: { uniqueId: string, username: string | null, firstName: string | null, lastName: string | null } }>, losses: Array<{ before: PermissionLevel | null, after: PermissionLevel | null, user: { uniqueId: string, username: string | null, firstName: string | null, lastName: string | null } }>, grantsAffected: Array<{ principalType: string, principalId: string, permission: string, effect: string, reason: string }> } };

export type ReassignDatasetMutationVariables = Exact<{
  id: string | number;
  projectId: string;
  confirm: boolean;
  token?: string | null | undefined;
}>;


export type ReassignDatasetMutation = { reassignProject: { action: string, applied: boolean, token: string, currentOwner: { uniqueId: string, username: string | null, firstName: string | null, lastName: string | null } | null, newOwner: { uniqueId: string, username: string | null, firstName: string | null, lastName: string | null } | null, currentProject: { projectId: string } | null, newProject: { projectId: string } | null, gains: Array<{ before: PermissionLevel | null, after: PermissionLevel | null, user: { uniqueId: string, username: string | null, firstName: string | null, lastName: string | null } }>, losses: Array<{ before: PermissionLevel | null, after: PermissionLevel | null, user: { uniqueId: string, username: string | null, firstName: string | null, lastName: string | null } }>, grantsAffected: Array<{ principalType: string, principalId: string, permission: string, effect: string, reason: string }> } };

export type PendingDeletionRequestsQueryVariables = Exact<{ [key: string]: never; }>;


export type PendingDeletionRequestsQuery = { deletionRequests: { nodes: Array<{ id: number, resourceId: string, resourceType: string, resourceName: string | null, requesterId: string, reason: string | null, requestTime: string, requester: { uniqueId: string, username: string | null, firstName: string | null, lastName: string | null } | null }> } };

export type ReviewDeletionRequestMutationVariables = Exact<{
  id: number;
  approve: boolean;
  notes?: string | null | undefined;
}>;


export type ReviewDeletionRequestMutation = { reviewDeletionRequest: { id: number, status: string } };

export type DatasetFacetsQueryVariables = Exact<{
  filter?: DatasetFilterInput | null | undefined;
}>;


export type DatasetFacetsQuery = { datasetFacets: { total: number, capped: boolean, measurement: Array<{ value: string, label: string | null, count: number }>, dataType: Array<{ value: string, label: string | null, count: number }>, keyword: Array<{ value: string, label: string | null, count: number }>, owner: Array<{ value: string, label: string | null, count: number }>, instrument: Array<{ value: string, label: string | null, count: number }>, project: Array<{ value: string, label: string | null, count: number }>, public: Array<{ value: string, label: string | null, count: number }> } };

export type DatasetListQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
  filter?: DatasetFilterInput | null | undefined;
  orderBy?: DatasetOrderInput | null | undefined;
}>;


export type DatasetListQuery = { datasets: { totalCount: number, totalCountIsExact: boolean, pageInfo: { hasNextPage: boolean, endCursor: string | null }, nodes: Array<{ uniqueId: string, datasetName: string | null, measurement: string | null, dataType: string | null, creationTime: string, public: boolean, ownerOrcid: string, owner: { uniqueId: string, username: string | null } | null, project: { projectId: string, title: string | null } | null, instrument: { uniqueId: string, instrumentName: string } | null, firstThumbnail: { id: number, mimeType: string, url: string, thumbnailName: string } | null }> } };

export type DatasetRowFragment = { uniqueId: string, datasetName: string | null, measurement: string | null, dataType: string | null, creationTime: string, public: boolean, ownerOrcid: string, owner: { uniqueId: string, username: string | null } | null, project: { projectId: string, title: string | null } | null, instrument: { uniqueId: string, instrumentName: string } | null, firstThumbnail: { id: number, mimeType: string, url: string, thumbnailName: string } | null };

export type InstrumentPageQueryVariables = Exact<{
  id: string;
}>;


export type InstrumentPageQuery = { instrument: { uniqueId: string, instrumentId: string, instrumentName: string, instrumentType: string | null, description: string | null, location: string | null, manufacturer: string | null, model: string | null, status: string, otherId: string | null, otherIdSource: string | null, public: boolean, scientificMetadata: unknown, capabilities: { canUpdate: boolean, canManageAccess: boolean } | null, owner: { uniqueId: string, username: string | null, firstName: string | null, lastName: string | null } } };

export type UpdateInstrumentMutationVariables = Exact<{
  id: string;
  input: UpdateInstrumentInput;
}>;


export type UpdateInstrumentMutation = { updateInstrument: { uniqueId: string } };

export type SetInstrumentStatusMutationVariables = Exact<{
  id: string;
  status: InstrumentStatus;
}>;


export type SetInstrumentStatusMutation = { setInstrumentStatus: { uniqueId: string, status: string } };

export type PendingAccountsQueryVariables = Exact<{ [key: string]: never; }>;


export type PendingAccountsQuery = { pendingUsers: { total: number, items: Array<{ uniqueId: string, username: string | null, firstName: string | null, lastName: string | null, email: string | null, pendingSince: string | null }> } };

export type ActivateAccountMutationVariables = Exact<{
  id: string | number;
}>;


export type ActivateAccountMutation = { activateUser: { uniqueId: string, pendingSince: string | null } };

export type DisableAccountMutationVariables = Exact<{
  id: string | number;
}>;


export type DisableAccountMutation = { disableUser: { uniqueId: string, disabled: boolean } };

export type ProjectPageQueryVariables = Exact<{
  id: string;
}>;


export type ProjectPageQuery = { project: { uniqueId: string, projectId: string, title: string | null, description: string | null, organization: string | null, status: string, creationTime: string, scientificMetadata: unknown, lead: { uniqueId: string, username: string | null, firstName: string | null, lastName: string | null }, capabilities: { canUpdate: boolean, canManageMembers: boolean } | null, members: Array<{ role: string, user: { uniqueId: string, username: string | null, firstName: string | null, lastName: string | null } }> | null, datasets: { totalCount: number }, samples: { totalCount: number, nodes: Array<{ uniqueId: string, sampleName: string | null }> } } };

export type UpdateProjectMutationVariables = Exact<{
  id: string;
  input: UpdateProjectInput;
}>;


export type UpdateProjectMutation = { updateProject: { projectId: string } };

export type SetProjectMemberMutationVariables = Exact<{
  project: string;
  member: ProjectMemberInput;
}>;


export type SetProjectMemberMutation = { setProjectMember: Array<{ role: string }> };

export type RemoveProjectMemberMutationVariables = Exact<{
  project: string;
  user: string;
}>;


export type RemoveProjectMemberMutation = { removeProjectMember: Array<{ role: string }> };

export type PublicationDescriptionFragment = { id: string, state: string, canChange: boolean, title: string, description: string, license: string, keywords: Array<string>, version: string | null, embargoUntil: string | null, creators: Array<{ name: string, orcid: string | null, affiliations: Array<{ name: string, rorId: string | null }> }>, datasets: Array<{ datasetId: string, name: string | null }> };

export type PublicationPageQueryVariables = Exact<{
  id: string | number;
}>;


export type PublicationPageQuery = { publication: { citation: string, doi: string | null, registrationState: string, registrationError: string | null, publishedAt: string | null, withdrawnAt: string | null, withdrawalReason: string | null, id: string, state: string, canChange: boolean, title: string, description: string, license: string, keywords: Array<string>, version: string | null, embargoUntil: string | null, datasets: Array<{ fileCount: number, size: number, datasetId: string, name: string | null }>, manifest: Array<{ datasetId: string, name: string | null, files: Array<{ size: number }> }> | null, previousVersion: { id: string, title: string, version: string | null } | null, nextVersion: { id: string, state: string, version: string | null } | null, creators: Array<{ name: string, orcid: string | null, affiliations: Array<{ name: string, rorId: string | null }> }> } };

export type PublishPublicationMutationVariables = Exact<{
  id: string | number;
}>;


export type PublishPublicationMutation = { publishPublication: { id: string } };

export type NewPublicationVersionMutationVariables = Exact<{
  id: string | number;
}>;


export type NewPublicationVersionMutation = { newPublicationVersion: { id: string } };

export type WithdrawPublicationMutationVariables = Exact<{
  id: string | number;
  reason: string;
}>;


export type WithdrawPublicationMutation = { withdrawPublication: { id: string } };

export type PublicationListQueryVariables = Exact<{
  title?: string | null | undefined;
  state?: string | null | undefined;
  first?: number | null | undefined;
}>;


export type PublicationListQuery = { publications: { total: number, items: Array<{ id: string, title: string, state: string, version: string | null, doi: string | null, publishedAt: string | null, creationTime: string }> } };

export type PublishMeQueryVariables = Exact<{ [key: string]: never; }>;


export type PublishMeQuery = { me: { user: { username: string | null, firstName: string | null, lastName: string | null } } };

export type PublishDatasetNameQueryVariables = Exact<{
  id: string | number;
}>;


export type PublishDatasetNameQuery = { dataset: { uniqueId: string, datasetName: string | null } };

export type PublicationToEditQueryVariables = Exact<{
  id: string | number;
}>;


export type PublicationToEditQuery = { publication: { id: string, state: string, canChange: boolean, title: string, description: string, license: string, keywords: Array<string>, version: string | null, embargoUntil: string | null, funding: Array<{ funderName: string, funderIdentifier: string | null, awardNumber: string | null, awardTitle: string | null }>, relatedIdentifiers: Array<{ relatedIdentifier: string, relatedIdentifierType: string, relationType: string }>, creators: Array<{ name: string, orcid: string | null, affiliations: Array<{ name: string, rorId: string | null }> }>, datasets: Array<{ datasetId: string, name: string | null }> } };

export type CreatePublicationMutationVariables = Exact<{
  datasetIds: Array<string | number> | string | number;
  input: PublicationMetadataInput;
}>;


export type CreatePublicationMutation = { createPublication: { id: string } };

export type UpdatePublicationMutationVariables = Exact<{
  id: string | number;
  input: PublicationMetadataInput;
}>;


export type UpdatePublicationMutation = { updatePublication: { id: string } };

export type RemoveDatasetKeywordMutationVariables = Exact<{
  id: string | number;
  keyword: string;
}>;


export type RemoveDatasetKeywordMutation = { removeDatasetKeyword: boolean };

export type WithdrawDeletionRequestMutationVariables = Exact<{
  id: number;
  note?: string | null | undefined;
}>;


export type WithdrawDeletionRequestMutation = { withdrawDeletionRequest: boolean };

export type RecordHistoryQueryVariables = Exact<{
  id: string | number;
}>;


export type RecordHistoryQuery = { resourceHistory: { nodes: Array<{ uniqueId: string, type: string, time: string, actorId: string | null, payload: Record<string, unknown> }> } };

export type MetadataVersionsQueryVariables = Exact<{
  id: string | number;
  before?: number | null | undefined;
}>;


export type MetadataVersionsQuery = { metadataVersions: { nextBefore: number | null, items: Array<{ version: number, time: string, actorId: string | null, data: Record<string, unknown> }> } };

export type RestoreMetadataVersionMutationVariables = Exact<{
  id: string | number;
  version: number;
}>;


export type RestoreMetadataVersionMutation = { restoreMetadataVersion: { version: number | null } };

export type SampleListPageQueryVariables = Exact<{
  first: number;
  filter?: SampleFilterInput | null | undefined;
}>;


export type SampleListPageQuery = { samples: { totalCount: number, pageInfo: { hasNextPage: boolean }, nodes: Array<{ uniqueId: string, sampleName: string | null, sampleType: string | null, public: boolean, creationTime: string, project: { projectId: string, title: string | null } | null, owner: { uniqueId: string, username: string | null, firstName: string | null, lastName: string | null } | null }> } };

export type SampleSearchPageQueryVariables = Exact<{
  q: string;
  projectId?: string | null | undefined;
}>;


export type SampleSearchPageQuery = { searchSamples: Array<{ uniqueId: string, sampleName: string | null, sampleType: string | null, public: boolean, creationTime: string, project: { projectId: string, title: string | null } | null, owner: { uniqueId: string, username: string | null, firstName: string | null, lastName: string | null } | null }> };

export type SampleListRowFragment = { uniqueId: string, sampleName: string | null, sampleType: string | null, public: boolean, creationTime: string, project: { projectId: string, title: string | null } | null, owner: { uniqueId: string, username: string | null, firstName: string | null, lastName: string | null } | null };

export type SampleFacetsPageQueryVariables = Exact<{
  filter?: SampleFilterInput | null | undefined;
}>;


export type SampleFacetsPageQuery = { type: Array<{ value: string, label: string | null, count: number }>, project: Array<{ value: string, label: string | null, count: number }>, owner: Array<{ value: string, label: string | null, count: number }> };

export type ProjectListPageQueryVariables = Exact<{
  first: number;
  filter?: ProjectFilterInput | null | undefined;
  mine: ProjectFilterInput;
}>;


export type ProjectListPageQuery = { projects: { totalCount: number, pageInfo: { hasNextPage: boolean }, nodes: Array<{ uniqueId: string, projectId: string, title: string | null, organization: string | null, status: string, lead: { uniqueId: string, username: string | null, firstName: string | null, lastName: string | null } }> }, all: { totalCount: number }, mine: { totalCount: number } };

export type ProjectSearchPageQueryVariables = Exact<{
  q: string;
}>;


export type ProjectSearchPageQuery = { searchProjects: Array<{ uniqueId: string, projectId: string, title: string | null, organization: string | null, status: string, lead: { uniqueId: string, username: string | null, firstName: string | null, lastName: string | null } }> };

export type ProjectListRowFragment = { uniqueId: string, projectId: string, title: string | null, organization: string | null, status: string, lead: { uniqueId: string, username: string | null, firstName: string | null, lastName: string | null } };

export type ListMeQueryVariables = Exact<{ [key: string]: never; }>;


export type ListMeQuery = { me: { user: { uniqueId: string }, capabilities: { canCreateProject: boolean, canRegisterInstrument: boolean } } };

export type InstrumentListPageQueryVariables = Exact<{
  first: number;
  status?: Array<InstrumentStatus> | InstrumentStatus | null | undefined;
}>;


export type InstrumentListPageQuery = { instruments: { totalCount: number, pageInfo: { hasNextPage: boolean }, nodes: Array<{ uniqueId: string, instrumentName: string, instrumentType: string | null, manufacturer: string | null, location: string | null, status: string, owner: { uniqueId: string, username: string | null, firstName: string | null, lastName: string | null } }> }, active: { totalCount: number }, maintenance: { totalCount: number }, decommissioned: { totalCount: number } };

export type InstrumentSearchPageQueryVariables = Exact<{
  q: string;
}>;


export type InstrumentSearchPageQuery = { searchInstruments: Array<{ uniqueId: string, instrumentName: string, instrumentType: string | null, manufacturer: string | null, location: string | null, status: string, owner: { uniqueId: string, username: string | null, firstName: string | null, lastName: string | null } }> };

export type InstrumentListRowFragment = { uniqueId: string, instrumentName: string, instrumentType: string | null, manufacturer: string | null, location: string | null, status: string, owner: { uniqueId: string, username: string | null, firstName: string | null, lastName: string | null } };

export type SamplePageQueryVariables = Exact<{
  id: string | number;
}>;


export type SamplePageQuery = { sample: { uniqueId: string, sampleName: string | null, sampleType: string | null, description: string | null, timestamp: string | null, public: boolean, creationTime: string, ownerOrcid: string, scientificMetadata: unknown, owner: { uniqueId: string, username: string | null, firstName: string | null, lastName: string | null } | null, project: { projectId: string, title: string | null } | null, datasets: Array<{ uniqueId: string, datasetName: string | null }>, parents: Array<{ uniqueId: string, sampleName: string | null }>, children: Array<{ uniqueId: string, sampleName: string | null }>, deletionRequest: { id: number, status: string, reason: string | null, requestTime: string, requesterId: string } | null, capabilities: { canUpdate: boolean, canEditMetadata: boolean, canManageAccess: boolean, canTransferOwnership: boolean, canReassignProject: boolean, canRequestDeletion: boolean } | null } };

export type UpdateSampleMutationVariables = Exact<{
  id: string | number;
  input: UpdateSampleInput;
}>;


export type UpdateSampleMutation = { updateSample: { uniqueId: string } };

export type FilterChoicesQueryVariables = Exact<{ [key: string]: never; }>;


export type FilterChoicesQuery = { me: { projects: Array<{ project: { uniqueId: string, projectId: string, title: string | null } }> }, instruments: { nodes: Array<{ uniqueId: string, instrumentName: string }> } };

export type GraphPartsFragment = { nodes: Array<{ id: string, type: EntityType, name: string | null, depth: number, measurement: string | null, sampleType: string | null, firstThumbnail: { mimeType: string, url: string, thumbnailName: string } | null }>, edges: Array<{ source: string, target: string, kind: EdgeKind, relationshipType: RelationshipType | null }> };

export type EntityGraphQueryVariables = Exact<{
  id: string | number;
  depth?: number | null | undefined;
}>;


export type EntityGraphQuery = { entityGraph: { nodes: Array<{ id: string, type: EntityType, name: string | null, depth: number, measurement: string | null, sampleType: string | null, firstThumbnail: { mimeType: string, url: string, thumbnailName: string } | null }>, edges: Array<{ source: string, target: string, kind: EdgeKind, relationshipType: RelationshipType | null }> } };

export type ProjectGraphQueryVariables = Exact<{
  project: string;
}>;


export type ProjectGraphQuery = { projectGraph: { nodes: Array<{ id: string, type: EntityType, name: string | null, depth: number, measurement: string | null, sampleType: string | null, firstThumbnail: { mimeType: string, url: string, thumbnailName: string } | null }>, edges: Array<{ source: string, target: string, kind: EdgeKind, relationshipType: RelationshipType | null }> } };

export class TypedDocumentString<TResult, TVariables>
  extends String
  implements DocumentTypeDecoration<TResult, TVariables>
{
  __apiType?: NonNullable<DocumentTypeDecoration<TResult, TVariables>['__apiType']>;
  private value: string;
  public __meta__?: Record<string, any> | undefined;

  constructor(value: string, __meta__?: Record<string, any> | undefined) {
    super(value);
    this.value = value;
    this.__meta__ = __meta__;
  }

  override toString(): string & DocumentTypeDecoration<TResult, TVariables> {
    return this.value;
  }
}
export const BatchFieldsFragmentDoc = new TypedDocumentString(`
    fragment BatchFields on Batch {
  id
  status
  operation
  targetCount
  changedCount
  refusedCount
  refused {
    uniqueId
    name
    reason
  }
  sample {
    uniqueId
    name
    before
    after
    changes
  }
  token
  canApply
  canUndo
  createdAt
}
    `, {"fragmentName":"BatchFields"}) as unknown as TypedDocumentString<BatchFieldsFragment, unknown>;
export const ChangePreviewFieldsFragmentDoc = new TypedDocumentString(`
    fragment ChangePreviewFields on ChangePreviewType {
  action
  applied
  token
  currentOwner {
    uniqueId
    username
    firstName
    lastName
  }
  newOwner {
    uniqueId
    username
    firstName
    lastName
  }
  currentProject {
    projectId
  }
  newProject {
    projectId
  }
  gains {
    before
    after
    user {
      uniqueId
      username
      firstName
      lastName
    }
  }
  losses {
    before
    after
    user {
      uniqueId
      username
      firstName
      lastName
    }
  }
  grantsAffected {
    principalType
    principalId
    permission
    effect
    reason
  }
}
    `, {"fragmentName":"ChangePreviewFields"}) as unknown as TypedDocumentString<ChangePreviewFieldsFragment, unknown>;
export const DatasetRowFragmentDoc = new TypedDocumentString(`
    fragment DatasetRow on Dataset {
  uniqueId
  datasetName
  measurement
  dataType
  creationTime
  public
  ownerOrcid
  owner {
    uniqueId
    username
  }
  project {
    projectId
    title
  }
  instrument {
    uniqueId
    instrumentName
  }
  firstThumbnail {
    id
    mimeType
    url
    thumbnailName
  }
}
    `, {"fragmentName":"DatasetRow"}) as unknown as TypedDocumentString<DatasetRowFragment, unknown>;
export const PublicationDescriptionFragmentDoc = new TypedDocumentString(`
    fragment PublicationDescription on Publication {
  id
  state
  canChange
  title
  description
  creators {
    name
    orcid
    affiliations {
      name
      rorId
    }
  }
  license
  keywords
  version
  embargoUntil
  datasets {
    datasetId
    name
  }
}
    `, {"fragmentName":"PublicationDescription"}) as unknown as TypedDocumentString<PublicationDescriptionFragment, unknown>;
export const SampleListRowFragmentDoc = new TypedDocumentString(`
    fragment SampleListRow on Sample {
  uniqueId
  sampleName
  sampleType
  public
  creationTime
  project {
    projectId
    title
  }
  owner {
    uniqueId
    username
    firstName
    lastName
  }
}
    `, {"fragmentName":"SampleListRow"}) as unknown as TypedDocumentString<SampleListRowFragment, unknown>;
export const ProjectListRowFragmentDoc = new TypedDocumentString(`
    fragment ProjectListRow on Project {
  uniqueId
  projectId
  title
  organization
  status
  lead {
    uniqueId
    username
    firstName
    lastName
  }
}
    `, {"fragmentName":"ProjectListRow"}) as unknown as TypedDocumentString<ProjectListRowFragment, unknown>;
export const InstrumentListRowFragmentDoc = new TypedDocumentString(`
    fragment InstrumentListRow on Instrument {
  uniqueId
  instrumentName
  instrumentType
  manufacturer
  location
  status
  owner {
    uniqueId
    username
    firstName
    lastName
  }
}
    `, {"fragmentName":"InstrumentListRow"}) as unknown as TypedDocumentString<InstrumentListRowFragment, unknown>;
export const GraphPartsFragmentDoc = new TypedDocumentString(`
    fragment GraphParts on EntityGraph {
  nodes {
    id
    type
    name
    depth
    measurement
    sampleType
    firstThumbnail {
      mimeType
      url
      thumbnailName
    }
  }
  edges {
    source
    target
    kind
    relationshipType
  }
}
    `, {"fragmentName":"GraphParts"}) as unknown as TypedDocumentString<GraphPartsFragment, unknown>;
export const PreviewBatchDocument = new TypedDocumentString(`
    mutation PreviewBatch($targets: BatchTargetsInput!, $operation: BatchOperationInput!) {
  previewDatasetBatch(targets: $targets, operation: $operation) {
    ...BatchFields
  }
}
    fragment BatchFields on Batch {
  id
  status
  operation
  targetCount
  changedCount
  refusedCount
  refused {
    uniqueId
    name
    reason
  }
  sample {
    uniqueId
    name
    before
    after
    changes
  }
  token
  canApply
  canUndo
  createdAt
}`) as unknown as TypedDocumentString<PreviewBatchMutation, PreviewBatchMutationVariables>;
export const ApplyBatchDocument = new TypedDocumentString(`
    mutation ApplyBatch($id: ID!, $token: String!) {
  applyDatasetBatch(id: $id, token: $token) {
    ...BatchFields
  }
}
    fragment BatchFields on Batch {
  id
  status
  operation
  targetCount
  changedCount
  refusedCount
  refused {
    uniqueId
    name
    reason
  }
  sample {
    uniqueId
    name
    before
    after
    changes
  }
  token
  canApply
  canUndo
  createdAt
}`) as unknown as TypedDocumentString<ApplyBatchMutation, ApplyBatchMutationVariables>;
export const UndoBatchDocument = new TypedDocumentString(`
    mutation UndoBatch($id: ID!) {
  undoDatasetBatch(id: $id) {
    ...BatchFields
  }
}
    fragment BatchFields on Batch {
  id
  status
  operation
  targetCount
  changedCount
  refusedCount
  refused {
    uniqueId
    name
    reason
  }
  sample {
    uniqueId
    name
    before
    after
    changes
  }
  token
  canApply
  canUndo
  createdAt
}`) as unknown as TypedDocumentString<UndoBatchMutation, UndoBatchMutationVariables>;
export const RecentBatchesDocument = new TypedDocumentString(`
    query RecentBatches {
  datasetBatches(first: 10) {
    ...BatchFields
  }
}
    fragment BatchFields on Batch {
  id
  status
  operation
  targetCount
  changedCount
  refusedCount
  refused {
    uniqueId
    name
    reason
  }
  sample {
    uniqueId
    name
    before
    after
    changes
  }
  token
  canApply
  canUndo
  createdAt
}`) as unknown as TypedDocumentString<RecentBatchesQuery, RecentBatchesQueryVariables>;
export const FilePreviewDocument = new TypedDocumentString(`
    query FilePreview($file: ID!) {
  filePreview(file: $file) {
    fileId
    filename
    kind
    size
    text
    bytesRead
    truncated
    imagePath
    reason
    structure {
      nodes {
        path
        kind
        shape
        dtype
        attributes
      }
      truncated
      ingestor
    }
  }
}
    `) as unknown as TypedDocumentString<FilePreviewQuery, FilePreviewQueryVariables>;
export const HistoryUndoBatchDocument = new TypedDocumentString(`
    mutation HistoryUndoBatch($id: ID!) {
  undoDatasetBatch(id: $id) {
    id
    status
  }
}
    `) as unknown as TypedDocumentString<HistoryUndoBatchMutation, HistoryUndoBatchMutationVariables>;
export const HistoryRevertDatasetDocument = new TypedDocumentString(`
    mutation HistoryRevertDataset($id: ID!, $input: UpdateDatasetInput!) {
  updateDataset(id: $id, input: $input) {
    uniqueId
  }
}
    `) as unknown as TypedDocumentString<HistoryRevertDatasetMutation, HistoryRevertDatasetMutationVariables>;
export const HistoryRevertSampleDocument = new TypedDocumentString(`
    mutation HistoryRevertSample($id: ID!, $input: UpdateSampleInput!) {
  updateSample(id: $id, input: $input) {
    uniqueId
  }
}
    `) as unknown as TypedDocumentString<HistoryRevertSampleMutation, HistoryRevertSampleMutationVariables>;
export const PickUsersDocument = new TypedDocumentString(`
    query PickUsers($q: String!, $first: Int!) {
  searchUsers(q: $q, first: $first) {
    uniqueId
    username
    firstName
    lastName
  }
}
    `) as unknown as TypedDocumentString<PickUsersQuery, PickUsersQueryVariables>;
export const PickProjectsDocument = new TypedDocumentString(`
    query PickProjects($q: String!, $first: Int!) {
  searchProjects(q: $q, first: $first) {
    uniqueId
    projectId
    title
  }
}
    `) as unknown as TypedDocumentString<PickProjectsQuery, PickProjectsQueryVariables>;
export const PickInstrumentsDocument = new TypedDocumentString(`
    query PickInstruments($q: String!, $first: Int!) {
  searchInstruments(q: $q, first: $first) {
    uniqueId
    instrumentName
    instrumentType
  }
}
    `) as unknown as TypedDocumentString<PickInstrumentsQuery, PickInstrumentsQueryVariables>;
export const PickSamplesDocument = new TypedDocumentString(`
    query PickSamples($q: String!, $first: Int!) {
  searchSamples(q: $q, first: $first) {
    uniqueId
    sampleName
    sampleType
  }
}
    `) as unknown as TypedDocumentString<PickSamplesQuery, PickSamplesQueryVariables>;
export const PickDatasetsDocument = new TypedDocumentString(`
    query PickDatasets($q: String!, $first: Int!) {
  searchDatasets(q: $q, first: $first) {
    uniqueId
    datasetName
    measurement
  }
}
    `) as unknown as TypedDocumentString<PickDatasetsQuery, PickDatasetsQueryVariables>;
export const MeDocument = new TypedDocumentString(`
    query Me {
  me {
    isPlatformAdmin
    user {
      uniqueId
      username
      firstName
      lastName
    }
  }
}
    `) as unknown as TypedDocumentString<MeQuery, MeQueryVariables>;
export const MyApiKeysDocument = new TypedDocumentString(`
    query MyApiKeys {
  myApiKeys {
    uniqueId
    prefix
    label
    status
    createdAt
    expiresAt
    lastUsedAt
  }
}
    `) as unknown as TypedDocumentString<MyApiKeysQuery, MyApiKeysQueryVariables>;
export const CreateApiKeyDocument = new TypedDocumentString(`
    mutation CreateApiKey($label: String!, $expiresAt: DateTimeISO) {
  createApiKey(label: $label, expiresAt: $expiresAt) {
    secret
    apiKey {
      uniqueId
      prefix
    }
  }
}
    `) as unknown as TypedDocumentString<CreateApiKeyMutation, CreateApiKeyMutationVariables>;
export const RevokeApiKeyDocument = new TypedDocumentString(`
    mutation RevokeApiKey($id: ID!) {
  revokeApiKey(id: $id) {
    uniqueId
    status
  }
}
    `) as unknown as TypedDocumentString<RevokeApiKeyMutation, RevokeApiKeyMutationVariables>;
export const CreateCapabilitiesDocument = new TypedDocumentString(`
    query CreateCapabilities {
  me {
    canElevate
    capabilities {
      canCreateProject
      canRegisterInstrument
      canCreateSample
      canCreateDataset
      canCreateForOthers
    }
  }
}
    `) as unknown as TypedDocumentString<CreateCapabilitiesQuery, CreateCapabilitiesQueryVariables>;
export const CreateProjectPageDocument = new TypedDocumentString(`
    mutation CreateProjectPage($input: CreateProjectInput!) {
  createProject(input: $input) {
    projectId
  }
}
    `) as unknown as TypedDocumentString<CreateProjectPageMutation, CreateProjectPageMutationVariables>;
export const CreateInstrumentPageDocument = new TypedDocumentString(`
    mutation CreateInstrumentPage($input: CreateInstrumentInput!) {
  createInstrument(input: $input) {
    uniqueId
  }
}
    `) as unknown as TypedDocumentString<CreateInstrumentPageMutation, CreateInstrumentPageMutationVariables>;
export const CreateSamplePageDocument = new TypedDocumentString(`
    mutation CreateSamplePage($input: CreateSampleInput!) {
  createSample(input: $input) {
    uniqueId
  }
}
    `) as unknown as TypedDocumentString<CreateSamplePageMutation, CreateSamplePageMutationVariables>;
export const CreateDatasetPageDocument = new TypedDocumentString(`
    mutation CreateDatasetPage($input: CreateDatasetInput!) {
  createDataset(input: $input) {
    uniqueId
  }
}
    `) as unknown as TypedDocumentString<CreateDatasetPageMutation, CreateDatasetPageMutationVariables>;
export const LinkNewDatasetSampleDocument = new TypedDocumentString(`
    mutation LinkNewDatasetSample($input: LinkResourcesInput!) {
  linkResources(input: $input) {
    kind
  }
}
    `) as unknown as TypedDocumentString<LinkNewDatasetSampleMutation, LinkNewDatasetSampleMutationVariables>;
export const DatasetPageDocument = new TypedDocumentString(`
    query DatasetPage($id: ID!) {
  dataset(id: $id) {
    uniqueId
    datasetName
    measurement
    dataType
    dataFormat
    sessionName
    timestamp
    public
    size
    creationTime
    modificationTime
    ownerOrcid
    owner {
      uniqueId
      username
      firstName
      lastName
    }
    project {
      projectId
      title
    }
    instrument {
      uniqueId
      instrumentName
    }
    keywords
    thumbnails(first: 24) {
      id
      mimeType
      url
      thumbnailName
    }
    scientificMetadata
    parents {
      uniqueId
      datasetName
    }
    children {
      uniqueId
      datasetName
    }
    samples {
      uniqueId
      sampleName
    }
    capabilities {
      canUpdate
      canAddFiles
      canEditMetadata
      canRequestDeletion
      canManageAccess
      canTransferOwnership
      canReassignProject
    }
    deletionRequest {
      id
      status
      reason
      requestTime
      requesterId
      requester {
        uniqueId
        username
        firstName
        lastName
      }
    }
  }
}
    `) as unknown as TypedDocumentString<DatasetPageQuery, DatasetPageQueryVariables>;
export const UpdateDatasetDocument = new TypedDocumentString(`
    mutation UpdateDataset($id: ID!, $input: UpdateDatasetInput!) {
  updateDataset(id: $id, input: $input) {
    uniqueId
  }
}
    `) as unknown as TypedDocumentString<UpdateDatasetMutation, UpdateDatasetMutationVariables>;
export const AddDatasetKeywordDocument = new TypedDocumentString(`
    mutation AddDatasetKeyword($id: ID!, $keyword: String!) {
  addDatasetKeyword(id: $id, keyword: $keyword) {
    keyword
  }
}
    `) as unknown as TypedDocumentString<AddDatasetKeywordMutation, AddDatasetKeywordMutationVariables>;
export const RequestDatasetDeletionDocument = new TypedDocumentString(`
    mutation RequestDatasetDeletion($id: ID!, $reason: String) {
  requestDeletion(id: $id, reason: $reason) {
    id
    status
  }
}
    `) as unknown as TypedDocumentString<RequestDatasetDeletionMutation, RequestDatasetDeletionMutationVariables>;
export const DatasetFilesDocument = new TypedDocumentString(`
    query DatasetFiles($id: ID!) {
  dataset(id: $id) {
    uniqueId
    files(first: 100) {
      totalCount
      nodes {
        uniqueId
        filename
        size
        sha256
        storageBackend
        ingestionStatus
        downloadUrl
        latestIngestion {
          id
          status
          errorMessage
          bytesRead
          bytesTotal
        }
      }
    }
  }
}
    `) as unknown as TypedDocumentString<DatasetFilesQuery, DatasetFilesQueryVariables>;
export const DatasetIngestionEventsDocument = new TypedDocumentString(`
    subscription DatasetIngestionEvents($dataset: ID!) {
  ingestionProgress(dataset: $dataset) {
    type
    payload
  }
}
    `) as unknown as TypedDocumentString<DatasetIngestionEventsSubscription, DatasetIngestionEventsSubscriptionVariables>;
export const AddDatasetFilesDocument = new TypedDocumentString(`
    mutation AddDatasetFiles($dataset: ID!, $file: Upload!) {
  addDatasetFile(dataset: $dataset, file: $file) {
    created
    file {
      uniqueId
      ingestionStatus
    }
  }
}
    `) as unknown as TypedDocumentString<AddDatasetFilesMutation, AddDatasetFilesMutationVariables>;
export const RerunIngestionDocument = new TypedDocumentString(`
    mutation RerunIngestion($fileId: ID!) {
  requestIngestion(fileId: $fileId) {
    id
    status
  }
}
    `) as unknown as TypedDocumentString<RerunIngestionMutation, RerunIngestionMutationVariables>;
export const DeleteDatasetFileDocument = new TypedDocumentString(`
    mutation DeleteDatasetFile($id: ID!) {
  deleteFile(id: $id)
}
    `) as unknown as TypedDocumentString<DeleteDatasetFileMutation, DeleteDatasetFileMutationVariables>;
export const MergeDatasetMetadataDocument = new TypedDocumentString(`
    mutation MergeDatasetMetadata($id: ID!, $metadata: JSONObject!) {
  mergeScientificMetadata(id: $id, metadata: $metadata)
}
    `) as unknown as TypedDocumentString<MergeDatasetMetadataMutation, MergeDatasetMetadataMutationVariables>;
export const LinkRecordsDocument = new TypedDocumentString(`
    mutation LinkRecords($input: LinkResourcesInput!) {
  linkResources(input: $input) {
    kind
  }
}
    `) as unknown as TypedDocumentString<LinkRecordsMutation, LinkRecordsMutationVariables>;
export const UnlinkRecordsDocument = new TypedDocumentString(`
    mutation UnlinkRecords($a: ID!, $b: ID!) {
  unlinkResources(a: $a, b: $b) {
    kind
  }
}
    `) as unknown as TypedDocumentString<UnlinkRecordsMutation, UnlinkRecordsMutationVariables>;
export const DatasetAccessDocument = new TypedDocumentString(`
    query DatasetAccess($id: ID!) {
  resourceAccess(id: $id) {
    grantsComplete
    grants {
      principalType
      principalId
      principalName
      permission
      grantedBy
      granter {
        uniqueId
        username
        firstName
        lastName
      }
    }
  }
}
    `) as unknown as TypedDocumentString<DatasetAccessQuery, DatasetAccessQueryVariables>;
export const GrantAccessDocument = new TypedDocumentString(`
    mutation GrantAccess($id: ID!, $kind: GrantKind!, $principal: String!, $permission: PermissionLevel!) {
  setAccess(id: $id, kind: $kind, principal: $principal, permission: $permission) {
    permission
  }
}
    `) as unknown as TypedDocumentString<GrantAccessMutation, GrantAccessMutationVariables>;
export const RevokeAccessDocument = new TypedDocumentString(`
    mutation RevokeAccess($id: ID!, $kind: GrantKind!, $principal: String!) {
  revokeAccess(id: $id, kind: $kind, principal: $principal)
}
    `) as unknown as TypedDocumentString<RevokeAccessMutation, RevokeAccessMutationVariables>;
export const TransferDatasetDocument = new TypedDocumentString(`
    mutation TransferDataset($id: ID!, $newOwner: String!, $confirm: Boolean!, $token: String) {
  transferOwnership(
    id: $id
    newOwner: $newOwner
    confirm: $confirm
    token: $token
  ) {
    ...ChangePreviewFields
  }
}
    fragment ChangePreviewFields on ChangePreviewType {
  action
  applied
  token
  currentOwner {
    uniqueId
    username
    firstName
    lastName
  }
  newOwner {
    uniqueId
    username
    firstName
    lastName
  }
  currentProject {
    projectId
  }
  newProject {
    projectId
  }
  gains {
    before
    after
    user {
      uniqueId
      username
      firstName
      lastName
    }
  }
  losses {
    before
    after
    user {
      uniqueId
      username
      firstName
      lastName
    }
  }
  grantsAffected {
    principalType
    principalId
    permission
    effect
    reason
  }
}`) as unknown as TypedDocumentString<TransferDatasetMutation, TransferDatasetMutationVariables>;
export const ReassignDatasetDocument = new TypedDocumentString(`
    mutation ReassignDataset($id: ID!, $projectId: String!, $confirm: Boolean!, $token: String) {
  reassignProject(
    id: $id
    projectId: $projectId
    confirm: $confirm
    token: $token
  ) {
    ...ChangePreviewFields
  }
}
    fragment ChangePreviewFields on ChangePreviewType {
  action
  applied
  token
  currentOwner {
    uniqueId
    username
    firstName
    lastName
  }
  newOwner {
    uniqueId
    username
    firstName
    lastName
  }
  currentProject {
    projectId
  }
  newProject {
    projectId
  }
  gains {
    before
    after
    user {
      uniqueId
      username
      firstName
      lastName
    }
  }
  losses {
    before
    after
    user {
      uniqueId
      username
      firstName
      lastName
    }
  }
  grantsAffected {
    principalType
    principalId
    permission
    effect
    reason
  }
}`) as unknown as TypedDocumentString<ReassignDatasetMutation, ReassignDatasetMutationVariables>;
export const PendingDeletionRequestsDocument = new TypedDocumentString(`
    query PendingDeletionRequests {
  deletionRequests(first: 100, status: "pending") {
    nodes {
      id
      resourceId
      resourceType
      resourceName
      requesterId
      requester {
        uniqueId
        username
        firstName
        lastName
      }
      reason
      requestTime
    }
  }
}
    `) as unknown as TypedDocumentString<PendingDeletionRequestsQuery, PendingDeletionRequestsQueryVariables>;
export const ReviewDeletionRequestDocument = new TypedDocumentString(`
    mutation ReviewDeletionRequest($id: Int!, $approve: Boolean!, $notes: String) {
  reviewDeletionRequest(id: $id, approve: $approve, reviewerNotes: $notes) {
    id
    status
  }
}
    `) as unknown as TypedDocumentString<ReviewDeletionRequestMutation, ReviewDeletionRequestMutationVariables>;
export const DatasetFacetsDocument = new TypedDocumentString(`
    query DatasetFacets($filter: DatasetFilterInput) {
  datasetFacets(filter: $filter) {
    total
    capped
    measurement {
      value
      label
      count
    }
    dataType {
      value
      label
      count
    }
    keyword {
      value
      label
      count
    }
    owner {
      value
      label
      count
    }
    instrument {
      value
      label
      count
    }
    project {
      value
      label
      count
    }
    public {
      value
      label
      count
    }
  }
}
    `) as unknown as TypedDocumentString<DatasetFacetsQuery, DatasetFacetsQueryVariables>;
export const DatasetListDocument = new TypedDocumentString(`
    query DatasetList($first: Int, $after: String, $filter: DatasetFilterInput, $orderBy: DatasetOrderInput) {
  datasets(first: $first, after: $after, filter: $filter, orderBy: $orderBy) {
    totalCount
    totalCountIsExact
    pageInfo {
      hasNextPage
      endCursor
    }
    nodes {
      ...DatasetRow
    }
  }
}
    fragment DatasetRow on Dataset {
  uniqueId
  datasetName
  measurement
  dataType
  creationTime
  public
  ownerOrcid
  owner {
    uniqueId
    username
  }
  project {
    projectId
    title
  }
  instrument {
    uniqueId
    instrumentName
  }
  firstThumbnail {
    id
    mimeType
    url
    thumbnailName
  }
}`) as unknown as TypedDocumentString<DatasetListQuery, DatasetListQueryVariables>;
export const InstrumentPageDocument = new TypedDocumentString(`
    query InstrumentPage($id: String!) {
  instrument(id: $id) {
    uniqueId
    instrumentId
    instrumentName
    instrumentType
    description
    location
    manufacturer
    model
    status
    otherId
    otherIdSource
    public
    capabilities {
      canUpdate
      canManageAccess
    }
    owner {
      uniqueId
      username
      firstName
      lastName
    }
    scientificMetadata
  }
}
    `) as unknown as TypedDocumentString<InstrumentPageQuery, InstrumentPageQueryVariables>;
export const UpdateInstrumentDocument = new TypedDocumentString(`
    mutation UpdateInstrument($id: String!, $input: UpdateInstrumentInput!) {
  updateInstrument(id: $id, input: $input) {
    uniqueId
  }
}
    `) as unknown as TypedDocumentString<UpdateInstrumentMutation, UpdateInstrumentMutationVariables>;
export const SetInstrumentStatusDocument = new TypedDocumentString(`
    mutation SetInstrumentStatus($id: String!, $status: InstrumentStatus!) {
  setInstrumentStatus(id: $id, status: $status) {
    uniqueId
    status
  }
}
    `) as unknown as TypedDocumentString<SetInstrumentStatusMutation, SetInstrumentStatusMutationVariables>;
export const PendingAccountsDocument = new TypedDocumentString(`
    query PendingAccounts {
  pendingUsers(first: 100) {
    total
    items {
      uniqueId
      username
      firstName
      lastName
      email
      pendingSince
    }
  }
}
    `) as unknown as TypedDocumentString<PendingAccountsQuery, PendingAccountsQueryVariables>;
export const ActivateAccountDocument = new TypedDocumentString(`
    mutation ActivateAccount($id: ID!) {
  activateUser(id: $id) {
    uniqueId
    pendingSince
  }
}
    `) as unknown as TypedDocumentString<ActivateAccountMutation, ActivateAccountMutationVariables>;
export const DisableAccountDocument = new TypedDocumentString(`
    mutation DisableAccount($id: ID!) {
  disableUser(id: $id) {
    uniqueId
    disabled
  }
}
    `) as unknown as TypedDocumentString<DisableAccountMutation, DisableAccountMutationVariables>;
export const ProjectPageDocument = new TypedDocumentString(`
    query ProjectPage($id: String!) {
  project(id: $id) {
    uniqueId
    projectId
    title
    description
    organization
    status
    creationTime
    lead {
      uniqueId
      username
      firstName
      lastName
    }
    scientificMetadata
    capabilities {
      canUpdate
      canManageMembers
    }
    members {
      role
      user {
        uniqueId
        username
        firstName
        lastName
      }
    }
    datasets(first: 1) {
      totalCount
    }
    samples(first: 25) {
      totalCount
      nodes {
        uniqueId
        sampleName
      }
    }
  }
}
    `) as unknown as TypedDocumentString<ProjectPageQuery, ProjectPageQueryVariables>;
export const UpdateProjectDocument = new TypedDocumentString(`
    mutation UpdateProject($id: String!, $input: UpdateProjectInput!) {
  updateProject(id: $id, input: $input) {
    projectId
  }
}
    `) as unknown as TypedDocumentString<UpdateProjectMutation, UpdateProjectMutationVariables>;
export const SetProjectMemberDocument = new TypedDocumentString(`
    mutation SetProjectMember($project: String!, $member: ProjectMemberInput!) {
  setProjectMember(project: $project, member: $member) {
    role
  }
}
    `) as unknown as TypedDocumentString<SetProjectMemberMutation, SetProjectMemberMutationVariables>;
export const RemoveProjectMemberDocument = new TypedDocumentString(`
    mutation RemoveProjectMember($project: String!, $user: String!) {
  removeProjectMember(project: $project, user: $user) {
    role
  }
}
    `) as unknown as TypedDocumentString<RemoveProjectMemberMutation, RemoveProjectMemberMutationVariables>;
export const PublicationPageDocument = new TypedDocumentString(`
    query PublicationPage($id: ID!) {
  publication(id: $id) {
    ...PublicationDescription
    citation
    doi
    registrationState
    registrationError
    publishedAt
    withdrawnAt
    withdrawalReason
    datasets {
      fileCount
      size
    }
    manifest {
      datasetId
      name
      files {
        size
      }
    }
    previousVersion {
      id
      title
      version
    }
    nextVersion {
      id
      state
      version
    }
  }
}
    fragment PublicationDescription on Publication {
  id
  state
  canChange
  title
  description
  creators {
    name
    orcid
    affiliations {
      name
      rorId
    }
  }
  license
  keywords
  version
  embargoUntil
  datasets {
    datasetId
    name
  }
}`) as unknown as TypedDocumentString<PublicationPageQuery, PublicationPageQueryVariables>;
export const PublishPublicationDocument = new TypedDocumentString(`
    mutation PublishPublication($id: ID!) {
  publishPublication(id: $id) {
    id
  }
}
    `) as unknown as TypedDocumentString<PublishPublicationMutation, PublishPublicationMutationVariables>;
export const NewPublicationVersionDocument = new TypedDocumentString(`
    mutation NewPublicationVersion($id: ID!) {
  newPublicationVersion(id: $id) {
    id
  }
}
    `) as unknown as TypedDocumentString<NewPublicationVersionMutation, NewPublicationVersionMutationVariables>;
export const WithdrawPublicationDocument = new TypedDocumentString(`
    mutation WithdrawPublication($id: ID!, $reason: String!) {
  withdrawPublication(id: $id, reason: $reason) {
    id
  }
}
    `) as unknown as TypedDocumentString<WithdrawPublicationMutation, WithdrawPublicationMutationVariables>;
export const PublicationListDocument = new TypedDocumentString(`
    query PublicationList($title: String, $state: String, $first: Int) {
  publications(title: $title, state: $state, first: $first) {
    total
    items {
      id
      title
      state
      version
      doi
      publishedAt
      creationTime
    }
  }
}
    `) as unknown as TypedDocumentString<PublicationListQuery, PublicationListQueryVariables>;
export const PublishMeDocument = new TypedDocumentString(`
    query PublishMe {
  me {
    user {
      username
      firstName
      lastName
    }
  }
}
    `) as unknown as TypedDocumentString<PublishMeQuery, PublishMeQueryVariables>;
export const PublishDatasetNameDocument = new TypedDocumentString(`
    query PublishDatasetName($id: ID!) {
  dataset(id: $id) {
    uniqueId
    datasetName
  }
}
    `) as unknown as TypedDocumentString<PublishDatasetNameQuery, PublishDatasetNameQueryVariables>;
export const PublicationToEditDocument = new TypedDocumentString(`
    query PublicationToEdit($id: ID!) {
  publication(id: $id) {
    ...PublicationDescription
    funding {
      funderName
      funderIdentifier
      awardNumber
      awardTitle
    }
    relatedIdentifiers {
      relatedIdentifier
      relatedIdentifierType
      relationType
    }
  }
}
    fragment PublicationDescription on Publication {
  id
  state
  canChange
  title
  description
  creators {
    name
    orcid
    affiliations {
      name
      rorId
    }
  }
  license
  keywords
  version
  embargoUntil
  datasets {
    datasetId
    name
  }
}`) as unknown as TypedDocumentString<PublicationToEditQuery, PublicationToEditQueryVariables>;
export const CreatePublicationDocument = new TypedDocumentString(`
    mutation CreatePublication($datasetIds: [ID!]!, $input: PublicationMetadataInput!) {
  createPublication(datasetIds: $datasetIds, input: $input) {
    id
  }
}
    `) as unknown as TypedDocumentString<CreatePublicationMutation, CreatePublicationMutationVariables>;
export const UpdatePublicationDocument = new TypedDocumentString(`
    mutation UpdatePublication($id: ID!, $input: PublicationMetadataInput!) {
  updatePublication(id: $id, input: $input) {
    id
  }
}
    `) as unknown as TypedDocumentString<UpdatePublicationMutation, UpdatePublicationMutationVariables>;
export const RemoveDatasetKeywordDocument = new TypedDocumentString(`
    mutation RemoveDatasetKeyword($id: ID!, $keyword: String!) {
  removeDatasetKeyword(id: $id, keyword: $keyword)
}
    `) as unknown as TypedDocumentString<RemoveDatasetKeywordMutation, RemoveDatasetKeywordMutationVariables>;
export const WithdrawDeletionRequestDocument = new TypedDocumentString(`
    mutation WithdrawDeletionRequest($id: Int!, $note: String) {
  withdrawDeletionRequest(id: $id, note: $note)
}
    `) as unknown as TypedDocumentString<WithdrawDeletionRequestMutation, WithdrawDeletionRequestMutationVariables>;
export const RecordHistoryDocument = new TypedDocumentString(`
    query RecordHistory($id: ID!) {
  resourceHistory(id: $id, first: 50) {
    nodes {
      uniqueId
      type
      time
      actorId
      payload
    }
  }
}
    `) as unknown as TypedDocumentString<RecordHistoryQuery, RecordHistoryQueryVariables>;
export const MetadataVersionsDocument = new TypedDocumentString(`
    query MetadataVersions($id: ID!, $before: Int) {
  metadataVersions(id: $id, first: 50, before: $before) {
    items {
      version
      time
      actorId
      data
    }
    nextBefore
  }
}
    `) as unknown as TypedDocumentString<MetadataVersionsQuery, MetadataVersionsQueryVariables>;
export const RestoreMetadataVersionDocument = new TypedDocumentString(`
    mutation RestoreMetadataVersion($id: ID!, $version: Int!) {
  restoreMetadataVersion(id: $id, version: $version) {
    version
  }
}
    `) as unknown as TypedDocumentString<RestoreMetadataVersionMutation, RestoreMetadataVersionMutationVariables>;
export const SampleListPageDocument = new TypedDocumentString(`
    query SampleListPage($first: Int!, $filter: SampleFilterInput) {
  samples(first: $first, filter: $filter) {
    totalCount
    pageInfo {
      hasNextPage
    }
    nodes {
      ...SampleListRow
    }
  }
}
    fragment SampleListRow on Sample {
  uniqueId
  sampleName
  sampleType
  public
  creationTime
  project {
    projectId
    title
  }
  owner {
    uniqueId
    username
    firstName
    lastName
  }
}`) as unknown as TypedDocumentString<SampleListPageQuery, SampleListPageQueryVariables>;
export const SampleSearchPageDocument = new TypedDocumentString(`
    query SampleSearchPage($q: String!, $projectId: String) {
  searchSamples(q: $q, projectId: $projectId, first: 50) {
    ...SampleListRow
  }
}
    fragment SampleListRow on Sample {
  uniqueId
  sampleName
  sampleType
  public
  creationTime
  project {
    projectId
    title
  }
  owner {
    uniqueId
    username
    firstName
    lastName
  }
}`) as unknown as TypedDocumentString<SampleSearchPageQuery, SampleSearchPageQueryVariables>;
export const SampleFacetsPageDocument = new TypedDocumentString(`
    query SampleFacetsPage($filter: SampleFilterInput) {
  type: sampleFacets(field: sample_type, filter: $filter) {
    value
    label
    count
  }
  project: sampleFacets(field: project, filter: $filter) {
    value
    label
    count
  }
  owner: sampleFacets(field: owner, filter: $filter) {
    value
    label
    count
  }
}
    `) as unknown as TypedDocumentString<SampleFacetsPageQuery, SampleFacetsPageQueryVariables>;
export const ProjectListPageDocument = new TypedDocumentString(`
    query ProjectListPage($first: Int!, $filter: ProjectFilterInput, $mine: ProjectFilterInput!) {
  projects(first: $first, filter: $filter) {
    totalCount
    pageInfo {
      hasNextPage
    }
    nodes {
      ...ProjectListRow
    }
  }
  all: projects(first: 1) {
    totalCount
  }
  mine: projects(first: 1, filter: $mine) {
    totalCount
  }
}
    fragment ProjectListRow on Project {
  uniqueId
  projectId
  title
  organization
  status
  lead {
    uniqueId
    username
    firstName
    lastName
  }
}`) as unknown as TypedDocumentString<ProjectListPageQuery, ProjectListPageQueryVariables>;
export const ProjectSearchPageDocument = new TypedDocumentString(`
    query ProjectSearchPage($q: String!) {
  searchProjects(q: $q, first: 50) {
    ...ProjectListRow
  }
}
    fragment ProjectListRow on Project {
  uniqueId
  projectId
  title
  organization
  status
  lead {
    uniqueId
    username
    firstName
    lastName
  }
}`) as unknown as TypedDocumentString<ProjectSearchPageQuery, ProjectSearchPageQueryVariables>;
export const ListMeDocument = new TypedDocumentString(`
    query ListMe {
  me {
    user {
      uniqueId
    }
    capabilities {
      canCreateProject
      canRegisterInstrument
    }
  }
}
    `) as unknown as TypedDocumentString<ListMeQuery, ListMeQueryVariables>;
export const InstrumentListPageDocument = new TypedDocumentString(`
    query InstrumentListPage($first: Int!, $status: [InstrumentStatus!]) {
  instruments(first: $first, status: $status) {
    totalCount
    pageInfo {
      hasNextPage
    }
    nodes {
      ...InstrumentListRow
    }
  }
  active: instruments(first: 1, status: [active]) {
    totalCount
  }
  maintenance: instruments(first: 1, status: [maintenance]) {
    totalCount
  }
  decommissioned: instruments(first: 1, status: [decommissioned]) {
    totalCount
  }
}
    fragment InstrumentListRow on Instrument {
  uniqueId
  instrumentName
  instrumentType
  manufacturer
  location
  status
  owner {
    uniqueId
    username
    firstName
    lastName
  }
}`) as unknown as TypedDocumentString<InstrumentListPageQuery, InstrumentListPageQueryVariables>;
export const InstrumentSearchPageDocument = new TypedDocumentString(`
    query InstrumentSearchPage($q: String!) {
  searchInstruments(q: $q, first: 50) {
    ...InstrumentListRow
  }
}
    fragment InstrumentListRow on Instrument {
  uniqueId
  instrumentName
  instrumentType
  manufacturer
  location
  status
  owner {
    uniqueId
    username
    firstName
    lastName
  }
}`) as unknown as TypedDocumentString<InstrumentSearchPageQuery, InstrumentSearchPageQueryVariables>;
export const SamplePageDocument = new TypedDocumentString(`
    query SamplePage($id: ID!) {
  sample(id: $id) {
    uniqueId
    sampleName
    sampleType
    description
    timestamp
    public
    creationTime
    ownerOrcid
    owner {
      uniqueId
      username
      firstName
      lastName
    }
    project {
      projectId
      title
    }
    scientificMetadata
    datasets {
      uniqueId
      datasetName
    }
    parents {
      uniqueId
      sampleName
    }
    children {
      uniqueId
      sampleName
    }
    deletionRequest {
      id
      status
      reason
      requestTime
      requesterId
    }
    capabilities {
      canUpdate
      canEditMetadata
      canManageAccess
      canTransferOwnership
      canReassignProject
      canRequestDeletion
    }
  }
}
    `) as unknown as TypedDocumentString<SamplePageQuery, SamplePageQueryVariables>;
export const UpdateSampleDocument = new TypedDocumentString(`
    mutation UpdateSample($id: ID!, $input: UpdateSampleInput!) {
  updateSample(id: $id, input: $input) {
    uniqueId
  }
}
    `) as unknown as TypedDocumentString<UpdateSampleMutation, UpdateSampleMutationVariables>;
export const FilterChoicesDocument = new TypedDocumentString(`
    query FilterChoices {
  me {
    projects {
      project {
        uniqueId
        projectId
        title
      }
    }
  }
  instruments(first: 200) {
    nodes {
      uniqueId
      instrumentName
    }
  }
}
    `) as unknown as TypedDocumentString<FilterChoicesQuery, FilterChoicesQueryVariables>;
export const EntityGraphDocument = new TypedDocumentString(`
    query EntityGraph($id: ID!, $depth: Int) {
  entityGraph(id: $id, depth: $depth) {
    ...GraphParts
  }
}
    fragment GraphParts on EntityGraph {
  nodes {
    id
    type
    name
    depth
    measurement
    sampleType
    firstThumbnail {
      mimeType
      url
      thumbnailName
    }
  }
  edges {
    source
    target
    kind
    relationshipType
  }
}`) as unknown as TypedDocumentString<EntityGraphQuery, EntityGraphQueryVariables>;
export const ProjectGraphDocument = new TypedDocumentString(`
    query ProjectGraph($project: String!) {
  projectGraph(project: $project) {
    ...GraphParts
  }
}
    fragment GraphParts on EntityGraph {
  nodes {
    id
    type
    name
    depth
    measurement
    sampleType
    firstThumbnail {
      mimeType
      url
      thumbnailName
    }
  }
  edges {
    source
    target
    kind
    relationshipType
  }
}`) as unknown as TypedDocumentString<ProjectGraphQuery, ProjectGraphQueryVariables>;