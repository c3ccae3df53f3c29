import { Field, Int, ObjectType, type ClassType } from 'type-graphql';
import type { Total } from '../db/page';

@ObjectType({ description: 'Relay page information.' })
export class PageInfo {
  @Field({ description: 'Whether another page follows this one.' })
  hasNextPage!: boolean;

  @Field({ description: 'Whether a page precedes this one (always false: pages go forward only).' })
  hasPreviousPage!: boolean;

  @Field(() => String, { nullable: true, description: 'The cursor of the first edge of this page.' })
  startCursor!: string | null;

  @Field(() => String, { nullable: true, description: 'The cursor to pass as `after` for the next page.' })
  endCursor!: string | null;
}

/**
 * A lazily computed total, resolved only when a query selects `totalCount` (or
 * `totalCountIsExact`): a number, or a possibly bounded `Total`.
 */
export type TotalCounter = () => Promise<number | Total>;

export interface ConnectionShape<TNode> {
  edges: { cursor: string; node: TNode }[];
  pageInfo: PageInfo;
  counter: TotalCounter;
}

/**
 * Builds a Relay connection type for `nodeType`. The edge class may be extended by passing
 * `edgeType` (for example to carry `projectRelation`).
 */
export function connectionTypes<TNode extends object>(
  name: string,
  nodeType: ClassType<TNode>,
  description: string,
  opts: { projectRelation?: boolean; boundedTotal?: boolean } = {},
) {
  @ObjectType(`${name}Edge`, { description: `An edge of a ${name} connection.` })
  class Edge {
    @Field({ description: 'The cursor of this edge.' })
    cursor!: string;

    @Field(() => nodeType, { description: 'The record.' })
    node!: TNode;

    projectRelation?: string | null;
  }
  if (opts.projectRelation) {
    Field(() => String, {
      nullable: true,
      description:
        'With a project filter: assigned (in the project) or shared (shared with it, assigned elsewhere).',
    })(Edge.prototype, 'projectRelation');
  }

  @ObjectType(`${name}Connection`, { description })
  class Connection {
    @Field(() => [Edge], { description: 'The records of this page, each with its cursor.' })
    edges!: Edge[];

    @Field(() => [nodeType], { description: 'The records of this page.' })
    nodes!: TNode[];

    @Field(() => PageInfo, { description: 'Where this page sits.' })
    pageInfo!: PageInfo;

    /** not a GraphQL field: how totalCount is computed */
    counter!: TotalCounter;

    private total?: Promise<Total>;

    /** the total, computed once for `totalCount` and `totalCountIsExact` */
    resolvedTotal(): Promise<Total> {
      this.total ??= this.counter().then((t) => (typeof t === 'number' ? { count: t, exact: true } : t));
      return this.total;
    }

    @Field(() => Int, {
      description: opts.boundedTotal
        ? 'How many records match in all (computed only when selected); at least this many when `totalCountIsExact` is false.'
        : 'How many records match in all (computed only when selected).',
    })
    async totalCount(): Promise<number> {
      return (await this.resolvedTotal()).count;
    }
  }
  if (opts.boundedTotal) {
    Field(() => Boolean, {
      description:
        'False when a full-text or metadata search matches more than TOTAL_COUNT_LIMIT records: `totalCount` is then that limit, a lower bound. True otherwise.',
    })(Connection.prototype, 'totalCountIsExact');
    // a getter: type-graphql reads a decorated property, it does not call it
    Object.defineProperty(Connection.prototype, 'totalCountIsExact', {
      get(this: Connection): Promise<boolean> {
        return this.resolvedTotal().then((t) => t.exact);
      },
    });
  }
  return { Edge, Connection };
}

export function pageInfo(items: { cursor: string }[], hasNextPage: boolean): PageInfo {
  return {
    hasNextPage,
    hasPreviousPage: false,
    startCursor: items.length ? items[0].cursor : null,
    endCursor: items.length ? items[items.length - 1].cursor : null,
  };
}
