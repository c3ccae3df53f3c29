import 'reflect-metadata';
import { buildSchema, type BuildSchemaOptions, type PubSub } from 'type-graphql';
import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';

/**
 * Builds the executable schema from the resolver classes, handed over by the application
 * (`RESOLVERS`).
 */
export async function buildGraphqlSchema(resolvers: BuildSchemaOptions['resolvers']): Promise<GraphQLSchema> {
  return buildSchema({
    resolvers,
    validate: { forbidUnknownValues: false },
    pubSub: NO_TOPICS,
  });
}

/**
 * Subscriptions bring their own event streams (`@Subscription({subscribe})`, fed from the
 * outbox); type-graphql wants a topic bus all the same, and this one has no topics.
 */
const NO_TOPICS: PubSub = {
  publish() {
    throw new Error('subscriptions are fed from the outbox, not published to topics');
  },
  subscribe() {
    throw new Error('subscriptions are fed from the outbox, not published to topics');
  },
};

/** The SDL committed as `schema.graphql`: sorted, so it only changes when the API does. */
export function printSortedSchema(schema: GraphQLSchema): string {
  const header =
    '# Generated from the code by `npm run schema:emit`. Do not edit: CI fails when it drifts.\n\n';
  return header + printSchema(lexicographicSortSchema(schema)) + '\n';
}
