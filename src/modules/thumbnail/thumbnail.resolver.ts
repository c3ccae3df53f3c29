import { Arg, Ctx, FieldResolver, ID, Info, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { GraphQLResolveInfo } from 'graphql';
import { selectsField } from '../../core/graphql/selection';
import type { RequestContext } from '../../core/context';
import { validationError } from '../../core/errors';
import type { DatasetRow, ThumbnailRow } from '../dataset/dataset-row';
import { DatasetType } from '../dataset/dataset.types';
import { Thumbnail } from './thumbnail.entity';
import { thumbnailPath } from './thumbnail.service';
import { isIntegerKey, nodeType } from '../../core/graphql/node';

const MAX_BATCH = 1000;

@Resolver(() => Thumbnail)
export class ThumbnailResolver {
  @Query(() => [Thumbnail], {
    description: 'The first thumbnail of each dataset among these that you may read and that has one.',
  })
  async firstThumbnails(
    @Arg('datasetIds', () => [ID], { description: 'Dataset MFIDs.' }) datasetIds: string[],
    @Ctx() ctx: RequestContext,
  ): Promise<Thumbnail[]> {
    if (datasetIds.length > MAX_BATCH)
      throw validationError('datasetIds', `at most ${MAX_BATCH} per request`);
    return [...(await ctx.services.thumbnail.firstOf(ctx, datasetIds)).values()];
  }

  @Mutation(() => Thumbnail, { description: 'Adds a thumbnail to a dataset; the image is stored as JPEG.' })
  addDatasetThumbnail(
    @Arg('dataset', () => ID, { description: 'The dataset MFID.' }) dataset: string,
    @Arg('image', { description: 'The image, base64-encoded (PNG, JPEG, WebP, TIFF, GIF...).' })
    image: string,
    @Arg('name', () => String, { nullable: true, description: 'Display name.' }) name: string | undefined,
    @Ctx() ctx: RequestContext,
  ) {
    return ctx.services.thumbnail.add(ctx, dataset, { name, image });
  }

  @Mutation(() => Thumbnail, { description: 'Renames a thumbnail and/or replaces its image.' })
  updateThumbnail(
    @Arg('id', () => Int, { description: 'The thumbnail id.' }) id: number,
    @Arg('name', () => String, { nullable: true, description: 'A new display name.' })
    name: string | undefined,
    @Arg('image', () => String, { nullable: true, description: 'A new image, base64-encoded.' })
    image: string | undefined,
    @Ctx() ctx: RequestContext,
  ) {
    return ctx.services.thumbnail.update(ctx, id, { name, image });
  }

  @Mutation(() => Int, { description: 'Deletes a thumbnail; returns its id.' })
  async deleteThumbnail(
    @Arg('id', () => Int, { description: 'The thumbnail id.' }) id: number,
    @Ctx() ctx: RequestContext,
  ) {
    return (await ctx.services.thumbnail.delete(ctx, id)).id;
  }

  @FieldResolver(() => ID, { description: 'The MFID of its dataset.' })
  datasetId(@Root() t: Thumbnail): string {
    return t.dataset.uniqueId;
  }

  @FieldResolver(() => String, {
    description:
      "The image's address on this service (GET, with the caller's credentials; ETag and 304): it changes when the image does. Lighter than thumbnailB64str, and the browser caches it.",
  })
  url(@Root() t: Thumbnail): string {
    return thumbnailPath(t);
  }

  @FieldResolver(() => String, { description: 'The JPEG image, base64-encoded.' })
  async thumbnailB64str(@Root() t: Thumbnail, @Ctx() ctx: RequestContext): Promise<string> {
    // lists load thumbnails without their bytes: they are fetched (batched) only for this field
    const listed = t.data as Buffer | undefined; // absent on listed rows
    const data = listed ?? (await ctx.loaders.thumbnails.data.load(t.id));
    return (data ?? Buffer.alloc(0)).toString('base64');
  }
}

@Resolver(() => DatasetType)
export class DatasetThumbnailsResolver {
  @FieldResolver(() => [Thumbnail], { description: 'Thumbnails of this dataset, oldest first.' })
  async thumbnails(
    @Root() ds: DatasetRow,
    @Arg('first', () => Int, { nullable: true, description: 'At most this many.' })
    first: number | null | undefined,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<Thumbnail[]> {
    if (first !== undefined && first !== null && first < 0)
      throw validationError('first', 'must not be negative');
    // the image bytes are selected only when the query shows them
    const bytes = selectsField(info, 'thumbnailB64str');
    // under embargo an image is bytes: none is listed to a caller without a role on the dataset
    if (await thumbnailsClosed(ctx, ds.uniqueId)) return [];
    const loaders = ctx.loaders.thumbnails;
    if (first === 1) {
      const t = await (bytes ? loaders.firstWithData : loaders.first).load(ds.uniqueId);
      return t ? [t] : [];
    }
    const all = await (bytes ? loaders.byDatasetWithData : loaders.byDataset).load(ds.uniqueId);
    return first === undefined || first === null ? all : all.slice(0, first);
  }

  @FieldResolver(() => Thumbnail, { nullable: true, description: 'Its first thumbnail, if any.' })
  async firstThumbnail(
    @Root() ds: DatasetRow,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<Thumbnail | ThumbnailRow | null> {
    // read with the row: no thumbnail, or one no embargo holds, needs no further statement; only
    // an embargoed one asks whether this caller is exempt
    if (ds.firstThumbnail === null) return null;
    if (ds.firstThumbnail !== undefined && ds.thumbnailEmbargoed === false) return ds.firstThumbnail;
    if (await thumbnailsClosed(ctx, ds.uniqueId)) return null;
    // read with the row when a list asked for it (no bytes: `thumbnailB64str` fetches them by id)
    if (ds.firstThumbnail !== undefined) return ds.firstThumbnail;
    const loaders = ctx.loaders.thumbnails;
    return (selectsField(info, 'thumbnailB64str') ? loaders.firstWithData : loaders.first).load(ds.uniqueId);
  }
}

/**
 * Whether the thumbnails of a dataset the caller reads are closed to them by an embargo
 * (access/embargo.ts): GraphQL then lists none, as `firstThumbnails` and the REST batch leave
 * them out; `GET /datasets/{id}/thumbnails` answers 403.
 */
export async function thumbnailsClosed(ctx: RequestContext, datasetId: string): Promise<boolean> {
  return (await (await ctx.services.embargoGate.bytesLoader(ctx)).load(datasetId)) === 'closed';
}

/** Thumbnails as `Node`s: fetched again by global id, as their single-record reads see them. */
export const THUMBNAIL_NODE = nodeType<Thumbnail>(
  'Thumbnail',
  (key) => isIntegerKey(key),
  (t) => String(t.id),
  (ctx, keys) => ctx.services.thumbnail.readable(ctx, keys.map(Number)),
);
