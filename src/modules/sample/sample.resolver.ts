import { Arg, Args, Ctx, FieldResolver, ID, Info, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { GraphQLResolveInfo } from 'graphql';
import type { RequestContext } from '../../core/context';
import { PageArgs, pageOf } from '../../core/graphql/page-args';
import { toConnection } from '../../core/graphql/connect';
import { selectedFields } from '../../core/graphql/selection';
import { Project } from '../project/project.entity';
import { ownedRecordResolver } from '../owned-record/owned-record.resolver';
import { ownedRecordOf } from '../owned-record/owned-record-row';
import type { SampleFilter } from './sample.query';
import type { SampleInclude, SampleRow } from './sample-row';
import {
  CreateSampleInput,
  SampleCapabilities,
  SampleConnection,
  SampleFacetFieldEnum,
  SampleFacetValueType,
  SampleFilterInput,
  SampleType,
  UpdateSampleInput,
} from './sample.types';
import { nodeType } from '../../core/graphql/node';
import { isMfid } from '../../core/ids';
import { validationError } from '../../core/errors';

/** `sampleFacets`: values per field by default, and at most. */
const SAMPLE_FACETS_DEFAULT = 20;
const SAMPLE_FACETS_MAX = 100;

/** What a selection of `Sample` nodes (`nodes`' sub-selections) needs their rows to include. */
function includeOf(nodes: GraphQLResolveInfo['fieldNodes'], info: GraphQLResolveInfo): SampleInclude {
  const fields = selectedFields(nodes, info.fragments);
  return { owner: fields.has('owner'), project: fields.has('project') };
}

function sampleConnection(
  ctx: RequestContext,
  filter: SampleFilter,
  args: PageArgs,
  info: GraphQLResolveInfo,
) {
  const request = pageOf(ctx, args);
  const connection = selectedFields(info.fieldNodes, info.fragments);
  const edges = selectedFields(connection.get('edges') ?? [], info.fragments);
  const include = includeOf([...(connection.get('nodes') ?? []), ...(edges.get('node') ?? [])], info);
  return toConnection(
    SampleConnection,
    () => ctx.services.sample.list(ctx, filter, request, include),
    () => ctx.services.sample.total(ctx, filter),
  );
}

@Resolver(() => SampleType)
export class SampleResolver extends ownedRecordResolver(SampleType, (ctx) => ctx.loaders.sampleRows) {
  @Query(() => SampleType, {
    description: 'One sample by MFID (NOT_FOUND when it does not exist or you may not read it).',
  })
  async sample(
    @Arg('id', () => ID, { description: 'The sample MFID.' }) id: string,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<SampleRow> {
    const sample = await ctx.services.sample.read(ctx, id, includeOf(info.fieldNodes, info));
    ctx.canonical.add(sample);
    return sample;
  }

  @Query(() => SampleConnection, { description: 'Samples you may read, newest first.' })
  samples(
    @Args() args: PageArgs,
    @Arg('filter', () => SampleFilterInput, { nullable: true, description: 'Filters; all must match.' })
    filter: SampleFilterInput | undefined,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    return sampleConnection(ctx, { ...(filter ?? {}) }, args, info);
  }

  @Query(() => [SampleFacetValueType], {
    description:
      'Counts of the samples you may read that match the filter, by one field: its most frequent values first (ties in descending order of value), exact counts.',
  })
  async sampleFacets(
    @Arg('field', () => SampleFacetFieldEnum, { description: 'The field to count by.' })
    field: SampleFacetFieldEnum,
    @Arg('filter', () => SampleFilterInput, { nullable: true, description: 'Filters; all must match.' })
    filter: SampleFilterInput | undefined,
    @Arg('first', () => Int, {
      defaultValue: SAMPLE_FACETS_DEFAULT,
      description: `How many values (1-${SAMPLE_FACETS_MAX}).`,
    })
    first: number,
    @Ctx() ctx: RequestContext,
  ): Promise<SampleFacetValueType[]> {
    if (!Number.isInteger(first) || first < 1 || first > SAMPLE_FACETS_MAX)
      throw validationError('first', `must be between 1 and ${SAMPLE_FACETS_MAX}`);
    const page = await ctx.services.sample.facetField(
      ctx,
      { ...(filter ?? {}) },
      {
        field,
        limit: first,
        sort: 'count',
        direction: 'desc',
      },
    );
    return page.items;
  }

  @Mutation(() => SampleType, { description: 'Creates a sample record.' })
  createSample(
    @Arg('input', { description: 'The new sample.' }) input: CreateSampleInput,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<SampleRow> {
    return ctx.services.sample.create(ctx, input, includeOf(info.fieldNodes, info));
  }

  @Mutation(() => SampleType, { description: 'Changes fields of a sample.' })
  updateSample(
    @Arg('id', () => ID, { description: 'The sample MFID.' }) id: string,
    @Arg('input', { description: 'The changes.' }) input: UpdateSampleInput,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<SampleRow> {
    return ctx.services.sample.update(ctx, id, input, includeOf(info.fieldNodes, info));
  }

  @FieldResolver(() => SampleCapabilities, {
    nullable: true,
    description: 'What you may do next; computed on single reads, null in collections (not calculated).',
  })
  capabilities(@Root() sample: SampleRow, @Ctx() ctx: RequestContext) {
    return ctx.canonical.has(sample)
      ? ctx.services.sample.policy.capabilities(ctx, ownedRecordOf(sample))
      : null;
  }
}

@Resolver(() => Project)
export class ProjectSamplesResolver {
  @FieldResolver(() => SampleConnection, { description: 'Samples of this project that you may read.' })
  samples(
    @Root() project: Project,
    @Args() args: PageArgs,
    @Arg('filter', () => SampleFilterInput, { nullable: true, description: 'Further filters.' })
    filter: SampleFilterInput | undefined,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    return sampleConnection(
      ctx,
      { ...(filter ?? {}), projectMfid: project.uniqueId, projectId: undefined },
      args,
      info,
    );
  }
}

/** Samples as `Node`s: fetched again by global id, as their single-record reads see them. */
export const SAMPLE_NODE = nodeType<SampleRow>(
  'Sample',
  isMfid,
  (row) => row.uniqueId,
  (ctx, keys, info) => ctx.services.sample.readable(ctx, keys, includeOf(info.fieldNodes, info)),
);
