import { Entity, Index, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';

/**
 * One domain event: a row of the transactional outbox (DESIGN §12), written in the transaction
 * of the change it records. Append-only: history, webhooks and GraphQL subscriptions read it;
 * nothing updates a row except the webhook fan-out's `dispatched` mark. It carries no foreign
 * keys, so it outlives the resource it describes.
 */
@Entity({ tableName: 'domain_event' })
@Index({ properties: ['resourceId', 'id'] })
@Index({
  name: 'domain_event_undispatched_idx',
  expression: 'create index domain_event_undispatched_idx on domain_event (id) where not dispatched',
})
export class DomainEvent {
  [OptionalProps]?: 'occurredAt' | 'dispatched';

  /** commit-independent sequence: the order events were written in */
  @PrimaryKey({ type: 'bigint', autoincrement: true })
  id!: string;

  /** the public id (an MFID): `webhook-id` of its deliveries */
  @Property({ length: 26, unique: true })
  eventId!: string;

  @Property({ length: 60 })
  type!: string;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  occurredAt: Date = new Date();

  /** the user who caused it; null for the service itself (workers, retention) */
  @Property({ length: 32, nullable: true })
  actorId?: string | null;

  @Property({ length: 26 })
  resourceId!: string;

  @Property({ length: 20 })
  resourceType!: string;

  /** the MFID of the resource's project at the time of the event */
  @Property({ length: 26, nullable: true })
  projectMfid?: string | null;

  @Property({ type: 'jsonb' })
  payload: Record<string, unknown> = {};

  /** set once the webhook fan-out has turned it into deliveries */
  @Property({ default: false })
  dispatched: boolean = false;
}
