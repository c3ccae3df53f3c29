import { Field, ID, InputType, ObjectType } from 'type-graphql';
import { GraphQLSafeInt } from 'graphql-scalars';
import { Node } from '../../core/graphql/node';
import type { Publication } from './publication.entity';
import { registrationState, type RegistrationState } from './datacite-registration';

@ObjectType('PublicationAffiliation', { description: 'An affiliation of a creator.' })
export class AffiliationType {
  @Field({ description: 'The organisation.' })
  name!: string;

  @Field(() => String, { nullable: true, description: 'Its ROR id, as its URL.' })
  rorId!: string | null;
}

@ObjectType('PublicationCreator', { description: 'A creator of a publication.' })
export class CreatorType {
  @Field({ description: 'The name ("Family, Given" for a person).' })
  name!: string;

  @Field(() => String, { nullable: true, description: 'The ORCID iD (0000-0002-1825-0097).' })
  orcid!: string | null;

  @Field(() => [AffiliationType], { description: 'The affiliations.' })
  affiliations!: AffiliationType[];
}

@ObjectType('PublicationFunding', { description: 'A funding reference.' })
export class FundingType {
  @Field({ description: 'The funder.' })
  funderName!: string;

  @Field(() => String, {
    nullable: true,
    description: "The funder's identifier (a ROR or Crossref Funder id).",
  })
  funderIdentifier!: string | null;

  @Field(() => String, { nullable: true, description: 'The award number.' })
  awardNumber!: string | null;

  @Field(() => String, { nullable: true, description: 'The award title.' })
  awardTitle!: string | null;
}

@ObjectType('PublicationRelatedIdentifier', { description: 'A related identifier (DataCite).' })
export class RelatedIdentifierType {
  @Field({ description: 'The identifier.' })
  relatedIdentifier!: string;

  @Field({ description: 'Its type (DOI, URL, …).' })
  relatedIdentifierType!: string;

  @Field({ description: 'How this publication relates to it (Cites, IsSupplementTo, …).' })
  relationType!: string;
}

@ObjectType('PublicationFile', { description: 'A file of a published manifest, as it was published.' })
export class ManifestFileType {
  @Field(() => ID, { description: 'The file MFID (the file may have changed or gone since).' })
  fileId!: string;

  @Field({ description: 'The file name.' })
  name!: string;

  @Field(() => GraphQLSafeInt, { description: 'Size in bytes.' })
  size!: number;

  @Field({ description: 'SHA-256 of the contents, lowercase hex.' })
  sha256!: string;
}

@ObjectType('PublicationDataset', { description: 'A dataset of a published manifest.' })
export class ManifestDatasetType {
  @Field(() => ID, { description: 'The dataset MFID.' })
  datasetId!: string;

  @Field(() => String, { nullable: true, description: 'Its name when published.' })
  name!: string | null;

  @Field(() => [ManifestFileType], { description: 'Its files when published.' })
  files!: ManifestFileType[];
}

@ObjectType('Publication', {
  implements: Node,
  description:
    'Datasets made citable (docs/publications.md): a draft, then published with its metadata and manifest frozen, or withdrawn (a tombstone).',
})
export class PublicationType {
  @Field(() => ID, { description: 'The publication MFID.' })
  id!: string;

  @Field({ description: 'draft, published or withdrawn.' })
  state!: string;

  @Field({ description: 'The user who created the draft.' })
  creatorId!: string;

  @Field({ description: 'The title.' })
  title!: string;

  @Field({ description: 'The description (50 to 5,000 characters).' })
  description!: string;

  @Field(() => [CreatorType], { description: 'The creators, in order.' })
  creators!: CreatorType[];

  @Field({ description: 'The SPDX license id.' })
  license!: string;

  @Field(() => [String], { description: 'The keywords.' })
  keywords!: string[];

  @Field(() => [FundingType], { description: 'The funding references.' })
  funding!: FundingType[];

  @Field(() => [RelatedIdentifierType], { description: 'The related identifiers the creators gave.' })
  relatedIdentifiers!: RelatedIdentifierType[];

  @Field(() => String, { nullable: true, description: 'The version.' })
  version!: string | null;

  @Field(() => [ID], { description: 'The datasets (MFIDs), in order.' })
  datasetIds!: string[];

  @Field(() => [ManifestDatasetType], {
    nullable: true,
    description: 'The frozen manifest: set once published, null for drafts and withdrawn ones.',
  })
  manifest!: ManifestDatasetType[] | null;

  @Field(() => String, {
    nullable: true,
    description: 'The DOI (chosen at creation when DataCite is configured; it never changes), else null.',
  })
  doi!: string | null;

  @Field(() => String, {
    description:
      "The DOI's registration at DataCite: none (no DataCite), pending (not yet where it should be), draft, registered, findable (as DataCite confirmed), failed (refused: see registrationError).",
  })
  registrationState!: RegistrationState;

  /** for the registrationError field resolver (shown only to those who may change it) */
  source!: Publication;

  @Field(() => ID, { nullable: true, description: 'The version this one follows.' })
  previousVersionId!: string | null;

  @Field(() => Date, { nullable: true, description: 'When it was published.' })
  publishedAt!: Date | null;

  @Field(() => Date, {
    nullable: true,
    description:
      'Until when the files of its datasets stay closed to readers without a role on them (null: no embargo).',
  })
  embargoUntil!: Date | null;

  @Field(() => Date, { nullable: true, description: 'When it was withdrawn.' })
  withdrawnAt!: Date | null;

  @Field(() => String, { nullable: true, description: 'Why it was withdrawn.' })
  withdrawalReason!: string | null;

  @Field({ description: 'When the draft was created.' })
  creationTime!: Date;
}

/** The GraphQL view of a publication (a withdrawn one keeps no manifest to show). */
export function toPublicationType(pub: Publication): PublicationType {
  const m = pub.metadata;
  return {
    id: pub.uniqueId,
    state: pub.state,
    creatorId: pub.creatorId,
    title: m.title,
    description: m.description,
    creators: m.creators,
    license: m.license,
    keywords: m.keywords,
    funding: m.funding,
    relatedIdentifiers: m.relatedIdentifiers,
    version: m.version,
    datasetIds: pub.datasetIds,
    manifest: pub.state === 'published' ? (pub.manifest ?? null) : null,
    doi: pub.doi ?? null,
    registrationState: registrationState(pub),
    source: pub,
    previousVersionId: pub.previousVersionId ?? null,
    publishedAt: pub.publishedAt ?? null,
    embargoUntil: pub.embargoUntil ?? null,
    withdrawnAt: pub.withdrawnAt ?? null,
    withdrawalReason: pub.withdrawalReason ?? null,
    creationTime: pub.creationTime,
  };
}

@InputType('PublicationAffiliationInput', { description: 'An affiliation.' })
export class AffiliationInput {
  @Field({ description: 'The organisation.' })
  name!: string;

  @Field(() => String, { nullable: true, description: 'Its ROR id (bare or as its URL).' })
  rorId?: string | null;
}

@InputType('PublicationCreatorInput', { description: 'A creator.' })
export class CreatorInput {
  @Field({ description: 'The name ("Family, Given" for a person).' })
  name!: string;

  @Field(() => String, {
    nullable: true,
    description: 'The ORCID iD (bare or as its URL); its check digit is verified.',
  })
  orcid?: string | null;

  @Field(() => [AffiliationInput], { nullable: true, description: 'The affiliations (at most 20).' })
  affiliations?: AffiliationInput[] | null;
}

@InputType('PublicationFundingInput', { description: 'A funding reference.' })
export class FundingInput {
  @Field({ description: 'The funder.' })
  funderName!: string;

  @Field(() => String, { nullable: true, description: "The funder's identifier." })
  funderIdentifier?: string | null;

  @Field(() => String, { nullable: true, description: 'The award number.' })
  awardNumber?: string | null;

  @Field(() => String, { nullable: true, description: 'The award title.' })
  awardTitle?: string | null;
}

@InputType('PublicationRelatedIdentifierInput', { description: 'A related identifier.' })
export class RelatedIdentifierInput {
  @Field({ description: 'The identifier.' })
  relatedIdentifier!: string;

  @Field({ description: 'Its DataCite type (DOI, URL, …).' })
  relatedIdentifierType!: string;

  @Field({
    description: 'The DataCite relation (Cites, IsSupplementTo, …); version links are made by the service.',
  })
  relationType!: string;
}

@InputType({ description: 'The metadata of a publication; in a change, what is left out is kept.' })
export class PublicationMetadataInput {
  @Field(() => String, { nullable: true, description: 'The title (at most 500 characters).' })
  title?: string;

  @Field(() => String, { nullable: true, description: 'The description (50 to 5,000 characters).' })
  description?: string;

  @Field(() => [CreatorInput], { nullable: true, description: 'The creators (1 to 100).' })
  creators?: CreatorInput[];

  @Field(() => String, { nullable: true, description: 'An SPDX license id (CC-BY-4.0, CC0-1.0, …).' })
  license?: string;

  @Field(() => [String], { nullable: true, description: 'Keywords (at most 50).' })
  keywords?: string[];

  @Field(() => [FundingInput], { nullable: true, description: 'Funding references (at most 50).' })
  funding?: FundingInput[];

  @Field(() => [RelatedIdentifierInput], {
    nullable: true,
    description: 'Related identifiers (at most 100).',
  })
  relatedIdentifiers?: RelatedIdentifierInput[];

  @Field(() => String, { nullable: true, description: 'The version.' })
  version?: string | null;

  @Field(() => String, {
    nullable: true,
    description:
      'The embargo date (ISO 8601 date-time with offset, or a date; null clears it): the files stay closed to readers without a role on the datasets until then.',
  })
  embargoUntil?: string | null;
}
