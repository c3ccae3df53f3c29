import { Arg, Ctx, Int, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../../core/context';
import { pageSize } from '../../core/pagination';
import { DatasetType } from '../dataset/dataset.types';
import { SampleType } from '../sample/sample.types';
import { Project } from '../project/project.entity';
import { Instrument } from '../instrument/instrument.entity';
import { User } from '../user/user.entity';

const Q = { description: 'What to look for: at least 3 characters; typos are tolerated.' };
const LIMIT = { defaultValue: 20, description: 'How many results (at most 50).' };

/** Typo-tolerant name search; only records you may read, best matches first. */
@Resolver()
export class SearchResolver {
  @Query(() => [DatasetType], { description: 'Datasets whose name resembles q.' })
  searchDatasets(
    @Arg('q', Q) q: string,
    @Arg('first', () => Int, LIMIT) first: number,
    @Arg('projectId', () => String, { nullable: true, description: 'Only this project (slug or MFID).' })
    projectId: string | undefined,
    @Ctx() ctx: RequestContext,
  ) {
    return ctx.services.search.datasets(ctx, { q, limit: pageSize('first', first), projectId });
  }

  @Query(() => [SampleType], { description: 'Samples whose name resembles q.' })
  searchSamples(
    @Arg('q', Q) q: string,
    @Arg('first', () => Int, LIMIT) first: number,
    @Arg('projectId', () => String, { nullable: true, description: 'Only this project (slug or MFID).' })
    projectId: string | undefined,
    @Ctx() ctx: RequestContext,
  ) {
    return ctx.services.search.samples(ctx, { q, limit: pageSize('first', first), projectId });
  }

  @Query(() => [Project], { description: 'Projects whose title or slug resembles q.' })
  searchProjects(
    @Arg('q', Q) q: string,
    @Arg('first', () => Int, LIMIT) first: number,
    @Ctx() ctx: RequestContext,
  ) {
    return ctx.services.search.projectsByName(ctx, { q, limit: pageSize('first', first) });
  }

  @Query(() => [Instrument], { description: 'Instruments whose name, type or manufacturer resembles q.' })
  searchInstruments(
    @Arg('q', Q) q: string,
    @Arg('first', () => Int, LIMIT) first: number,
    @Ctx() ctx: RequestContext,
  ) {
    return ctx.services.search.instruments(ctx, { q, limit: pageSize('first', first) });
  }

  @Query(() => [User], {
    description: 'Users whose username or name resembles q (public profiles: email only for yourself).',
  })
  searchUsers(
    @Arg('q', Q) q: string,
    @Arg('first', () => Int, LIMIT) first: number,
    @Ctx() ctx: RequestContext,
  ) {
    return ctx.services.search.users(ctx, { q, limit: pageSize('first', first) });
  }
}
