import { Arg, Args, Ctx, FieldResolver, ID, Info, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { GraphQLResolveInfo } from 'graphql';
import { GraphQLUpload } from 'graphql-upload-ts';
import type { RequestContext } from '../../core/context';
import { AppError } from '../../core/errors';
import { tooLarge } from '../../core/storage/hashing';
import { PageArgs, pageOf, validatedOnce } from '../../core/graphql/page-args';
import { toConnection } from '../../core/graphql/connect';
import type { DatasetRow } from '../dataset/dataset-row';
import { DatasetType } from '../dataset/dataset.types';
import { nodeInclude } from '../dataset/dataset-selection';
import { AssociatedFile } from './file.entity';
import type { ReceivedFile } from '../../core/graphql/multipart';
import { AddFilePayload, FileConnection, RemoteFileInput, UpdateFileInput } from './file.types';
import { nodeType } from '../../core/graphql/node';
import { isMfid } from '../../core/ids';

/** graphql-upload reports its limits and malformed requests as HTTP errors: they read as the service's. */
function uploadError(ctx: RequestContext, err: unknown): unknown {
  const e = err as { status?: number; expose?: boolean; message?: string };
  if (err instanceof AppError || typeof e.status !== 'number' || !e.expose) return err;
  if (e.status === 413) return tooLarge(ctx.config.limits.maxUploadBytes);
  const message = e.message ?? 'the upload could not be read';
  return new AppError('VALIDATION', `file: ${message}`, [{ field: 'file', message }]);
}

@Resolver(() => AssociatedFile)
export class FileResolver {
  @Query(() => AssociatedFile, {
    description: 'One file by MFID (NOT_FOUND unless you may read its dataset).',
  })
  file(@Arg('id', () => ID, { description: 'The file MFID.' }) id: string, @Ctx() ctx: RequestContext) {
    return ctx.services.file.get(ctx, id);
  }

  @Query(() => FileConnection, { description: 'Files of every dataset you may read, newest first.' })
  files(
    @Args() args: PageArgs,
    @Arg('sha256', () => String, { nullable: true, description: 'Only files with this SHA-256.' })
    sha256: string | undefined,
    @Arg('datasetId', () => ID, { nullable: true, description: 'Only files of this dataset.' })
    datasetId: string | undefined,
    @Ctx() ctx: RequestContext,
  ) {
    const filter = { sha256: sha256 ?? undefined, datasetId: datasetId ?? undefined };
    const request = pageOf(ctx, args);
    return toConnection(
      FileConnection,
      () => ctx.services.file.page(ctx, filter, request),
      () => ctx.services.file.count(ctx, filter),
    );
  }

  @Mutation(() => AddFilePayload, {
    description:
      'Uploads a file to a dataset (multipart request; send the header apollo-require-preflight: true). ' +
      'Identical contents already in the dataset return the existing record.',
  })
  async addDatasetFile(
    @Arg('dataset', () => ID, { description: 'The dataset MFID.' }) dataset: string,
    @Arg('file', () => GraphQLUpload, { description: 'The file.' }) file: Promise<ReceivedFile>,
    @Arg('ingestor', () => String, { nullable: true, description: 'The ingestor to use (default: detect).' })
    ingestor: string | undefined,
    @Ctx() ctx: RequestContext,
  ): Promise<AddFilePayload> {
    try {
      const upload = await file;
      return await ctx.services.file.addStored(ctx, dataset, {
        filename: upload.filename,
        open: () => upload.open(),
        contentType: upload.mimetype,
        ingestor,
      });
    } catch (err) {
      throw uploadError(ctx, err);
    }
  }

  @Mutation(() => AssociatedFile, { description: 'Catalogues a remote file (a location only) in a dataset.' })
  addRemoteFile(
    @Arg('dataset', () => ID, { description: 'The dataset MFID.' }) dataset: string,
    @Arg('input', () => RemoteFileInput, { description: 'The file and where it lives.' })
    input: RemoteFileInput,
    @Ctx() ctx: RequestContext,
  ) {
    return ctx.services.file.addRemote(ctx, dataset, input);
  }

  @Mutation(() => AssociatedFile, { description: 'Changes a file record (for example its storagePath).' })
  updateFile(
    @Arg('id', () => ID, { description: 'The file MFID.' }) id: string,
    @Arg('input', () => UpdateFileInput, { description: 'The changes.' }) input: UpdateFileInput,
    @Ctx() ctx: RequestContext,
  ) {
    return ctx.services.file.update(ctx, id, input);
  }

  @Mutation(() => ID, {
    description: 'Deletes a file and its stored contents, irreversibly; returns its MFID.',
  })
  async deleteFile(
    @Arg('id', () => ID, { description: 'The file MFID.' }) id: string,
    @Ctx() ctx: RequestContext,
  ) {
    return (await ctx.services.file.delete(ctx, id)).uniqueId;
  }

  @FieldResolver(() => ID, { description: 'The MFID of its dataset.' })
  datasetId(@Root() file: AssociatedFile): string {
    return file.dataset.uniqueId;
  }

  @FieldResolver(() => DatasetType, { nullable: true, description: 'Its dataset.' })
  dataset(
    @Root() file: AssociatedFile,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<DatasetRow | null> {
    return ctx.loaders.datasetRows.load({ id: file.dataset.uniqueId, include: nodeInclude(info) });
  }

  @FieldResolver(() => Boolean, {
    description: 'Whether the service holds its contents (false: a remote file).',
  })
  stored(@Root() file: AssociatedFile): boolean {
    return !!file.storageKey;
  }

  @FieldResolver(() => String, {
    nullable: true,
    description:
      'A signed URL to download it (with Range), valid for one hour; null for remote files. FORBIDDEN while its dataset is under embargo for you (docs/access-control.md, "Embargo").',
  })
  downloadUrl(@Root() file: AssociatedFile, @Ctx() ctx: RequestContext): Promise<string> | null {
    return file.storageKey ? ctx.services.download.linkOf(ctx, file) : null;
  }
}

@Resolver(() => DatasetType)
export class DatasetFilesResolver {
  @FieldResolver(() => FileConnection, { description: 'The files of this dataset, newest first.' })
  files(@Root() ds: DatasetRow, @Args({ validate: false }) args: PageArgs, @Ctx() ctx: RequestContext) {
    // a page's nodes share their arguments: validated once per value (at most once per request)
    const checked = validatedOnce(ctx, args);
    return checked ? checked.then(() => this.connection(ds, args, ctx)) : this.connection(ds, args, ctx);
  }

  private connection(ds: DatasetRow, args: PageArgs, ctx: RequestContext) {
    const { limit, cursor } = pageOf(ctx, args);
    // the count comes with the row when a list asked for it; else `files(first: 1) { totalCount }`
    // runs the batched count alone (no page query)
    return toConnection(
      FileConnection,
      () => ctx.loaders.files.page(limit, cursor).load(ds.uniqueId),
      () =>
        ds.fileCount === undefined
          ? ctx.loaders.files.count.load(ds.uniqueId)
          : Promise.resolve(ds.fileCount),
    );
  }
}

/** Files as `Node`s: fetched again by global id, as their single-record reads see them. */
export const FILE_NODE = nodeType<AssociatedFile>(
  'File',
  isMfid,
  (f) => f.uniqueId,
  (ctx, keys) => ctx.services.file.readable(ctx, keys),
);
