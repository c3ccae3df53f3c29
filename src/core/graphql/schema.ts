import 'reflect-metadata';
import { buildSchema } from 'type-graphql';
import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { RESOLVERS } from '../../modules/resolvers';

/** Builds the executable schema from the resolver classes. */
export function buildGraphqlSchema(): Promise<GraphQLSchema> {
  return buildSchema({
    resolvers: RESOLVERS,
    validate: { forbidUnknownValues: false },
  });
}

/** The SDL committed as `schema.graphql`: sorted, so it only changes when the API does. */
export function printSortedSchema(schema: GraphQLSchema): string {
  const header =
    '# Generated from the code by `npm run schema:emit`. Do not edit: CI fails when it drifts.\n\n';
  return header + printSchema(lexicographicSortSchema(schema)) + '\n';
}
