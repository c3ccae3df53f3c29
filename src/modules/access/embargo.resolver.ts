import { Arg, Ctx, Field, FieldResolver, ID, Mutation, ObjectType, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../../core/context';
import type { DatasetRow } from '../dataset/dataset-row';
import { DatasetType } from '../dataset/dataset.types';
import type { DatasetEmbargo } from './embargo.service';

@ObjectType('DatasetEmbargo', {
  description:
    'A dataset\'s embargo: while it holds, its files, download links, archives and thumbnails are closed to readers without a role on it (docs/access-control.md, "Embargo").',
})
export class DatasetEmbargoType {
  @Field(() => ID, { description: 'The dataset MFID.' })
  datasetId!: string;

  @Field(() => Date, { nullable: true, description: "The dataset's own embargo date (null: none)." })
  embargoUntil!: Date | null;

  @Field(() => Date, {
    nullable: true,
    description: "When its files open: the later of its own and its published publications' embargoes.",
  })
  filesOpenAt!: Date | null;

  @Field({ description: 'Whether its files are under embargo now.' })
  embargoed!: boolean;

  @Field({ description: 'Whether you may read its files now.' })
  bytesReadable!: boolean;
}

const view = (e: DatasetEmbargo): DatasetEmbargoType => ({ ...e });

@Resolver(() => DatasetType)
export class DatasetEmbargoResolver {
  @FieldResolver(() => DatasetEmbargoType, { description: 'Its embargo (read with the dataset).' })
  async embargo(@Root() ds: DatasetRow, @Ctx() ctx: RequestContext): Promise<DatasetEmbargoType> {
    // the row was read through the dataset's policy: its embargo is batched with the list's others
    const read = await (await ctx.services.embargo.ofReadDatasets(ctx)).load(ds.uniqueId);
    return view(read ?? (await ctx.services.embargo.ofDataset(ctx, ds.uniqueId)));
  }

  @Mutation(() => DatasetEmbargoType, {
    description: "Sets (a date) or lifts (null) a dataset's own embargo; needs admin on the dataset.",
  })
  async setDatasetEmbargo(
    @Arg('id', () => ID, { description: 'The dataset MFID.' }) id: string,
    @Arg('until', () => String, {
      nullable: true,
      description: 'An ISO 8601 date-time with offset, or a date; null lifts it.',
    })
    until: string | null,
    @Ctx() ctx: RequestContext,
  ): Promise<DatasetEmbargoType> {
    return view(await ctx.services.embargo.setForDataset(ctx, id, until ?? null));
  }
}
