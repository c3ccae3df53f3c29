import { Arg, Args, Ctx, FieldResolver, ID, Query, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../../core/context';
import { toConnection } from '../../core/graphql/connect';
import { PageArgs, pageOf } from '../../core/graphql/page-args';
import type { AnyResource } from '../resource/resource.service';
import type { DatasetRow } from '../dataset/dataset-row';
import { DatasetType } from '../dataset/dataset.types';
import type { SampleRow } from '../sample/sample-row';
import { SampleType } from '../sample/sample.types';
import { Project } from '../project/project.entity';
import { Instrument } from '../instrument/instrument.entity';
import { HistoryConnection, type HistoryEntry } from './history.types';
import { nodeType } from '../../core/graphql/node';
import { isMfid } from '../../core/ids';

const DESCRIPTION =
  'Who did what and when, newest first: readable with admin on it (null otherwise) and by platform admins.';

async function connection(ctx: RequestContext, r: AnyResource, args: PageArgs) {
  const page = await ctx.services.history.pageOf(ctx, r, pageOf(ctx, args));
  if (!page) return null;
  return toConnection(HistoryConnection, page, () => ctx.services.history.count(ctx, r.uniqueId));
}

@Resolver()
export class HistoryResolver {
  @Query(() => HistoryConnection, {
    description:
      'The history of any resource by id, also of a removed one (platform admins); others need admin on it.',
  })
  async resourceHistory(
    @Arg('id', () => ID, { description: 'The MFID of the resource.' }) id: string,
    @Args() args: PageArgs,
    @Ctx() ctx: RequestContext,
  ) {
    const page = await ctx.services.history.page(ctx, id, pageOf(ctx, args));
    return toConnection(HistoryConnection, page, () => ctx.services.history.count(ctx, id));
  }
}

@Resolver(() => DatasetType)
export class DatasetHistoryResolver {
  @FieldResolver(() => HistoryConnection, { nullable: true, description: DESCRIPTION })
  history(@Root() record: DatasetRow, @Args() args: PageArgs, @Ctx() ctx: RequestContext) {
    return connection(ctx, { type: 'dataset', uniqueId: record.uniqueId, record }, args);
  }
}

@Resolver(() => SampleType)
export class SampleHistoryResolver {
  @FieldResolver(() => HistoryConnection, { nullable: true, description: DESCRIPTION })
  history(@Root() record: SampleRow, @Args() args: PageArgs, @Ctx() ctx: RequestContext) {
    return connection(ctx, { type: 'sample', uniqueId: record.uniqueId, record }, args);
  }
}

@Resolver(() => Project)
export class ProjectHistoryResolver {
  @FieldResolver(() => HistoryConnection, { nullable: true, description: DESCRIPTION })
  history(@Root() record: Project, @Args() args: PageArgs, @Ctx() ctx: RequestContext) {
    return connection(ctx, { type: 'project', uniqueId: record.uniqueId, record }, args);
  }
}

@Resolver(() => Instrument)
export class InstrumentHistoryResolver {
  @FieldResolver(() => HistoryConnection, { nullable: true, description: DESCRIPTION })
  history(@Root() record: Instrument, @Args() args: PageArgs, @Ctx() ctx: RequestContext) {
    return connection(ctx, { type: 'instrument', uniqueId: record.uniqueId, record }, args);
  }
}

/** Resource events as `Node`s: readable by whoever may read the history they are part of. */
export const RESOURCE_EVENT_NODE = nodeType<HistoryEntry>(
  'ResourceEvent',
  (key) => isMfid(key),
  (e) => e.uniqueId,
  (ctx, keys) => ctx.services.history.readable(ctx, keys),
);
