import { pageSize } from '../../core/pagination';
import { Arg, Ctx, Extensions, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../../core/context';
import { listCap } from '../../core/graphql/limits';
import type { BatchItem, BatchView } from './batch.service';
import { BatchOperationInput, BatchTargetsInput, BatchType } from './batch.types';

const item = (i: BatchItem) => ({
  uniqueId: i.id,
  name: i.name,
  before: i.before,
  after: i.after,
  changes: i.changes,
});

function toBatch(b: BatchView): BatchType {
  return {
    ...b,
    refused: b.refused.map((r) => ({ uniqueId: r.id, name: r.name, reason: r.reason })),
    sample: b.sample.map(item),
  };
}

@Resolver()
export class BatchResolver {
  @Mutation(() => BatchType, {
    description:
      'Previews a batch edit of datasets (nothing changes): what changes per dataset, which you may not change, and the token to apply it with.',
  })
  async previewDatasetBatch(
    @Arg('targets', () => BatchTargetsInput, {
      description: 'The datasets: a list, or every result of a search.',
    })
    targets: BatchTargetsInput,
    @Arg('operation', () => BatchOperationInput, { description: 'What to do to each.' })
    operation: BatchOperationInput,
    @Ctx() ctx: RequestContext,
  ): Promise<BatchType> {
    return toBatch(
      await ctx.services.batch.preview(
        ctx,
        {
          ids: targets.datasetIds ?? undefined,
          search: targets.search ? { ...targets.search, anyCase: true } : undefined,
        },
        { ...operation },
      ),
    );
  }

  @Mutation(() => BatchType, {
    description:
      'Applies a previewed batch edit with its token: all or nothing (FORBIDDEN or CONFLICT: nothing changed).',
  })
  async applyDatasetBatch(
    @Arg('id', () => ID, { description: 'The batch MFID.' }) id: string,
    @Arg('token', { description: "The preview's token." }) token: string,
    @Ctx() ctx: RequestContext,
  ): Promise<BatchType> {
    return toBatch(await ctx.services.batch.apply(ctx, id, token));
  }

  @Mutation(() => BatchType, {
    description:
      'Undoes an applied batch edit as one step (CONFLICT, nothing changed, when a value it set has changed since).',
  })
  async undoDatasetBatch(
    @Arg('id', () => ID, { description: 'The batch MFID.' }) id: string,
    @Ctx() ctx: RequestContext,
  ): Promise<BatchType> {
    return toBatch(await ctx.services.batch.undo(ctx, id));
  }

  @Query(() => BatchType, { description: 'One of your batch edits (NOT_FOUND for anyone else’s).' })
  async datasetBatch(
    @Arg('id', () => ID, { description: 'The batch MFID.' }) id: string,
    @Ctx() ctx: RequestContext,
  ): Promise<BatchType> {
    return toBatch(await ctx.services.batch.get(ctx, id));
  }

  @Query(() => [BatchType], { description: 'Your batch edits, newest first.' })
  @Extensions(listCap({ items: 100 }))
  async datasetBatches(
    @Arg('first', () => Int, { defaultValue: 20, description: 'How many (at most 100).' }) first: number,
    @Ctx() ctx: RequestContext,
  ): Promise<BatchType[]> {
    return (await ctx.services.batch.list(ctx, pageSize('first', first, 100))).map(toBatch);
  }
}
