import { isInputObjectType, isInterfaceType, isObjectType } from 'graphql';
import { buildGraphqlSchema } from '../../src/core/graphql/schema';

/** Every type, field, argument and input field a client sees must say what it is. */
test('the GraphQL schema describes everything', async () => {
  const schema = await buildGraphqlSchema();
  const missing: string[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__') || ['String', 'Int', 'Float', 'Boolean', 'ID'].includes(type.name))
      continue;
    const root = ['Query', 'Mutation', 'Subscription'].includes(type.name);
    if (!type.description && !root) missing.push(type.name);
    if (isObjectType(type) || isInterfaceType(type)) {
      for (const field of Object.values(type.getFields())) {
        if (!field.description) missing.push(`${type.name}.${field.name}`);
        for (const arg of field.args)
          if (!arg.description) missing.push(`${type.name}.${field.name}(${arg.name})`);
      }
    } else if (isInputObjectType(type)) {
      for (const field of Object.values(type.getFields())) {
        if (!field.description) missing.push(`${type.name}.${field.name}`);
      }
    }
  }
  expect(missing).toEqual([]);
});
