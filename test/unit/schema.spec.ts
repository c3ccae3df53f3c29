import fs from 'node:fs';
import {
  getIntrospectionQuery,
  graphqlSync,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  isUnionType,
  isScalarType,
  type GraphQLSchema,
} from 'graphql';
import { buildGraphqlSchema, printSortedSchema } from '../../src/core/graphql/schema';
import { RESOLVERS } from '../../src/modules/resolvers';

let schema: GraphQLSchema;
beforeAll(async () => {
  schema = await buildGraphqlSchema(RESOLVERS);
});

test('every type, field, argument, input field and enum value has a description', () => {
  const missing: string[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__') || ['String', 'Int', 'Float', 'Boolean', 'ID'].includes(type.name))
      continue;
    const root = [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].includes(
      type as never,
    );
    if (!type.description && !root) missing.push(type.name);
    if (isObjectType(type) || isInterfaceType(type)) {
      for (const field of Object.values(type.getFields())) {
        if (!field.description) missing.push(`${type.name}.${field.name}`);
        for (const arg of field.args)
          if (!arg.description) missing.push(`${type.name}.${field.name}(${arg.name})`);
      }
    } else if (isInputObjectType(type)) {
      for (const field of Object.values(type.getFields()))
        if (!field.description) missing.push(`${type.name}.${field.name}`);
    } else if (isEnumType(type)) {
      for (const value of type.getValues())
        if (!value.description) missing.push(`${type.name}.${value.name}`);
    } else if (!isUnionType(type) && !isScalarType(type)) {
      missing.push(`${(type as { name: string }).name} (unexpected kind)`);
    }
  }
  expect(missing).toEqual([]);
});

test('schema.graphql is the schema the code produces', () => {
  expect(fs.readFileSync('schema.graphql', 'utf8')).toBe(printSortedSchema(schema));
});

// buildGraphqlSchema skips type-graphql's own check (the introspection query over the new schema,
// 60% of the build): it runs here once instead of at every start
test('the whole introspection query runs on the schema without an error', () => {
  const result = graphqlSync({ schema, source: getIntrospectionQuery() });
  expect(result.errors).toBeUndefined();
  expect(result.data).toHaveProperty('__schema.queryType.name', 'Query');
});
