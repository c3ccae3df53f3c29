import { thumbnailsClosed } from '../thumbnail/thumbnail.resolver';
import {
  Arg,
  Args,
  ArgsType,
  Ctx,
  Extensions,
  Field,
  FieldResolver,
  ID,
  Int,
  Query,
  Resolver,
  Root,
} from 'type-graphql';
import { listCap } from '../../core/graphql/limits';
import type { RequestContext } from '../../core/context';
import type { EdgeKindEnum, RelationshipTypeEnum } from '../link/link.types';
import type { GraphRows } from './graph.service';
import { EntityGraph, EntityTypeEnum, GraphDirectionEnum, GraphNode } from './graph.types';
import { Thumbnail } from '../thumbnail/thumbnail.entity';

function toGraph(rows: GraphRows): EntityGraph {
  return {
    nodes: rows.nodes.map((n) =>
      Object.assign(new GraphNode(), {
        id: n.id,
        type: n.type as EntityTypeEnum,
        name: n.name,
        measurement: n.measurement,
        sampleType: n.sample_type,
        description: n.description,
        projectMfid: n.project_mfid,
        depth: n.depth,
      }),
    ),
    edges: rows.edges.map((e) => ({
      source: e.source,
      target: e.target,
      kind: e.kind as EdgeKindEnum,
      relationshipType: e.relationship_type as RelationshipTypeEnum | null,
    })),
    truncated: rows.truncated,
    pageInfo: {
      hasNextPage: rows.nextCursor !== null,
      hasPreviousPage: false,
      startCursor: null,
      endCursor: rows.nextCursor,
    },
  };
}

/** A page of a graph's nodes. */
@ArgsType()
class GraphPageArgs {
  @Field(() => Int, {
    nullable: true,
    description: 'Nodes per page (default and maximum: the server limit, GRAPH_MAX_NODES).',
  })
  first?: number;

  @Field(() => String, { nullable: true, description: 'pageInfo.endCursor of the previous page.' })
  after?: string;
}

@Resolver(() => GraphNode)
export class GraphResolver {
  @Query(() => EntityGraph, {
    description:
      'The graph around a dataset or sample, computed in one query, a page of nodes at a time: nodes you may read and the links between them. The walk never passes through nodes you may not read.',
  })
  @Extensions(listCap({ items: 1 })) // one graph: its nodes and edges carry their caps
  async entityGraph(
    @Arg('id', () => ID, { description: 'The focal dataset or sample.' }) id: string,
    @Arg('depth', () => Int, {
      nullable: true,
      description: 'How many steps (default and maximum: the server limit, GRAPH_MAX_DEPTH).',
    })
    depth: number | undefined,
    @Arg('direction', () => GraphDirectionEnum, {
      defaultValue: GraphDirectionEnum.both,
      description: 'ancestors, descendants or both (the connected component).',
    })
    direction: GraphDirectionEnum,
    @Args() page: GraphPageArgs,
    @Ctx() ctx: RequestContext,
  ) {
    return toGraph(
      await ctx.services.graph.entityGraph(ctx, id, { depth: depth ?? null, direction, ...page }),
    );
  }

  @Query(() => EntityGraph, {
    description:
      'Every dataset and sample of a project that you may read, and their links, datasets first, by MFID, a page of nodes at a time.',
  })
  @Extensions(listCap({ items: 1 }))
  async projectGraph(
    @Arg('project', { description: 'Project MFID or slug.' }) project: string,
    @Args() page: GraphPageArgs,
    @Ctx() ctx: RequestContext,
  ) {
    return toGraph(await ctx.services.graph.projectGraph(ctx, project, page));
  }

  @FieldResolver(() => Thumbnail, {
    nullable: true,
    description: 'Datasets: the first thumbnail (batched); null for samples and datasets without one.',
  })
  async firstThumbnail(@Root() node: GraphNode, @Ctx() ctx: RequestContext) {
    if (node.type !== EntityTypeEnum.dataset || (await thumbnailsClosed(ctx, node.id))) return null;
    return ctx.loaders.thumbnails.first.load(node.id);
  }
}
