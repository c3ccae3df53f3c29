import { Field, ID, ObjectType } from 'type-graphql';
import {
  PrimaryKeyProp,
  Entity,
  Enum,
  Index,
  ManyToOne,
  PrimaryKey,
  Property,
  type Rel,
} from '@mikro-orm/core';
import { TimedRecord } from '../../core/db/timed-record.entity';
import { User } from '../user/user.entity';
import { Node } from '../../core/graphql/node';

/**
 * The lifecycle of an instrument (the 3.2 client's `INSTRUMENT_STATUSES`): in service, under
 * maintenance, or retired. Descriptive: datasets may name an instrument in any status.
 */
export const INSTRUMENT_STATUSES = ['active', 'maintenance', 'decommissioned'] as const;
export type InstrumentStatus = (typeof INSTRUMENT_STATUSES)[number];

/** A registered instrument: a slug, a unique name, exactly one owner and descriptive fields. */
@ObjectType('Instrument', {
  implements: Node,
  description: 'A registered instrument.',
})
@Entity({ tableName: 'instrument' })
@Index({
  name: 'instrument_search_trgm_idx',
  expression:
    "create index instrument_search_trgm_idx on instrument using gin ((instrument_name || ' ' || coalesce(instrument_type, '') || ' ' || coalesce(manufacturer, '')) gin_trgm_ops)",
})
// the dataset filter on the instrument's name, ignoring case (docs/web-app.md, "Search that forgives")
@Index({
  name: 'instrument_name_lower_idx',
  expression: 'create index instrument_name_lower_idx on instrument (lower(instrument_name))',
})
export class Instrument extends TimedRecord<'status' | 'public'> {
  [PrimaryKeyProp]?: 'uniqueId';

  @Field(() => ID, { description: 'The instrument MFID.' })
  @PrimaryKey({ length: 26 })
  uniqueId!: string;

  @Field(() => String, { description: 'Human-readable slug, unique.' })
  @Property({ length: 100, unique: true })
  instrumentId!: string;

  @Field(() => String, { description: 'Registered name, unique.' })
  @Property({ length: 200, unique: true })
  instrumentName!: string;

  @Index()
  @ManyToOne(() => User, { fieldName: 'owner_id' })
  owner!: Rel<User>;

  @Field(() => String, { description: 'Lifecycle status: active, maintenance or decommissioned.' })
  @Enum({ items: () => INSTRUMENT_STATUSES, default: 'active' })
  status: InstrumentStatus = 'active';

  @Field(() => String, { description: 'Where the instrument is.', nullable: true })
  @Property({ length: 300, nullable: true })
  location?: string | null;

  @Field(() => String, { description: 'Manufacturer.', nullable: true })
  @Property({ length: 300, nullable: true })
  manufacturer?: string | null;

  @Field(() => String, { description: 'Model.', nullable: true })
  @Property({ length: 300, nullable: true })
  model?: string | null;

  @Field(() => String, { description: 'Kind of instrument.', nullable: true })
  @Property({ length: 200, nullable: true })
  instrumentType?: string | null;

  @Field(() => String, { description: 'Free-text description.', nullable: true })
  @Property({ type: 'text', nullable: true })
  description?: string | null;

  @Field(() => String, { description: 'An identifier in another registry.', nullable: true })
  @Property({ length: 200, nullable: true })
  otherId?: string | null;

  @Field(() => String, { description: 'The registry otherId belongs to.', nullable: true })
  @Property({ length: 200, nullable: true })
  otherIdSource?: string | null;

  @Field(() => Boolean, {
    description: 'Whether it is marked public (every signed-in user reads instruments either way).',
  })
  @Property({ default: false })
  public: boolean = false;
}
