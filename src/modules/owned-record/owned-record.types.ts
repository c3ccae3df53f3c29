import { Field, InputType, ObjectType, type ClassType } from 'type-graphql';
import { IsOptional, Matches } from 'class-validator';
import { GraphQLJSONObject } from 'graphql-scalars';
import { MFID_PATTERN } from '../../core/ids';
import { MetadataConditionInput } from '../metadata-store/metadata.types';
import type { RecordCapabilities } from '../permission/owned-record.policy';

/*
 * The GraphQL fields datasets and samples share. These bases are not schema types themselves
 * (type-graphql emits only the types the schema references); fields whose descriptions differ
 * between the two stay in their own types.
 */

/**
 * The fields of the GraphQL types `Dataset` and `Sample` that come straight from the columns
 * both share. Their nodes are rows (owned-record-row.ts): these fields read them as they are.
 */
@ObjectType()
export abstract class OwnedRecordType {
  @Field({ description: 'Whether every authenticated user may read it.' })
  public!: boolean;

  @Field({ description: 'When the record was created.' })
  creationTime!: Date;

  @Field({ description: 'When the record last changed.' })
  modificationTime!: Date;
}

@ObjectType()
export class RecordCapabilitiesType implements Omit<RecordCapabilities, 'canEditMetadata'> {
  @Field({ description: 'May read it.' }) canRead!: boolean;
  @Field({ description: 'May change its fields.' }) canUpdate!: boolean;
  @Field({ description: 'May grant and revoke access, and make it public or private.' })
  canManageAccess!: boolean;
  @Field({ description: 'May transfer its ownership.' }) canTransferOwnership!: boolean;
  @Field({ description: 'May reassign it to another project.' }) canReassignProject!: boolean;
  @Field({ description: 'May request its deletion.' }) canRequestDeletion!: boolean;
  @Field({ description: 'May delete it outright (platform administrators).' }) canDelete!: boolean;
}

@InputType()
export class OwnedRecordFilterInput {
  @Field(() => String, { nullable: true, description: 'Project slug.' }) projectId?: string;
  @Field(() => String, { nullable: true, description: 'Owner ORCID or MFID.' }) ownerOrcid?: string;
  @Field(() => String, { nullable: true, description: 'Timestamp, as stored.' }) timestamp?: string;
  @Field(() => Boolean, { nullable: true, description: 'Public or not.' }) public?: boolean;
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

/** What an update of a dataset or sample may change besides its text fields. */
@InputType()
export class OwnedRecordChangesInput {
  @Field(() => Boolean, { nullable: true, description: 'Whether every authenticated user may read it.' })
  @IsOptional()
  public?: boolean;
}

/** `Changes` (a record's updatable fields) plus what only a new record says. */
export function withCreationFields<TChanges extends ClassType<OwnedRecordChangesInput>>(Changes: TChanges) {
  @InputType()
  class CreationFields extends Changes {
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
  return CreationFields;
}
