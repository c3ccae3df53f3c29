import 'reflect-metadata';
import { buildSchema, getMetadataStorage, type BuildSchemaOptions, type PubSub } from 'type-graphql';
import {
  assertValidSchema,
  GraphQLScalarType,
  isInterfaceType,
  isObjectType,
  isUnionType,
  lexicographicSortSchema,
  printSchema,
  type GraphQLFieldResolver,
  type GraphQLSchema,
} from 'graphql';

/**
 * Builds the executable schema from the resolver classes, handed over by the application
 * (`RESOLVERS`).
 */
export async function buildGraphqlSchema(resolvers: BuildSchemaOptions['resolvers']): Promise<GraphQLSchema> {
  const schema = await buildSchema({
    resolvers,
    validate: { forbidUnknownValues: false },
    pubSub: NO_TOPICS,
    // type-graphql's own check runs the whole introspection query over the new schema: 60% of
    // the build (about 0.6 CPU-s per start, per test service), where graphql's validation below
    // is a tenth of it; the introspection query is answered in test/unit/schema.spec.ts
    skipCheck: true,
    // no global middlewares and no authChecker: directResolvers relies on it
  });
  assertValidSchema(schema);
  directResolvers(schema, resolvers as readonly TypeClass[]);
  directTypeResolution(schema);
  return schema;
}

/**
 * type-graphql wraps every `resolveType` of a union or interface in an `async` function (it maps
 * a returned class to its type's name), so even a synchronous one answers a promise. graphql-js
 * takes either, but compiled execution (graphql-jit, compiled-executor.ts) needs the type at once.
 * The schema's abstract types call the declared function directly and map a class to its type's
 * name the same way; a declared function that answers a promise still does (graphql-js resolves
 * it; such a type must not be asked for in a compiled query: none is, the two declared here are
 * synchronous).
 */
function directTypeResolution(schema: GraphQLSchema): void {
  const storage = getMetadataStorage();
  const nameOf = new Map<TypeClass, string>();
  for (const o of storage.objectTypes) nameOf.set(o.target, o.name);
  const toName = (resolved: unknown): string | undefined =>
    typeof resolved === 'string' ? resolved : resolved ? nameOf.get(resolved as TypeClass) : undefined;
  const declared = [
    ...storage.unions.map((u) => ({ name: u.name, resolveType: u.resolveType })),
    ...storage.interfaceTypes.map((i) => ({ name: i.name, resolveType: i.resolveType })),
  ];
  for (const { name, resolveType } of declared) {
    const type = schema.getType(name);
    if (!resolveType || !(isUnionType(type) || isInterfaceType(type))) continue;
    type.resolveType = (value, context, info, abstractType) => {
      const resolved: unknown = resolveType(value, context, info, abstractType);
      return resolved instanceof Promise ? resolved.then(toName) : toName(resolved);
    };
  }
}

type Resolve = GraphQLFieldResolver<unknown, unknown>;
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- type-graphql's metadata names classes so
type TypeClass = Function;

/**
 * type-graphql resolves every field through a generic wrapper: per call it asks its container for
 * the resolver instance, runs the middleware chain (empty here: no global middlewares, no
 * `@UseMiddleware`, no `@Authorized`) and builds the parameter list anew (sorting the parameters'
 * metadata, converting the root). For a page of 50 records that is hundreds of calls per request.
 * Where that does nothing the method would not see, the field calls the method itself:
 *
 * - a field resolver of a resolver class whose parameters are only `@Root`, `@Ctx`, `@Info` and
 *   an `@Args({ validate: false })` class of scalar fields (converted as type-graphql converts
 *   it; the method validates it itself, as `Dataset.files` does once per value: other arguments
 *   keep type-graphql's path, which validates them) and that has no middleware or role; a root
 *   that type-graphql would convert (not an instance of the parameter's class) takes
 *   type-graphql's path as well;
 * - a method of an object type without parameters, middleware or role (a connection's
 *   `totalCount`) is called on the root when the root is an instance of the type's class (else
 *   type-graphql converts it, as before);
 * - a plain `@Field` without middleware or role reads the property, as type-graphql's basic
 *   resolver does.
 *
 * Resolver classes hold no state (each is constructed once here, as type-graphql's container
 * does). docs/performance.md, "Fewer steps per field".
 */
function directResolvers(schema: GraphQLSchema, resolverClasses: readonly TypeClass[]): void {
  const storage = getMetadataStorage();
  const byClass = new Map<TypeClass, Map<string, (typeof storage.fieldResolvers)[number]>>();
  for (const fr of storage.fieldResolvers) {
    // internal ones (a method of the object type itself) are indexed too
    if (
      !fr.getObjectType ||
      (fr.kind === 'external' &&
        !resolverClasses.some((c) => c === fr.target || c.prototype instanceof fr.target))
    )
      continue;
    const cls = fr.getObjectType();
    const fields = byClass.get(cls) ?? new Map<string, (typeof storage.fieldResolvers)[number]>();
    fields.set(fr.schemaName, fr);
    byClass.set(cls, fields);
  }
  const instances = new Map<TypeClass, Record<string, (...args: unknown[]) => unknown>>();
  const instanceOf = (target: TypeClass) => {
    let instance = instances.get(target);
    if (!instance) {
      instance = new (target as new () => Record<string, (...args: unknown[]) => unknown>)();
      instances.set(target, instance);
    }
    return instance;
  };
  for (const meta of storage.objectTypes) {
    const type = schema.getType(meta.name);
    if (!isObjectType(type)) continue;
    for (const field of Object.values(type.getFields())) {
      if (!field.resolve) continue;
      // the nearest class up the chain that declares the field or a field resolver for it
      for (
        let cls: TypeClass | null = meta.target;
        cls && cls !== Function.prototype;
        cls = Object.getPrototypeOf(cls) as TypeClass | null
      ) {
        const fr = byClass.get(cls)?.get(field.name);
        if (fr) {
          const direct = directFieldResolver(fr, instanceOf, field.resolve);
          if (direct) field.resolve = direct;
          break;
        }
        const declared = storage.objectTypes
          .find((o) => o.target === cls)
          ?.fields?.find((f) => f.schemaName === field.name);
        if (declared) {
          if (declared.params?.length === 0 && !declared.middlewares?.length && !declared.roles) {
            const property = declared.name;
            field.resolve = (root) => (root as Record<string, unknown>)[property];
          }
          break;
        }
      }
    }
  }
}

function directFieldResolver(
  fr: ReturnType<typeof getMetadataStorage>['fieldResolvers'][number],
  instanceOf: (target: TypeClass) => Record<string, (...args: unknown[]) => unknown>,
  original: Resolve,
): Resolve | undefined {
  if (fr.middlewares?.length || fr.roles) return undefined;
  const method = fr.methodName;
  const params = [...(fr.params ?? [])].sort((a, b) => a.index - b.index);
  if (fr.kind === 'internal') {
    // a method of the object type itself without parameters (a connection's `totalCount`):
    // type-graphql converts the root to the class (an instance is kept) and calls the method
    const cls = fr.getObjectType?.();
    if (params.length || !cls) return undefined;
    return (root, args, ctx, info) => {
      if (!(root instanceof cls)) return original(root, args, ctx, info);
      const value = (root as Record<string, unknown>)[method];
      return typeof value === 'function' ? (value as () => unknown).call(root) : value;
    };
  }
  if (params.some((p, i) => p.index !== i)) return undefined;
  const rootParam = params.find((p) => p.kind === 'root') as
    { propertyName?: string; getType?: () => unknown } | undefined;
  if (rootParam?.propertyName) return undefined;
  const rootType = rootParam?.getType?.();
  // type-graphql converts a root that is not an instance of a class type (convertToType)
  const rootClass = typeof rootType === 'function' && rootType !== Object ? rootType : undefined;
  type Kind = 'root' | 'info' | 'ctx' | ((args: Record<string, unknown>) => unknown);
  const kinds: Kind[] = [];
  for (const p of params) {
    if (p.kind === 'root' || p.kind === 'info') kinds.push(p.kind);
    else if (p.kind === 'context' && !p.propertyName) kinds.push('ctx');
    else if (p.kind === 'args' && p.validateSettings === false && !p.validateFn) {
      const convert = scalarArgsConverter(p.getType() as TypeClass);
      if (!convert) return undefined;
      kinds.push(convert);
    } else return undefined;
  }
  const target = fr.target;
  const call = (
    instance: Record<string, (...args: unknown[]) => unknown>,
    root: unknown,
    args: Record<string, unknown>,
    ctx: unknown,
    info: unknown,
  ) => {
    switch (kinds.length) {
      case 0:
        return instance[method]();
      case 2:
        if (kinds[0] === 'root' && kinds[1] === 'ctx') return instance[method](root, ctx);
        break;
    }
    return instance[method](
      ...kinds.map((k) => (k === 'root' ? root : k === 'info' ? info : k === 'ctx' ? ctx : k(args))),
    );
  };
  return (root, args, ctx, info) => {
    if (rootClass && root != null && !(root instanceof rootClass)) return original(root, args, ctx, info);
    return call(instanceOf(target), root, args as Record<string, unknown>, ctx, info);
  };
}

/**
 * For an `@Args({ validate: false })` class whose fields are all scalars: the instance
 * type-graphql's `convertArgsToInstance` makes (a new instance, its own keys left undefined and
 * not given deleted, the given values assigned as they are: scalars are not converted), without
 * its per-call walk over the class's metadata. Undefined for any other class (inheritance, input
 * objects, enums, lists): type-graphql's path keeps those.
 */
function scalarArgsConverter(ArgsClass: TypeClass): ((args: Record<string, unknown>) => unknown) | undefined {
  const storage = getMetadataStorage();
  const argsType = storage.argumentTypes.find((a) => a.target === ArgsClass);
  if (!argsType || Object.getPrototypeOf(ArgsClass) !== Function.prototype) return undefined;
  const names: string[] = [];
  for (const field of argsType.fields ?? []) {
    const type = field.getType();
    const scalar =
      type instanceof GraphQLScalarType || type === String || type === Number || type === Boolean;
    if (!scalar || field.typeOptions.array) return undefined;
    names.push(field.name);
  }
  const Ctor = ArgsClass as new () => Record<string, unknown>;
  return (args) => {
    const instance = new Ctor();
    for (const key of Object.keys(instance)) {
      if (instance[key] === undefined && !(names.includes(key) && args[key] !== undefined))
        Reflect.deleteProperty(instance, key);
    }
    for (const name of names) {
      const value = args[name];
      if (value !== undefined) instance[name] = value;
    }
    return instance;
  };
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
