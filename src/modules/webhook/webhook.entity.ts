import { Entity, Enum, Index, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';

/**
 * A webhook subscription: where to deliver which events, signed with its own secret (Standard
 * Webhooks). Owned by the user who created it: deliveries only ever carry what that user may
 * read at delivery time.
 */
@Entity({ tableName: 'webhook_subscription' })
@Index({ properties: ['ownerId'] })
export class WebhookSubscription {
  [OptionalProps]?: 'active' | 'failureStreak' | 'creationTime' | 'modificationTime';

  @PrimaryKey({ length: 26 })
  uniqueId!: string;

  @Property({ length: 32 })
  ownerId!: string;

  @Property({ length: 2000 })
  url!: string;

  /** `whsec_` + base64 of the key bytes; shown once, kept for signing */
  @Property({ length: 100, hidden: true })
  secret!: string;

  @Property({ length: 500, nullable: true })
  description?: string | null;

  /** the event types delivered; empty: all */
  @Property({ type: 'jsonb' })
  eventTypes!: string[];

  /** only events of resources in this project */
  @Property({ length: 26, nullable: true })
  projectMfid?: string | null;

  /** only events of this resource */
  @Property({ length: 26, nullable: true })
  resourceId?: string | null;

  /** a saved dataset search: only dataset events of datasets matching it (docs/events.md) */
  @Property({ type: 'jsonb', nullable: true })
  search?: Record<string, unknown> | null;

  @Property({ default: true })
  active: boolean = true;

  /** failed attempts in a row; past the configured limit the subscription is disabled */
  @Property({ default: 0 })
  failureStreak: number = 0;

  @Property({ type: 'text', nullable: true })
  disabledReason?: string | null;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  creationTime: Date = new Date();

  @Property({ type: 'timestamptz', defaultRaw: 'now()', onUpdate: () => new Date() })
  modificationTime: Date = new Date();
}

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed', 'skipped'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * One event to deliver to one subscription, and its log: attempts, the last response code and
 * error. Claimed under a lease (`lockedUntil`): a worker killed mid-delivery leaves it to be
 * delivered again (at-least-once). Per subscription and resource, only the oldest pending
 * delivery is attempted, so a receiver sees a resource's events in order.
 */
@Entity({ tableName: 'webhook_delivery' })
@Index({
  name: 'webhook_delivery_due_idx',
  expression:
    "create index webhook_delivery_due_idx on webhook_delivery (next_attempt_at, event_seq) where status = 'pending'",
})
@Index({ properties: ['subscriptionId', 'resourceId', 'eventSeq'] })
export class WebhookDelivery {
  [OptionalProps]?: 'status' | 'attempts' | 'nextAttemptAt' | 'createdAt';

  @PrimaryKey({ type: 'bigint', autoincrement: true })
  id!: string;

  @Property({ length: 26 })
  subscriptionId!: string;

  /** the outbox row (domain_event.id) */
  @Property({ type: 'bigint' })
  eventSeq!: string;

  @Property({ length: 26 })
  eventId!: string;

  @Property({ length: 60 })
  eventType!: string;

  @Property({ length: 26 })
  resourceId!: string;

  @Enum({ items: () => DELIVERY_STATUSES, default: 'pending' })
  status: DeliveryStatus = 'pending';

  @Property({ default: 0 })
  attempts: number = 0;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  nextAttemptAt: Date = new Date();

  @Property({ type: 'timestamptz', nullable: true })
  lockedUntil?: Date | null;

  @Property({ type: 'integer', nullable: true })
  lastStatusCode?: number | null;

  @Property({ type: 'text', nullable: true })
  lastError?: string | null;

  @Property({ type: 'timestamptz', nullable: true })
  deliveredAt?: Date | null;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  createdAt: Date = new Date();
}
