import {
  Arg,
  Ctx,
  Extensions,
  Field,
  FieldResolver,
  ID,
  Info,
  InterfaceType,
  Query,
  Resolver,
  Root,
} from 'type-graphql';
import type { GraphQLResolveInfo } from 'graphql';
import type { RequestContext } from '../context';
import { validationError } from '../errors';
import { listCap } from './limits';

/**
 * Global object identification (the GraphQL Global Object Identification specification, as
 * Relay uses it): every object type with an identity implements `Node`, whose `nodeId` is an
 * opaque global id, and `node(id:)`/`nodes(ids:)` fetch any of them again. The field is
 * `nodeId`, not `id`, because several types already have an `id` of another meaning (the
 * integer ids of thumbnails and requests): docs/api.md, "Global ids".
 *
 * Core holds the interface, the id format and the two queries; each module describes its own
 * types ({@link NodeType}) and the composition root registers them ({@link NodeRegistry}).
 */

/** The type each value `node`/`nodes` answered with is of (an interface needs to be told). */
const answeredAs = new WeakMap<object, string>();

@InterfaceType('Node', {
  description:
    'An object with an identity: `node(id:)` and `nodes(ids:)` fetch it again by its `nodeId` (Relay global object identification).',
  resolveType: (value: object) => answeredAs.get(value),
})
export abstract class Node {
  @Field(() => ID, {
    description:
      'Its global id: opaque, stable and unique across types (pass it to `node(id:)`); the type keeps its own id fields besides.',
  })
  nodeId!: string;
}

/** One object type implementing `Node`: how its records are keyed and fetched. */
export interface NodeType<T extends object = object> {
  /** the GraphQL object type's name (also what a global id names) */
  readonly name: string;
  /** the record's own key (an MFID, an ORCID, an integer id as text) */
  keyOf(record: T): string;
  /** whether `key` has the form of this type's keys (anything else is a malformed id) */
  isKey(key: string): boolean;
  /**
   * The records of `keys` the caller may read, by key, through the same visibility rules as the
   * type's single-record query: in one batch, whatever the number of keys; a key that is
   * missing or unreadable is simply left out.
   */
  fetch(ctx: RequestContext, keys: readonly string[], info: GraphQLResolveInfo): Promise<Map<string, T>>;
}

/** A {@link NodeType} whose records `load` reads as a list (missing and unreadable ones left out). */
export function nodeType<T extends object>(
  name: string,
  isKey: (key: string) => boolean,
  keyOf: (record: T) => string,
  load: (ctx: RequestContext, keys: string[], info: GraphQLResolveInfo) => Promise<T[]>,
): NodeType<T> {
  return {
    name,
    isKey,
    keyOf,
    fetch: async (ctx, keys, info) => new Map((await load(ctx, [...keys], info)).map((r) => [keyOf(r), r])),
  };
}

/** Whether `key` is a positive integer id up to `max` in canonical decimal form. */
export function isIntegerKey(key: string, max: bigint = 2n ** 31n - 1n): boolean {
  return /^[1-9][0-9]{0,18}$/.test(key) && BigInt(key) <= max;
}

/** The longest global id accepted: far above any type's (the longest key is an MFID or a bigint). */
const MAX_ID_LENGTH = 200;
const TYPE_NAME = /^[A-Z][A-Za-z0-9]{0,63}$/;

/** The global id of the record `key` of type `type`: base64url (no padding) of `Type:key`. */
export function toGlobalId(type: string, key: string): string {
  return Buffer.from(`${type}:${key}`, 'utf8').toString('base64url');
}

/**
 * The type name and key a global id names, or null when it is not one: only the canonical
 * base64url text of `Type:key` in UTF-8 is (no padding, no other alphabet, no stray bits).
 */
export function fromGlobalId(id: string): { type: string; key: string } | null {
  if (id.length === 0 || id.length > MAX_ID_LENGTH || !/^[A-Za-z0-9_-]+$/.test(id)) return null;
  const bytes = Buffer.from(id, 'base64url');
  if (bytes.toString('base64url') !== id) return null;
  const text = bytes.toString('utf8');
  if (!Buffer.from(text, 'utf8').equals(bytes)) return null;
  const colon = text.indexOf(':');
  if (colon < 1) return null;
  const type = text.slice(0, colon);
  const key = text.slice(colon + 1);
  return TYPE_NAME.test(type) && key.length > 0 ? { type, key } : null;
}

/** The `Node` types of the schema, registered by the composition root. */
export class NodeRegistry {
  private readonly types = new Map<string, NodeType>();

  register<T extends object[]>(...types: { [K in keyof T]: NodeType<T[K]> }): this {
    for (const type of types as NodeType[]) {
      if (this.types.has(type.name)) throw new Error(`Node type ${type.name} registered twice`);
      this.types.set(type.name, type);
    }
    return this;
  }

  names(): string[] {
    return [...this.types.keys()];
  }

  /** The global id of `record`, of the registered type `typeName`. */
  idOf(typeName: string, record: object): string {
    const type = this.types.get(typeName);
    if (!type) throw new Error(`${typeName} implements Node but is not registered`);
    return toGlobalId(typeName, type.keyOf(record));
  }

  /**
   * The records of `ids`, in their order: null for a well-formed id whose record is missing or
   * not readable by the caller (the two answer alike); a malformed id, or one naming no type of
   * the schema or a key of another form than its type's, is an input error. One fetch per type.
   */
  async resolve(
    ctx: RequestContext,
    ids: readonly string[],
    info: GraphQLResolveInfo,
    field: string,
  ): Promise<(object | null)[]> {
    const wanted = ids.map((id, i) => {
      const parsed = fromGlobalId(id);
      const type = parsed ? this.types.get(parsed.type) : undefined;
      if (!parsed || !type || !type.isKey(parsed.key)) {
        throw validationError(field === 'id' ? 'id' : `${field}[${i}]`, 'not a global id');
      }
      return { type, key: parsed.key };
    });
    const keysByType = new Map<NodeType, Set<string>>();
    for (const { type, key } of wanted) {
      const keys = keysByType.get(type) ?? new Set<string>();
      keys.add(key);
      keysByType.set(type, keys);
    }
    const found = new Map<NodeType, Map<string, object>>();
    // one type after another: the request's connection runs one statement at a time anyway
    for (const [type, keys] of keysByType) found.set(type, await type.fetch(ctx, [...keys], info));
    return wanted.map(({ type, key }) => {
      const record = found.get(type)?.get(key) ?? null;
      if (record) answeredAs.set(record, type.name);
      return record;
    });
  }
}

/**
 * The `node` and `nodes` queries and the `nodeId` field of every `Node` type, over `registry`.
 * `nodes` takes at most `GRAPHQL_LIST_MAX` ids, the bound every other unpaged list has.
 */
export function nodeResolver(registry: NodeRegistry) {
  @Resolver(() => Node)
  class NodeResolver {
    @Query(() => Node, {
      nullable: true,
      description:
        'Any object by its global id (`nodeId`): null when it does not exist or you may not read it (the two are alike); a malformed id is BAD_USER_INPUT.',
    })
    async node(
      @Arg('id', () => ID, { description: 'A global id (`nodeId`).' }) id: string,
      @Ctx() ctx: RequestContext,
      @Info() info: GraphQLResolveInfo,
    ): Promise<object | null> {
      const [record] = await registry.resolve(ctx, [id], info, 'id');
      // a single read, like `dataset(id:)`: capabilities are computed for it
      if (record) ctx.canonical.add(record);
      return record;
    }

    @Query(() => [Node], {
      nullable: 'items',
      description:
        'Objects by their global ids, in the same order: null for each that does not exist or that you may not read; at most GRAPHQL_LIST_MAX ids (default 100), a malformed id is BAD_USER_INPUT.',
    })
    // charged as many times as ids are given (the query limits see the variables)
    @Extensions(listCap({ lengthOf: 'ids' }))
    async nodes(
      @Arg('ids', () => [ID], { description: 'Global ids (`nodeId`), at most GRAPHQL_LIST_MAX.' })
      ids: string[],
      @Ctx() ctx: RequestContext,
      @Info() info: GraphQLResolveInfo,
    ): Promise<(object | null)[]> {
      const max = ctx.config.limits.graphqlListMax;
      if (ids.length > max) throw validationError('ids', `at most ${max} ids (got ${ids.length})`);
      return registry.resolve(ctx, ids, info, 'ids');
    }

    @FieldResolver(() => ID)
    nodeId(@Root() record: object, @Info() info: GraphQLResolveInfo): string {
      return registry.idOf(info.parentType.name, record);
    }
  }
  return NodeResolver;
}
