import { Arg, Args, Ctx, FieldResolver, ID, Info, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { GraphQLResolveInfo } from 'graphql';
import type { RequestContext } from '../../core/context';
import { validationError } from '../../core/errors';
import { connectionTypes, pageInfo } from '../../core/graphql/connection';
import { PageArgs } from '../../core/graphql/page-args';
import type { DatasetRow } from '../dataset/dataset-row';
import { DatasetType } from '../dataset/dataset.types';
import { nodeInclude } from '../dataset/dataset-selection';
import { AssociatedFile } from '../file/file.entity';
import { IngestionRequest } from './ingestion-request.entity';
import type { IngestionFilter } from './ingestion.service';
import { isIntegerKey, nodeType } from '../../core/graphql/node';
import { cursorBody, encodeCursor } from '../../core/cursor';

const { Connection: IngestionRequestConnection } = connectionTypes(
  'IngestionRequest',
  IngestionRequest,
  'A page of ingestion requests, newest first.',
);

const encode = (id: number) => encodeCursor('r', String(id));

function decode(cursor: string | undefined): number | undefined {
  if (!cursor) return undefined;
  const body = cursorBody('r', cursor, 100);
  if (body === null || !/^\d{1,15}$/.test(body))
    throw validationError('after', 'is not a cursor this server issued');
  return Number(body);
}

@Resolver(() => IngestionRequest)
export class IngestionResolver {
  @Query(() => [String], { description: 'The names of the ingestors, for requestIngestion and uploads.' })
  ingestors(@Ctx() ctx: RequestContext): string[] {
    return ctx.services.ingestion.ingestors();
  }

  @Query(() => IngestionRequest, {
    description: 'One ingestion request (NOT_FOUND unless you may read its dataset).',
  })
  ingestionRequest(
    @Arg('id', () => Int, { description: 'The request id.' }) id: number,
    @Ctx() ctx: RequestContext,
  ) {
    return ctx.services.ingestion.get(ctx, id);
  }

  @Query(() => IngestionRequestConnection, {
    description: 'Ingestion requests on the datasets you may read, newest first.',
  })
  async ingestionRequests(
    @Args() args: PageArgs,
    @Arg('datasetId', () => ID, { nullable: true, description: 'Only requests on this dataset.' })
    datasetId: string | undefined,
    @Arg('fileId', () => ID, { nullable: true, description: 'Only requests for this file.' })
    fileId: string | undefined,
    @Ctx() ctx: RequestContext,
  ) {
    const limit = args.first ?? ctx.config.limits.defaultPageSize;
    if (limit > ctx.config.limits.maxPageSize) {
      throw validationError('first', `must be at most ${ctx.config.limits.maxPageSize}`);
    }
    const filter: IngestionFilter = { datasetId: datasetId ?? undefined, fileId: fileId ?? undefined };
    const rows = await ctx.services.ingestion.page(ctx, filter, { limit, before: decode(args.after) });
    const items = rows.slice(0, limit);
    const edges = items.map((node) => ({ cursor: encode(node.id), node }));
    return Object.assign(new IngestionRequestConnection(), {
      edges,
      nodes: items,
      pageInfo: pageInfo(edges, rows.length > limit),
      counter: () => ctx.services.ingestion.count(ctx, filter),
    });
  }

  @Mutation(() => IngestionRequest, {
    description:
      'Asks for (another) ingestion of a file held in the service storage (needs contributor access to its dataset; remote files are refused).',
  })
  requestIngestion(
    @Arg('fileId', () => ID, { description: 'The file MFID.' }) fileId: string,
    @Arg('ingestor', () => String, {
      nullable: true,
      description: 'The ingestor to use (see `ingestors`); default: the first that supports the file.',
    })
    ingestor: string | undefined,
    @Ctx() ctx: RequestContext,
  ) {
    return ctx.services.ingestion.request(ctx, fileId, ingestor, 'ingestor');
  }

  @FieldResolver(() => ID, { description: 'The MFID of the file.' })
  fileId(@Root() r: IngestionRequest): string {
    return r.fileMfid;
  }

  @FieldResolver(() => ID, { description: 'The MFID of the dataset.' })
  datasetId(@Root() r: IngestionRequest): string {
    return r.dataset.uniqueId;
  }

  @FieldResolver(() => DatasetType, { nullable: true, description: 'The dataset.' })
  dataset(
    @Root() r: IngestionRequest,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<DatasetRow | null> {
    return ctx.loaders.datasetRows.load({ id: r.dataset.uniqueId, include: nodeInclude(info) });
  }

  @FieldResolver(() => AssociatedFile, { nullable: true, description: 'The file (null once deleted).' })
  file(@Root() r: IngestionRequest, @Ctx() ctx: RequestContext) {
    return ctx.loaders.file.load(r.fileMfid);
  }
}

@Resolver(() => AssociatedFile)
export class FileIngestionResolver {
  @FieldResolver(() => IngestionRequest, {
    nullable: true,
    description: 'The newest ingestion request of this file (null: never ingested, e.g. a remote file).',
  })
  latestIngestion(@Root() file: AssociatedFile, @Ctx() ctx: RequestContext) {
    return ctx.loaders.ingestion.latestByFile.load(file.uniqueId);
  }

  @FieldResolver(() => String, {
    nullable: true,
    description:
      'The status of the newest ingestion request: requested, started, complete, failed, not supported, file not found or not_requested.',
  })
  async ingestionStatus(@Root() file: AssociatedFile, @Ctx() ctx: RequestContext): Promise<string | null> {
    return (await ctx.loaders.ingestion.latestByFile.load(file.uniqueId))?.status ?? null;
  }
}

/** Ingestion requests as `Node`s: fetched again by global id, as their single-record reads see them. */
export const INGESTION_REQUEST_NODE = nodeType<IngestionRequest>(
  'IngestionRequest',
  (key) => isIntegerKey(key),
  (r) => String(r.id),
  (ctx, keys) => ctx.services.ingestion.readable(ctx, keys.map(Number)),
);
