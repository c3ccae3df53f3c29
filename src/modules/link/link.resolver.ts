import { Arg, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../../core/context';
import { pageSize } from '../../core/pagination';
import type { DatasetRow } from '../dataset/dataset-row';
import { DatasetType } from '../dataset/dataset.types';
import type { SampleRow } from '../sample/sample-row';
import { SampleType } from '../sample/sample.types';
import { LinkResourcesInput, LinkResult, LinkedResource, toLinked } from './link.types';

@Resolver()
export class LinkResolver {
  @Query(() => [LinkedResource], {
    description:
      'The links of a dataset or sample: linked resources you may read, empty if none; parents, then children, then associations, a page at a time (first, offset).',
  })
  async links(
    @Arg('id', () => ID, { description: 'A dataset or sample MFID.' }) id: string,
    @Arg('first', () => Int, {
      nullable: true,
      description: 'Page size (default 100, at most the server maximum, 1000).',
    })
    first: number | undefined,
    @Arg('offset', () => Int, { nullable: true, description: 'Links to skip (default 0).' })
    offset: number | undefined,
    @Ctx() ctx: RequestContext,
  ) {
    const { defaultPageSize, maxPageSize } = ctx.config.limits;
    const limit = pageSize('first', first ?? defaultPageSize, maxPageSize);
    return (await ctx.services.link.linksOf(ctx, id, { limit, offset: offset ?? 0 })).map(toLinked);
  }

  @Mutation(() => LinkResult, {
    description:
      'Links two resources: two datasets or two samples become parent and child (cycles are rejected); a dataset and a sample are associated.',
  })
  linkResources(
    @Arg('input', { description: 'The two resources.' }) input: LinkResourcesInput,
    @Ctx() ctx: RequestContext,
  ) {
    return ctx.services.link.link(ctx, input.parentId, input.childId, input.relationshipType);
  }

  @Mutation(() => LinkResult, {
    description: 'Removes the link between two resources, given in either order.',
  })
  unlinkResources(
    @Arg('a', () => ID, { description: 'One resource.' }) a: string,
    @Arg('b', () => ID, { description: 'The other.' }) b: string,
    @Ctx() ctx: RequestContext,
  ) {
    return ctx.services.link.unlink(ctx, a, b);
  }
}

@Resolver(() => DatasetType)
export class DatasetLinksResolver {
  @FieldResolver(() => [LinkedResource], {
    description:
      'Its links to datasets and samples you may read (at most GRAPHQL_LIST_MAX, 100 by default; all of them: Query.links, a page at a time).',
  })
  async links(@Root() ds: DatasetRow, @Ctx() ctx: RequestContext) {
    return (await ctx.loaders.links.capped.byResource.load(ds.uniqueId)).map(toLinked);
  }

  @FieldResolver(() => [DatasetType], {
    description: 'Parent datasets you may read, newest first (at most GRAPHQL_LIST_MAX, 100 by default).',
  })
  parents(@Root() ds: DatasetRow, @Ctx() ctx: RequestContext) {
    return ctx.loaders.links.capped.datasetParents.load(ds.uniqueId);
  }

  @FieldResolver(() => [DatasetType], {
    description: 'Child datasets you may read, newest first (at most GRAPHQL_LIST_MAX, 100 by default).',
  })
  children(@Root() ds: DatasetRow, @Ctx() ctx: RequestContext) {
    return ctx.loaders.links.capped.datasetChildren.load(ds.uniqueId);
  }

  @FieldResolver(() => [SampleType], {
    description:
      'Associated samples you may read, newest first (at most GRAPHQL_LIST_MAX, 100 by default; all of them: Query.samples with filter.datasetMfid).',
  })
  samples(@Root() ds: DatasetRow, @Ctx() ctx: RequestContext) {
    return ctx.loaders.links.capped.samplesOfDataset.load(ds.uniqueId);
  }
}

@Resolver(() => SampleType)
export class SampleLinksResolver {
  @FieldResolver(() => [LinkedResource], {
    description:
      'Its links to samples and datasets you may read (at most GRAPHQL_LIST_MAX, 100 by default; all of them: Query.links, a page at a time).',
  })
  async links(@Root() sample: SampleRow, @Ctx() ctx: RequestContext) {
    return (await ctx.loaders.links.capped.byResource.load(sample.uniqueId)).map(toLinked);
  }

  @FieldResolver(() => [SampleType], {
    description: 'Parent samples you may read, newest first (at most GRAPHQL_LIST_MAX, 100 by default).',
  })
  parents(@Root() sample: SampleRow, @Ctx() ctx: RequestContext) {
    return ctx.loaders.links.capped.sampleParents.load(sample.uniqueId);
  }

  @FieldResolver(() => [SampleType], {
    description: 'Child samples you may read, newest first (at most GRAPHQL_LIST_MAX, 100 by default).',
  })
  children(@Root() sample: SampleRow, @Ctx() ctx: RequestContext) {
    return ctx.loaders.links.capped.sampleChildren.load(sample.uniqueId);
  }

  @FieldResolver(() => [DatasetType], {
    description:
      'Associated datasets you may read, newest first (at most GRAPHQL_LIST_MAX, 100 by default; all of them: Query.datasets with filter.sampleMfid).',
  })
  datasets(@Root() sample: SampleRow, @Ctx() ctx: RequestContext) {
    return ctx.loaders.links.capped.datasetsOfSample.load(sample.uniqueId);
  }
}
