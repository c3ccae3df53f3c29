import { Field, ID, InputType, ObjectType, registerEnumType } from 'type-graphql';
import { IsOptional, Length, MaxLength } from 'class-validator';
import { connectionTypes } from '../../core/graphql/connection';
import { Instrument, type InstrumentStatus } from './instrument.entity';

/** The lifecycle statuses as a GraphQL enum (values spelled as on the wire). */
export const InstrumentStatusEnum: { [K in InstrumentStatus]: K } = {
  active: 'active',
  maintenance: 'maintenance',
  decommissioned: 'decommissioned',
};
registerEnumType(InstrumentStatusEnum, {
  name: 'InstrumentStatus',
  description: 'The lifecycle status of an instrument.',
  valuesConfig: {
    active: { description: 'In service (the default).' },
    maintenance: { description: 'Temporarily out of service.' },
    decommissioned: { description: 'Retired; its datasets stay.' },
  },
});

@ObjectType({ description: 'Identity and display fields of an instrument; implies no access to it.' })
export class InstrumentRef {
  @Field(() => ID, { description: 'The instrument MFID.' })
  uniqueId!: string;

  @Field({ description: 'The instrument slug.' })
  instrumentId!: string;

  @Field({ description: 'The instrument name.' })
  instrumentName!: string;
}

@ObjectType({ description: 'What the caller may do with an instrument (guidance; mutations re-check).' })
export class InstrumentCapabilities {
  @Field({ description: 'May read it.' })
  canRead!: boolean;

  @Field({ description: 'May change its fields.' })
  canUpdate!: boolean;

  @Field({ description: 'May grant and revoke access.' })
  canManageAccess!: boolean;

  @Field({ description: 'May transfer ownership.' })
  canTransferOwnership!: boolean;
}

@InputType({ description: 'Descriptive fields of an instrument.' })
class InstrumentTextInput {
  @Field(() => String, { nullable: true, description: 'Where it is.' })
  @IsOptional()
  @MaxLength(300)
  location?: string | null;

  @Field(() => String, { nullable: true, description: 'Manufacturer.' })
  @IsOptional()
  @MaxLength(300)
  manufacturer?: string | null;

  @Field(() => String, { nullable: true, description: 'Model.' })
  @IsOptional()
  @MaxLength(300)
  model?: string | null;

  @Field(() => String, { nullable: true, description: 'Kind of instrument.' })
  @IsOptional()
  @MaxLength(200)
  instrumentType?: string | null;

  @Field(() => String, { nullable: true, description: 'Free-text description.' })
  @IsOptional()
  description?: string | null;

  @Field(() => String, { nullable: true, description: 'An identifier in another registry.' })
  @IsOptional()
  @MaxLength(200)
  otherId?: string | null;

  @Field(() => String, { nullable: true, description: 'The registry otherId belongs to.' })
  @IsOptional()
  @MaxLength(200)
  otherIdSource?: string | null;

  @Field(() => InstrumentStatusEnum, {
    nullable: true,
    description: 'Lifecycle status (default active; null sets it back to active).',
  })
  @IsOptional()
  status?: InstrumentStatus | null;

  @Field(() => Boolean, { nullable: true, description: 'Whether it is listed publicly.' })
  @IsOptional()
  public?: boolean;
}

@InputType({ description: 'A new instrument.' })
export class CreateInstrumentInput extends InstrumentTextInput {
  @Field({ description: 'Registered name, unique.' })
  @Length(1, 200)
  instrumentName!: string;

  @Field(() => String, { nullable: true, description: 'Slug; derived from the name when omitted.' })
  @IsOptional()
  @Length(2, 64)
  instrumentId?: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'The owner (operator): ORCID, MFID, username or email. Defaults to you.',
  })
  @IsOptional()
  owner?: string | null;
}

@InputType({ description: 'Changes to an instrument; ownership changes only through ownership transfer.' })
export class UpdateInstrumentInput extends InstrumentTextInput {
  @Field(() => String, { nullable: true, description: 'A new name.' })
  @IsOptional()
  @Length(1, 200)
  instrumentName?: string;

  @Field(() => String, { nullable: true, description: 'A new slug (rename).' })
  @IsOptional()
  @Length(2, 64)
  instrumentId?: string;
}

export const { Connection: InstrumentConnection } = connectionTypes(
  'Instrument',
  Instrument,
  'A page of instruments.',
);
