import 'reflect-metadata';
import { buildSchema, type BuildSchemaOptions } from 'type-graphql';
import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';

/**
 * Builds the executable schema from the resolver classes, handed over by the application
 * (`RESOLVERS`).
 */
export function buildGraphqlSchema(resolvers: BuildSchemaOptions['resolvers']): Promise<GraphQLSchema> {
  return buildSchema({
    resolvers,
    validate: { forbidUnknownValues: false },
  });
}

/** The SDL committed as `schema.graphql`: sorted, so it only changes when the API does. */
export function printSortedSchema(schema: GraphQLSchema): string {
  const header =
    '# Generated from the code by `npm run schema:emit`. Do not edit: CI fails when it drifts.\n\n';
  return header + printSchema(lexicographicSortSchema(schema)) + '\n';
}
