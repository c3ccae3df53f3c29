import { Field, Int, ObjectType, type ClassType } from 'type-graphql';

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

/** A lazily computed total, resolved only when a query selects `totalCount`. */
export type TotalCounter = () => Promise<number>;

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
  opts: { projectRelation?: boolean } = {},
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

    @Field(() => Int, { description: 'How many records match in all (computed only when selected).' })
    totalCount(): Promise<number> {
      return this.counter();
    }
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
