import { Field, ID, Int, ObjectType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import { Entity, Enum, Index, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { Node } from '../../core/graphql/node';

/**
 * A webhook subscription: where to deliver which events, signed with its own secret (Standard
 * Webhooks). Owned by the user who created it: deliveries only ever carry what that user may
 * read at delivery time.
 */
@ObjectType('Webhook', {
  implements: Node,
  description: 'A webhook subscription (docs/events.md); its secret is shown only on creation.',
})
@Entity({ tableName: 'webhook_subscription' })
@Index({ properties: ['ownerId'] })
export class WebhookSubscription {
  [OptionalProps]?: 'active' | 'failureStreak' | 'creationTime' | 'modificationTime';

  @Field(() => ID, { description: 'The subscription id (an MFID).' })
  @PrimaryKey({ length: 26 })
  uniqueId!: string;

  @Field({ description: 'Who created it: deliveries carry only what this user may read.' })
  @Property({ length: 32 })
  ownerId!: string;

  @Field({ description: 'Where events are POSTed.' })
  @Property({ length: 2000 })
  url!: string;

  /** `whsec_` + base64 of the key bytes; shown once, kept for signing */
  @Property({ length: 100, hidden: true })
  secret!: string;

  @Field(() => String, { nullable: true, description: 'A note.' })
  @Property({ length: 500, nullable: true })
  description?: string | null;

  /** the event types delivered; empty: all */
  @Field(() => [String], { description: 'The event types delivered; empty: all.' })
  @Property({ type: 'jsonb' })
  eventTypes!: string[];

  /** only events of resources in this project */
  @Field(() => String, { nullable: true, description: 'Only events of this project (MFID).' })
  @Property({ length: 26, nullable: true })
  projectMfid?: string | null;

  /** only events of this resource */
  @Field(() => String, { nullable: true, description: 'Only events of this resource.' })
  @Property({ length: 26, nullable: true })
  resourceId?: string | null;

  /** a saved dataset search: only dataset events of datasets matching it (docs/events.md) */
  @Field(() => GraphQLJSONObject, { nullable: true, description: 'The saved dataset search.' })
  @Property({ type: 'jsonb', nullable: true })
  search?: Record<string, unknown> | null;

  @Field({ description: 'Whether events are delivered.' })
  @Property({ default: true })
  active: boolean = true;

  /** failed attempts in a row; past the configured limit the subscription is disabled */
  @Field(() => Int, { description: 'Failed attempts in a row.' })
  @Property({ default: 0 })
  failureStreak: number = 0;

  @Field(() => String, { nullable: true, description: 'Why it was disabled automatically.' })
  @Property({ type: 'text', nullable: true })
  disabledReason?: string | null;

  @Field({ description: 'When it was created.' })
  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  creationTime: Date = new Date();

  @Property({ type: 'timestamptz', defaultRaw: 'now()', onUpdate: () => new Date() })
  modificationTime: Date = new Date();
}

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed', 'skipped'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * One event to deliver to one subscription, and its log: attempts, the last response code and
 * error (for a skipped one, why: naming no record, as skipped ones are counted, never listed).
 * Claimed under a lease (`lockedUntil`): a worker killed mid-delivery leaves it to be
 * delivered again (at-least-once). Per subscription and resource, only the oldest pending
 * delivery is attempted, so a receiver sees a resource's events in order.
 */
@ObjectType('WebhookDelivery', {
  implements: Node,
  description: 'One event delivered (or to deliver) to a webhook: the delivery log.',
})
@Entity({ tableName: 'webhook_delivery' })
@Index({
  name: 'webhook_delivery_due_idx',
  expression:
    "create index webhook_delivery_due_idx on webhook_delivery (next_attempt_at, event_seq) where status = 'pending'",
})
@Index({ properties: ['subscriptionId', 'resourceId', 'eventSeq'] })
export class WebhookDelivery {
  [OptionalProps]?: 'status' | 'attempts' | 'nextAttemptAt' | 'createdAt';

  @Field(() => ID, { description: 'The delivery id.' })
  @PrimaryKey({ type: 'bigint', autoincrement: true })
  id!: string;

  @Property({ length: 26 })
  subscriptionId!: string;

  /** the outbox row (domain_event.id) */
  @Property({ type: 'bigint' })
  eventSeq!: string;

  @Field({ description: 'The event (webhook-id).' })
  @Property({ length: 26 })
  eventId!: string;

  @Field({ description: 'The event type.' })
  @Property({ length: 60 })
  eventType!: string;

  @Field({ description: 'The resource of the event.' })
  @Property({ length: 26 })
  resourceId!: string;

  @Field(() => String, { description: 'pending, delivered or failed.' })
  @Enum({ items: () => DELIVERY_STATUSES, default: 'pending' })
  status: DeliveryStatus = 'pending';

  @Field(() => Int, { description: 'Attempts so far.' })
  @Property({ default: 0 })
  attempts: number = 0;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  nextAttemptAt: Date = new Date();

  @Property({ type: 'timestamptz', nullable: true })
  lockedUntil?: Date | null;

  @Field(() => Int, { nullable: true, description: 'The last HTTP status the receiver answered.' })
  @Property({ type: 'integer', nullable: true })
  lastStatusCode?: number | null;

  @Field(() => String, { nullable: true, description: 'The last error.' })
  @Property({ type: 'text', nullable: true })
  lastError?: string | null;

  @Field(() => Date, { nullable: true, description: 'When it was delivered.' })
  @Property({ type: 'timestamptz', nullable: true })
  deliveredAt?: Date | null;

  @Field({ description: 'When the delivery was created.' })
  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  createdAt: Date = new Date();
}
