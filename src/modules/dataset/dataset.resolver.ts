import {
  Arg,
  Args,
  Ctx,
  Extensions,
  FieldResolver,
  ID,
  Info,
  Mutation,
  Query,
  Resolver,
  Root,
} from 'type-graphql';
import type { GraphQLResolveInfo } from 'graphql';
import type { RequestContext } from '../../core/context';
import { PageArgs, pageOf } from '../../core/graphql/page-args';
import { toConnection } from '../../core/graphql/connect';
import { listCap } from '../../core/graphql/limits';
import { DATASET_MAX_KEYWORDS } from './dataset.fields';
import { ownedRecordResolver } from '../owned-record/owned-record.resolver';
import { InstrumentRef } from '../instrument/instrument.types';
import { Project } from '../project/project.entity';
import { Dataset } from './dataset.entity';
import type { DatasetFilter } from './dataset.query';
import { viewPlan } from './dataset-view';
import { DatasetOrderInput } from './dataset-order';
import {
  CreateDatasetInput,
  DatasetCapabilities,
  DatasetConnection,
  DatasetFacetsType,
  DatasetFilterInput,
  KeywordCountType,
  ProjectScopeEnum,
  UpdateDatasetInput,
} from './dataset.types';

function datasetConnection(
  ctx: RequestContext,
  filter: DatasetFilter,
  args: PageArgs,
  info: GraphQLResolveInfo,
  order?: DatasetOrderInput,
) {
  // a sorted list's cursors carry the sort key: they are decoded by the order, not as MFIDs
  const request = order
    ? { limit: pageOf(ctx, { first: args.first }).limit, cursor: args.after ?? undefined }
    : pageOf(ctx, args);
  const plan = order ? null : viewPlan(info, ctx.config.limits.maxPageSize);
  let relations: ReadonlyMap<string, string> | undefined;
  const edgeExtra = (ds: Dataset) => ({ projectRelation: relations?.get(ds.uniqueId) ?? null });
  if (plan) {
    // one statement for the page, what its nodes show and the total (dataset-view.ts)
    let view: ReturnType<typeof ctx.services.dataset.listView> | undefined;
    const run = () => (view ??= ctx.services.dataset.listView(ctx, filter, request, plan));
    return toConnection(
      DatasetConnection,
      async () => {
        const { page } = await run();
        relations = page.relations;
        return page;
      },
      async () => (plan.total ? (await run()).total : undefined) ?? ctx.services.dataset.total(ctx, filter),
      edgeExtra,
    );
  }
  return toConnection(
    DatasetConnection,
    async () => {
      const page = await ctx.services.dataset.list(ctx, filter, request, order);
      relations = page.relations;
      return page;
    },
    () => ctx.services.dataset.total(ctx, filter),
    edgeExtra,
  );
}

@Resolver(() => Dataset)
export class DatasetResolver extends ownedRecordResolver(Dataset) {
  @Query(() => Dataset, {
    description: 'One dataset by MFID (NOT_FOUND when it does not exist or you may not read it).',
  })
  async dataset(
    @Arg('id', () => ID, { description: 'The dataset MFID.' }) id: string,
    @Ctx() ctx: RequestContext,
  ) {
    const ds = await ctx.services.dataset.get(ctx, id);
    ctx.canonical.add(ds);
    return ds;
  }

  @Query(() => DatasetConnection, {
    description: 'Datasets you may read, newest first unless `orderBy` names a column.',
  })
  datasets(
    @Args() args: PageArgs,
    @Arg('filter', () => DatasetFilterInput, { nullable: true, description: 'Filters; all must match.' })
    filter: DatasetFilterInput | undefined,
    @Arg('orderBy', () => DatasetOrderInput, {
      nullable: true,
      description: 'Sort by a column (its cursors are valid only with the same order); default newest first.',
    })
    orderBy: DatasetOrderInput | undefined,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    return datasetConnection(ctx, { ...(filter ?? {}) }, args, info, orderBy ?? undefined);
  }

  @Query(() => DatasetFacetsType, {
    description:
      'Counts of the datasets you may read that match the filter, by measurement, instrument, project, keyword, data type, owner and public/private.',
  })
  datasetFacets(
    @Arg('filter', () => DatasetFilterInput, { nullable: true, description: 'Filters; all must match.' })
    filter: DatasetFilterInput | undefined,
    @Ctx() ctx: RequestContext,
  ) {
    return ctx.services.dataset.facets(ctx, { ...(filter ?? {}) });
  }

  @Mutation(() => Dataset, { description: 'Creates a dataset record (files are added afterwards).' })
  createDataset(
    @Arg('input', { description: 'The new record.' }) input: CreateDatasetInput,
    @Ctx() ctx: RequestContext,
  ) {
    return ctx.services.dataset.create(ctx, input);
  }

  @Mutation(() => Dataset, { description: 'Changes fields of a dataset.' })
  updateDataset(
    @Arg('id', () => ID, { description: 'The dataset MFID.' }) id: string,
    @Arg('input', { description: 'The changes.' }) input: UpdateDatasetInput,
    @Ctx() ctx: RequestContext,
  ) {
    return ctx.services.dataset.update(ctx, id, input);
  }

  @Mutation(() => KeywordCountType, { description: 'Adds one keyword to a dataset (idempotent).' })
  addDatasetKeyword(
    @Arg('id', () => ID, { description: 'The dataset MFID.' }) id: string,
    @Arg('keyword', { description: 'The keyword.' }) keyword: string,
    @Ctx() ctx: RequestContext,
  ) {
    return ctx.services.keyword.add(ctx, id, keyword);
  }

  @FieldResolver(() => InstrumentRef, {
    nullable: true,
    description: 'The instrument it was measured on, if registered.',
  })
  async instrument(@Root() ds: Dataset, @Ctx() ctx: RequestContext): Promise<InstrumentRef | null> {
    const i = ds.instrument ? await ctx.loaders.instrument.load(ds.instrument.uniqueId) : null;
    return i
      ? { uniqueId: i.uniqueId, instrumentId: i.instrumentId, instrumentName: i.instrumentName }
      : null;
  }

  @FieldResolver(() => String, {
    nullable: true,
    description: 'Project slug (display fallback for legacy records).',
  })
  async projectId(@Root() ds: Dataset, @Ctx() ctx: RequestContext): Promise<string | null> {
    const p = ds.project ? await ctx.loaders.project.load(ds.project.uniqueId) : null;
    return p?.projectId ?? ds.legacyProjectId ?? null;
  }

  @FieldResolver(() => String, {
    nullable: true,
    description: 'Instrument slug (display fallback for legacy records).',
  })
  async instrumentId(@Root() ds: Dataset, @Ctx() ctx: RequestContext): Promise<string | null> {
    const i = ds.instrument ? await ctx.loaders.instrument.load(ds.instrument.uniqueId) : null;
    return i?.instrumentId ?? ds.legacyInstrumentId ?? null;
  }

  @FieldResolver(() => String, {
    nullable: true,
    description: 'Instrument name (display fallback for legacy records).',
  })
  async instrumentName(@Root() ds: Dataset, @Ctx() ctx: RequestContext): Promise<string | null> {
    const i = ds.instrument ? await ctx.loaders.instrument.load(ds.instrument.uniqueId) : null;
    return i?.instrumentName ?? ds.legacyInstrumentName ?? null;
  }

  @FieldResolver(() => [String], {
    description: `Keywords (a dataset carries at most ${DATASET_MAX_KEYWORDS}).`,
  })
  @Extensions(listCap({ items: DATASET_MAX_KEYWORDS }))
  async keywords(@Root() ds: Dataset, @Ctx() ctx: RequestContext): Promise<string[]> {
    const rows = await ctx.loaders.keywords.byDataset.load(ds.uniqueId);
    return rows.map((r) => r.keyword);
  }

  @FieldResolver(() => DatasetCapabilities, {
    nullable: true,
    description: 'What you may do next; computed on single reads, null in collections (not calculated).',
  })
  capabilities(@Root() ds: Dataset, @Ctx() ctx: RequestContext) {
    return ctx.canonical.has(ds) ? ctx.services.dataset.policy.capabilities(ctx, ds) : null;
  }
}

@Resolver(() => Project)
export class ProjectDatasetsResolver {
  @FieldResolver(() => DatasetConnection, { description: 'Datasets of this project that you may read.' })
  datasets(
    @Root() project: Project,
    @Args() args: PageArgs,
    @Arg('scope', () => ProjectScopeEnum, {
      nullable: true,
      description: 'assigned (default), shared or all.',
    })
    scope: ProjectScopeEnum | undefined,
    @Arg('filter', () => DatasetFilterInput, { nullable: true, description: 'Further filters.' })
    filter: DatasetFilterInput | undefined,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    return datasetConnection(
      ctx,
      { ...(filter ?? {}), projectMfid: project.uniqueId, projectId: undefined, projectScope: scope },
      args,
      info,
    );
  }
}
