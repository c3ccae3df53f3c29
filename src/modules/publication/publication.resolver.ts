import {
  Arg,
  Ctx,
  FieldResolver,
  ID,
  Int,
  Mutation,
  ObjectType,
  Field,
  Query,
  Resolver,
  Root,
} from 'type-graphql';
import { GraphQLSafeInt } from 'graphql-scalars';
import type { RequestContext } from '../../core/context';
import { nodeType } from '../../core/graphql/node';
import { isMfid } from '../../core/ids';
import { pageSize } from '../../core/pagination';
import { validationError } from '../../core/errors';
import { citationText } from './publication-landing-html';
import { PUBLICATION_STATES, type PublicationState } from './publication.entity';
import { PublicationMetadataInput, PublicationType, toPublicationType } from './publication.types';

@ObjectType({ description: 'A page of publications.' })
class PublicationPage {
  @Field(() => [PublicationType], { description: 'The publications, newest first.' })
  items!: PublicationType[];

  @Field(() => Int, { description: 'How many publications match.' })
  total!: number;
}

@ObjectType({ description: 'A dataset of a publication, by name.' })
class PublicationDatasetName {
  @Field(() => ID, { description: 'The dataset MFID.' })
  datasetId!: string;

  @Field(() => String, { nullable: true, description: 'Its name.' })
  name!: string | null;

  @Field(() => Int, { description: 'How many files it has now (what publishing would freeze).' })
  fileCount!: number;

  @Field(() => GraphQLSafeInt, { description: 'The total size of its files now, in bytes.' })
  size!: number;
}

function state(value: string | null | undefined): PublicationState | undefined {
  if (value === null || value === undefined) return undefined;
  if (!(PUBLICATION_STATES as readonly string[]).includes(value))
    throw validationError('state', `must be one of ${PUBLICATION_STATES.join(', ')}`);
  return value as PublicationState;
}

@Resolver(() => PublicationType)
export class PublicationResolver {
  @Query(() => PublicationType, { description: 'A publication (a draft only for those who may change it).' })
  async publication(
    @Arg('id', () => ID, { description: 'The publication MFID.' }) id: string,
    @Ctx() ctx: RequestContext,
  ) {
    return toPublicationType(await ctx.services.publication.get(ctx, id));
  }

  @Query(() => PublicationPage, {
    description: 'Published and withdrawn publications, and your own drafts, newest first.',
  })
  async publications(
    @Ctx() ctx: RequestContext,
    @Arg('state', () => String, { nullable: true, description: 'Only draft, published or withdrawn ones.' })
    only?: string | null,
    @Arg('first', () => Int, { nullable: true, description: 'How many (default 50, at most 1000).' })
    first?: number | null,
    @Arg('offset', () => Int, { nullable: true, description: 'How many to skip.' }) offset?: number | null,
    @Arg('title', () => String, {
      nullable: true,
      description:
        'Only those whose title contains each of these words (case-insensitive; at most 200 characters).',
    })
    title?: string | null,
  ): Promise<PublicationPage> {
    if (title && title.length > 200) throw validationError('title', 'must be at most 200 characters');
    const page = await ctx.services.publication.list(
      ctx,
      { state: state(only), title: title ?? undefined },
      { limit: pageSize('first', first ?? 50, 1000), offset: offsetOrZero(offset) },
    );
    return { items: page.items.map(toPublicationType), total: page.total };
  }

  @FieldResolver(() => String, {
    nullable: true,
    description:
      'Why DataCite (or the DataCite Metadata Schema 4.7 check) refused its registration; shown only to those who may change it.',
  })
  async registrationError(@Root() pub: PublicationType, @Ctx() ctx: RequestContext): Promise<string | null> {
    return ctx.services.publication.registrationError(ctx, pub.source);
  }

  @FieldResolver(() => Boolean, {
    description: 'Whether you may change it: edit or publish a draft, withdraw it, start a new version.',
  })
  async canChange(@Root() pub: PublicationType, @Ctx() ctx: RequestContext): Promise<boolean> {
    return ctx.services.publication.policy.assertCanEdit(ctx, pub.source, pub.id).then(
      () => true,
      () => false,
    );
  }

  @FieldResolver(() => String, {
    description:
      'The citation as plain text (Creators (Year). Title (Version v). Publisher. DOI or landing page URL).',
  })
  async citation(@Root() pub: PublicationType, @Ctx() ctx: RequestContext): Promise<string> {
    return citationText(await ctx.services.publication.citation(ctx, pub.id));
  }

  @FieldResolver(() => [PublicationDatasetName], {
    description: 'Its datasets that you may read, in order, with their names as they are now.',
  })
  async datasets(
    @Root() pub: PublicationType,
    @Ctx() ctx: RequestContext,
  ): Promise<PublicationDatasetName[]> {
    const rows = await ctx.services.dataset.readable(ctx, pub.datasetIds, { fileCount: true });
    const byId = new Map(rows.map((d) => [d.uniqueId, d]));
    return pub.datasetIds.flatMap((id) => {
      const d = byId.get(id);
      return d ? [{ datasetId: id, name: d.datasetName, fileCount: d.fileCount ?? 0, size: d.size }] : [];
    });
  }

  @FieldResolver(() => PublicationType, { nullable: true, description: 'The version this one follows.' })
  async previousVersion(@Root() pub: PublicationType, @Ctx() ctx: RequestContext) {
    const p = await this.versions(pub, ctx);
    return p.previous ? toPublicationType(p.previous) : null;
  }

  @FieldResolver(() => PublicationType, {
    nullable: true,
    description: 'The version that follows this one (when you may read it).',
  })
  async nextVersion(@Root() pub: PublicationType, @Ctx() ctx: RequestContext) {
    const p = await this.versions(pub, ctx);
    return p.next ? toPublicationType(p.next) : null;
  }

  private async versions(pub: PublicationType, ctx: RequestContext) {
    return ctx.services.publication.versions(ctx, await ctx.services.publication.get(ctx, pub.id));
  }

  @Mutation(() => PublicationType, {
    description: 'Creates a draft publication of datasets you may manage (docs/publications.md).',
  })
  async createPublication(
    @Arg('datasetIds', () => [ID], { description: 'The datasets (1 to 1,000 MFIDs).' }) datasetIds: string[],
    @Arg('input', () => PublicationMetadataInput, { description: 'Its metadata.' })
    input: PublicationMetadataInput,
    @Ctx() ctx: RequestContext,
  ) {
    return toPublicationType(await ctx.services.publication.create(ctx, datasetIds, { ...input }));
  }

  @Mutation(() => PublicationType, { description: 'Changes a draft publication (metadata, datasets).' })
  async updatePublication(
    @Arg('id', () => ID, { description: 'The publication MFID.' }) id: string,
    @Arg('input', () => PublicationMetadataInput, { description: 'The changes; what is left out is kept.' })
    input: PublicationMetadataInput,
    @Ctx() ctx: RequestContext,
    @Arg('datasetIds', () => [ID], { nullable: true, description: 'A new dataset list.' })
    datasetIds?: string[] | null,
  ) {
    return toPublicationType(
      await ctx.services.publication.update(ctx, id, { ...input }, datasetIds ?? undefined),
    );
  }

  @Mutation(() => PublicationType, {
    description: 'Publishes a draft: its metadata and file manifest (names, sizes, SHA-256) are frozen.',
  })
  async publishPublication(
    @Arg('id', () => ID, { description: 'The publication MFID.' }) id: string,
    @Ctx() ctx: RequestContext,
  ) {
    return toPublicationType(await ctx.services.publication.publish(ctx, id));
  }

  @Mutation(() => PublicationType, {
    description: 'A new draft version of a published publication, linked to it once published.',
  })
  async newPublicationVersion(
    @Arg('id', () => ID, { description: 'The published publication MFID.' }) id: string,
    @Ctx() ctx: RequestContext,
  ) {
    return toPublicationType(await ctx.services.publication.newVersion(ctx, id));
  }

  @Mutation(() => PublicationType, { description: 'Withdraws a published publication: a tombstone stays.' })
  async withdrawPublication(
    @Arg('id', () => ID, { description: 'The publication MFID.' }) id: string,
    @Arg('reason', { description: 'Why (1 to 1,000 characters): shown on the tombstone.' }) reason: string,
    @Ctx() ctx: RequestContext,
  ) {
    return toPublicationType(await ctx.services.publication.withdraw(ctx, id, reason));
  }
}

/** Publications as `Node`s (as `publication(id:)` reads them). */
export const PUBLICATION_NODE = nodeType<PublicationType>(
  'Publication',
  isMfid,
  (p) => p.id,
  async (ctx, keys) => (await ctx.services.publication.readable(ctx, keys)).map(toPublicationType),
);

/** A skip count: none is 0; a negative one is refused, as everywhere, rather than read as 0. */
function offsetOrZero(offset: number | null | undefined): number {
  if (offset === null || offset === undefined) return 0;
  if (offset < 0) throw validationError('offset', 'must be at least 0');
  return offset;
}
