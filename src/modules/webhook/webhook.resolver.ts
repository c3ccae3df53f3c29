import {
  Arg,
  Ctx,
  Field,
  FieldResolver,
  ID,
  InputType,
  Int,
  Mutation,
  ObjectType,
  Query,
  Resolver,
  Root,
} from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import type { RequestContext } from '../../core/context';
import { pageSize } from '../../core/pagination';
import { WebhookDelivery, WebhookSubscription } from './webhook.entity';
import { isIntegerKey, nodeType } from '../../core/graphql/node';
import { isMfid } from '../../core/ids';

@InputType({ description: 'A webhook subscription to create (docs/events.md).' })
class CreateWebhookInput {
  @Field({
    description:
      'Where events are POSTed (http or https): a public address, or one of WEBHOOK_ALLOW_NETWORKS (docs/events.md).',
  })
  url!: string;

  @Field(() => String, { nullable: true, description: 'A note.' })
  description?: string | null;

  @Field(() => [String], { nullable: true, description: 'The event types to deliver; empty or absent: all.' })
  eventTypes?: string[] | null;

  @Field(() => String, { nullable: true, description: 'Only events of this project (slug or MFID).' })
  projectId?: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'Only events of this resource (which you must be able to read).',
  })
  resourceId?: string | null;

  @Field(() => GraphQLJSONObject, {
    nullable: true,
    description: 'A saved dataset search: {keyword, measurement, instrument_name, project_id, metadata}.',
  })
  search?: Record<string, unknown> | null;
}

@InputType({ description: 'Changes to a webhook subscription.' })
class UpdateWebhookInput {
  @Field(() => String, { nullable: true, description: 'A new URL (the same rules as at creation).' })
  url?: string;

  @Field(() => String, { nullable: true, description: 'A new note.' })
  description?: string | null;

  @Field(() => [String], { nullable: true, description: 'The event types to deliver.' })
  eventTypes?: string[];

  @Field(() => Boolean, {
    nullable: true,
    description: 'Pause or resume (resuming clears the failure streak).',
  })
  active?: boolean;
}

@ObjectType({ description: 'A new webhook subscription and its secret, shown this once.' })
class CreatedWebhook {
  @Field(() => WebhookSubscription, { description: 'The subscription.' })
  webhook!: WebhookSubscription;

  @Field({ description: 'The signing secret (whsec_...): keep it, it is not shown again.' })
  secret!: string;
}

@Resolver(() => WebhookSubscription)
export class WebhookResolver {
  @Query(() => [WebhookSubscription], { description: 'Your webhook subscriptions (platform admins: all).' })
  webhooks(@Ctx() ctx: RequestContext) {
    return ctx.services.webhook.list(ctx);
  }

  @FieldResolver(() => Int, {
    description:
      'Events not delivered because the owner could not read their resource when they were due; the log does not list them.',
  })
  skippedCount(@Root() webhook: WebhookSubscription, @Ctx() ctx: RequestContext) {
    return ctx.services.webhook.skippedCount(ctx, webhook);
  }

  @Query(() => [WebhookDelivery], {
    description:
      'The delivery log of a webhook subscription, newest first; skipped events are only counted (skippedCount).',
  })
  webhookDeliveries(
    @Arg('id', () => ID, { description: 'The subscription id.' }) id: string,
    @Arg('first', () => Int, { nullable: true, description: 'How many (default 100, at most 1000).' })
    first: number | undefined,
    @Ctx() ctx: RequestContext,
  ) {
    return ctx.services.webhook.deliveries(ctx, id, pageSize('first', first ?? 100, 1000));
  }

  @Mutation(() => CreatedWebhook, {
    description: 'Subscribes a URL to events; the secret is returned this once.',
  })
  async createWebhook(
    @Arg('input', () => CreateWebhookInput, { description: 'The subscription.' }) input: CreateWebhookInput,
    @Ctx() ctx: RequestContext,
  ): Promise<CreatedWebhook> {
    const { subscription, secret } = await ctx.services.webhook.create(ctx, { ...input });
    return { webhook: subscription, secret };
  }

  @Mutation(() => WebhookSubscription, { description: 'Changes a webhook subscription.' })
  updateWebhook(
    @Arg('id', () => ID, { description: 'The subscription id.' }) id: string,
    @Arg('input', () => UpdateWebhookInput, { description: 'The changes.' }) input: UpdateWebhookInput,
    @Ctx() ctx: RequestContext,
  ) {
    return ctx.services.webhook.update(ctx, id, { ...input });
  }

  @Mutation(() => ID, { description: 'Deletes a webhook subscription and its delivery log; returns its id.' })
  async deleteWebhook(
    @Arg('id', () => ID, { description: 'The subscription id.' }) id: string,
    @Ctx() ctx: RequestContext,
  ) {
    return (await ctx.services.webhook.remove(ctx, id)).uniqueId;
  }

  @Mutation(() => WebhookDelivery, { description: 'Delivers an event to a webhook again.' })
  redeliverWebhook(
    @Arg('id', () => ID, { description: 'The subscription id.' }) id: string,
    @Arg('delivery', () => ID, { description: 'The delivery id.' }) delivery: string,
    @Ctx() ctx: RequestContext,
  ) {
    return ctx.services.webhook.redeliver(ctx, id, delivery);
  }
}

/** Webhook subscriptions as `Node`s (their owner and platform admins, as `webhookDeliveries`). */
export const WEBHOOK_NODE = nodeType<WebhookSubscription>(
  'Webhook',
  isMfid,
  (w) => w.uniqueId,
  (ctx, keys) => ctx.services.webhook.readable(ctx, keys),
);

/** Deliveries of a webhook's log as `Node`s (as the log lists them, to whoever may read it). */
export const WEBHOOK_DELIVERY_NODE = nodeType<WebhookDelivery>(
  'WebhookDelivery',
  (key) => isIntegerKey(key, 2n ** 63n - 1n),
  (d) => d.id,
  (ctx, keys) => ctx.services.webhook.readableDeliveries(ctx, keys),
);
