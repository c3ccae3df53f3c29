import { isObjectType, type GraphQLSchema } from 'graphql';

const VALUES = Symbol('preloaded');

type Carrier = { [VALUES]?: Record<string, unknown> };

/**
 * `node`, carrying the values of some of its type's resolver fields, computed by the query that
 * produced it, by field name (so for a field with arguments only where the caller has checked
 * that they do not change its value): their resolvers then return these instead of computing
 * them (see {@link servePreloaded}).
 */
export function preloaded<T extends object>(node: T, values: Record<string, unknown>): T {
  (node as Carrier)[VALUES] = values;
  return node;
}

/**
 * Wraps the resolvers of the fields of `typeNames` so that a node carrying a preloaded value of
 * the field answers with it; any other node goes to the resolver as before.
 */
export function servePreloaded(schema: GraphQLSchema, typeNames: readonly string[]): void {
  for (const name of typeNames) {
    const type = schema.getType(name);
    if (!isObjectType(type)) throw new Error(`${name} is not an object type of the schema`);
    for (const field of Object.values(type.getFields())) {
      const resolve = field.resolve;
      if (!resolve) continue;
      field.resolve = (source, args, context, info) => {
        const values = (source as Carrier)[VALUES];
        return values !== undefined && Object.hasOwn(values, info.fieldName)
          ? values[info.fieldName]
          : resolve(source, args, context, info);
      };
    }
  }
}

/**
 * The root of a field resolver that reads nothing of its record but the MFID. Declared as this
 * interface rather than the entity class, type-graphql hands the resolver the node as it is:
 * given a class, it copies any node that is not an instance of it (a plain list node) into a new
 * instance, an entity construction per field and node.
 */
export interface MfidNode {
  uniqueId: string;
}
