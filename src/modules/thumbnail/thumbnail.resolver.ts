import { Arg, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../../core/context';
import { validationError } from '../../core/errors';
import { Dataset } from '../dataset/dataset.entity';
import { Thumbnail } from './thumbnail.entity';

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

  @FieldResolver(() => String, { description: 'The JPEG image, base64-encoded.' })
  thumbnailB64str(@Root() t: Thumbnail): string {
    return t.data.toString('base64');
  }
}

@Resolver(() => Dataset)
export class DatasetThumbnailsResolver {
  @FieldResolver(() => [Thumbnail], { description: 'Thumbnails of this dataset, oldest first.' })
  async thumbnails(
    @Root() ds: Dataset,
    @Arg('first', () => Int, { nullable: true, description: 'At most this many.' })
    first: number | null | undefined,
    @Ctx() ctx: RequestContext,
  ): Promise<Thumbnail[]> {
    if (first !== undefined && first !== null && first < 0)
      throw validationError('first', 'must not be negative');
    if (first === 1) {
      const t = await ctx.loaders.thumbnails.first.load(ds.uniqueId);
      return t ? [t] : [];
    }
    const all = await ctx.loaders.thumbnails.byDataset.load(ds.uniqueId);
    return first === undefined || first === null ? all : all.slice(0, first);
  }

  @FieldResolver(() => Thumbnail, { nullable: true, description: 'Its first thumbnail, if any.' })
  firstThumbnail(@Root() ds: Dataset, @Ctx() ctx: RequestContext) {
    return ctx.loaders.thumbnails.first.load(ds.uniqueId);
  }
}
