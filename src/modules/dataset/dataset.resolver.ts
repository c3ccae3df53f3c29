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
import { fromRow, ownedRecordOf } from '../owned-record/owned-record-row';
import { InstrumentRef } from '../instrument/instrument.types';
import { Project } from '../project/project.entity';
import type { DatasetFilter } from './dataset.query';
import type { DatasetRow } from './dataset-row';
import type { DatasetOrder } from './dataset-order';
import { DatasetOrderInput, toDatasetOrder } from './dataset-order.types';
import { listInclude, nodeInclude } from './dataset-selection';
import {
  CreateDatasetInput,
  DatasetCapabilities,
  DatasetConnection,
  DatasetFacetsType,
  DatasetFilterInput,
  DatasetType,
  KeywordCountType,
  ProjectScopeEnum,
  UpdateDatasetInput,
} from './dataset.types';
import { nodeType } from '../../core/graphql/node';
import { isMfid } from '../../core/ids';

/**
 * A `datasets` connection: one statement for the page, what its nodes select of their relations
 * and, when selected with the page, the total; a total alone runs its count alone.
 */
function datasetConnection(
  ctx: RequestContext,
  filter: DatasetFilter,
  args: PageArgs,
  info: GraphQLResolveInfo,
  order?: DatasetOrder,
) {
  // a sorted list's cursors carry the sort key: they are decoded by the order, not as MFIDs
  const request = order
    ? { limit: pageOf(ctx, { first: args.first }).limit, cursor: args.after ?? undefined }
    : pageOf(ctx, args);
  const include = listInclude(info);
  let listed: ReturnType<typeof ctx.services.dataset.list> | undefined;
  const page = () => (listed ??= ctx.services.dataset.list(ctx, filter, request, include, order));
  return toConnection(
    DatasetConnection,
    page,
    async () => (include.total ? (await page()).total : undefined) ?? ctx.services.dataset.total(ctx, filter),
    (row: DatasetRow) => ({ projectRelation: row.projectRelation ?? null }),
  );
}

const rows = (ctx: RequestContext) => ctx.loaders.datasetRows;

@Resolver(() => DatasetType)
export class DatasetResolver extends ownedRecordResolver(DatasetType, rows) {
  @Query(() => DatasetType, {
    description: 'One dataset by MFID (NOT_FOUND when it does not exist or you may not read it).',
  })
  async dataset(
    @Arg('id', () => ID, { description: 'The dataset MFID.' }) id: string,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<DatasetRow> {
    const ds = await ctx.services.dataset.read(ctx, id, nodeInclude(info));
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
    const order = orderBy ? toDatasetOrder(orderBy) : undefined;
    return datasetConnection(ctx, { ...(filter ?? {}), anyCase: true }, args, info, order);
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
    return ctx.services.dataset.facets(ctx, { ...(filter ?? {}), anyCase: true });
  }

  @Mutation(() => DatasetType, { description: 'Creates a dataset record (files are added afterwards).' })
  createDataset(
    @Arg('input', { description: 'The new record.' }) input: CreateDatasetInput,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<DatasetRow> {
    return ctx.services.dataset.create(ctx, input, nodeInclude(info));
  }

  @Mutation(() => DatasetType, { description: 'Changes fields of a dataset.' })
  updateDataset(
    @Arg('id', () => ID, { description: 'The dataset MFID.' }) id: string,
    @Arg('input', { description: 'The changes.' }) input: UpdateDatasetInput,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<DatasetRow> {
    return ctx.services.dataset.update(ctx, id, input, nodeInclude(info));
  }

  @Mutation(() => DatasetType, {
    description:
      'Assigns a registered instrument to a dataset (updates may only repeat it): needs admin on the dataset (the service accounts bound to the instrument get contributor on it); an instrument the caller cannot read is NOT_FOUND. Answers the dataset.',
  })
  async setDatasetInstrument(
    @Arg('id', () => ID, { description: 'The dataset MFID.' }) id: string,
    @Arg('instrumentId', () => String, { nullable: true, description: 'The instrument slug.' })
    instrumentId: string | null | undefined,
    @Arg('instrumentMfid', () => ID, {
      nullable: true,
      description: 'Or its MFID (both given: they must name the same instrument).',
    })
    instrumentMfid: string | null | undefined,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<DatasetRow> {
    await ctx.services.dataset.assignInstrument(ctx, id, { instrumentId, instrumentMfid });
    return ctx.services.dataset.read(ctx, id, nodeInclude(info));
  }

  @Mutation(() => KeywordCountType, { description: 'Adds one keyword to a dataset (idempotent).' })
  addDatasetKeyword(
    @Arg('id', () => ID, { description: 'The dataset MFID.' }) id: string,
    @Arg('keyword', { description: 'The keyword.' }) keyword: string,
    @Ctx() ctx: RequestContext,
  ) {
    return ctx.services.keyword.add(ctx, id, keyword);
  }

  @Mutation(() => Boolean, {
    description:
      'Removes a keyword from a dataset (update permission); answers whether it carried it (false: nothing changed).',
  })
  async removeDatasetKeyword(
    @Arg('id', () => ID, { description: 'The dataset MFID.' }) id: string,
    @Arg('keyword', { description: 'The keyword (any case).' }) keyword: string,
    @Ctx() ctx: RequestContext,
  ): Promise<boolean> {
    return (await ctx.services.keyword.remove(ctx, id, keyword)) !== null;
  }

  @FieldResolver(() => InstrumentRef, {
    nullable: true,
    description: 'The instrument it was measured on, if registered.',
  })
  instrument(
    @Root() ds: DatasetRow,
    @Ctx() ctx: RequestContext,
  ): InstrumentRef | null | Promise<InstrumentRef | null> {
    return fromRow(ds, 'instrument', rows(ctx), (r) => r.instrument ?? null);
  }

  @FieldResolver(() => String, {
    nullable: true,
    description: 'Project slug (display fallback for legacy records).',
  })
  projectId(@Root() ds: DatasetRow, @Ctx() ctx: RequestContext): string | null | Promise<string | null> {
    return fromRow(ds, 'project', rows(ctx), (r) => r.projectId ?? null);
  }

  @FieldResolver(() => String, {
    nullable: true,
    description: 'Instrument slug (display fallback for legacy records).',
  })
  instrumentId(@Root() ds: DatasetRow, @Ctx() ctx: RequestContext): string | null | Promise<string | null> {
    return fromRow(ds, 'instrument', rows(ctx), (r) => r.instrumentId ?? null);
  }

  @FieldResolver(() => String, {
    nullable: true,
    description: 'Instrument name (display fallback for legacy records).',
  })
  instrumentName(@Root() ds: DatasetRow, @Ctx() ctx: RequestContext): string | null | Promise<string | null> {
    return fromRow(ds, 'instrument', rows(ctx), (r) => r.instrumentName ?? null);
  }

  @FieldResolver(() => [String], {
    description: `Keywords (a dataset carries at most ${DATASET_MAX_KEYWORDS}).`,
  })
  @Extensions(listCap({ items: DATASET_MAX_KEYWORDS }))
  keywords(@Root() ds: DatasetRow, @Ctx() ctx: RequestContext): string[] | Promise<string[]> {
    return fromRow(ds, 'keywords', rows(ctx), (r) => r.keywords ?? []);
  }

  @FieldResolver(() => DatasetCapabilities, {
    nullable: true,
    description: 'What you may do next; computed on single reads, null in collections (not calculated).',
  })
  capabilities(@Root() ds: DatasetRow, @Ctx() ctx: RequestContext) {
    return ctx.canonical.has(ds) ? ctx.services.dataset.policy.capabilities(ctx, ownedRecordOf(ds)) : null;
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
      {
        ...(filter ?? {}),
        anyCase: true,
        projectMfid: project.uniqueId,
        projectId: undefined,
        projectScope: scope,
      },
      args,
      info,
    );
  }
}

/** Datasets as `Node`s: fetched again by global id, as their single-record reads see them. */
export const DATASET_NODE = nodeType<DatasetRow>(
  'Dataset',
  isMfid,
  (row) => row.uniqueId,
  (ctx, keys, info) => ctx.services.dataset.readable(ctx, keys, nodeInclude(info)),
);
