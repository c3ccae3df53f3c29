import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../../core/context';
import { PageArgs, pageOf } from '../../core/graphql/page-args';
import { toConnection } from '../../core/graphql/connect';
import { Project } from '../project/project.entity';
import { ownedRecordResolver } from '../owned-record/owned-record.resolver';
import { Sample } from './sample.entity';
import type { SampleFilter } from './sample.query';
import {
  CreateSampleInput,
  SampleCapabilities,
  SampleConnection,
  SampleFilterInput,
  UpdateSampleInput,
} from './sample.types';

function sampleConnection(ctx: RequestContext, filter: SampleFilter, args: PageArgs) {
  const request = pageOf(ctx, args);
  return toConnection(
    SampleConnection,
    () => ctx.services.sample.list(ctx, filter, request),
    () => ctx.services.sample.total(ctx, filter),
  );
}

@Resolver(() => Sample)
export class SampleResolver extends ownedRecordResolver(Sample) {
  @Query(() => Sample, {
    description: 'One sample by MFID (NOT_FOUND when it does not exist or you may not read it).',
  })
  async sample(
    @Arg('id', () => ID, { description: 'The sample MFID.' }) id: string,
    @Ctx() ctx: RequestContext,
  ) {
    const sample = await ctx.services.sample.get(ctx, id);
    ctx.canonical.add(sample);
    return sample;
  }

  @Query(() => SampleConnection, { description: 'Samples you may read, newest first.' })
  samples(
    @Args() args: PageArgs,
    @Arg('filter', () => SampleFilterInput, { nullable: true, description: 'Filters; all must match.' })
    filter: SampleFilterInput | undefined,
    @Ctx() ctx: RequestContext,
  ) {
    return sampleConnection(ctx, { ...(filter ?? {}) }, args);
  }

  @Mutation(() => Sample, { description: 'Creates a sample record.' })
  createSample(
    @Arg('input', { description: 'The new sample.' }) input: CreateSampleInput,
    @Ctx() ctx: RequestContext,
  ) {
    return ctx.services.sample.create(ctx, input);
  }

  @Mutation(() => Sample, { description: 'Changes fields of a sample.' })
  updateSample(
    @Arg('id', () => ID, { description: 'The sample MFID.' }) id: string,
    @Arg('input', { description: 'The changes.' }) input: UpdateSampleInput,
    @Ctx() ctx: RequestContext,
  ) {
    return ctx.services.sample.update(ctx, id, input);
  }

  @FieldResolver(() => SampleCapabilities, {
    nullable: true,
    description: 'What you may do next; computed on single reads, null in collections (not calculated).',
  })
  capabilities(@Root() sample: Sample, @Ctx() ctx: RequestContext) {
    return ctx.canonical.has(sample) ? ctx.services.sample.policy.capabilities(ctx, sample) : null;
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
  ) {
    return sampleConnection(
      ctx,
      { ...(filter ?? {}), projectMfid: project.uniqueId, projectId: undefined },
      args,
    );
  }
}
