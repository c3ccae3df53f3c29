import { pageSize } from '../../core/pagination';
import {
  Arg,
  Ctx,
  FieldResolver,
  ID,
  Int,
  Mutation,
  Query,
  Resolver,
  Root,
  type ClassType,
} from 'type-graphql';
import { GraphQLJSON, GraphQLJSONObject } from 'graphql-scalars';
import type { RequestContext } from '../../core/context';
import { DatasetType } from '../dataset/dataset.types';
import { SampleType } from '../sample/sample.types';
import { Project } from '../project/project.entity';
import { Instrument } from '../instrument/instrument.entity';
import type { AnyResource } from '../resource/resource.service';
import { valueAt } from '../metadata-store/metadata-document';
import { MetadataRestore, MetadataSearchHit, MetadataVersionPage } from '../metadata-store/metadata.types';

@Resolver()
export class MetadataResolver {
  @Query(() => GraphQLJSONObject, {
    nullable: true,
    description:
      'The scientific metadata of any resource (null when it has none). Project metadata is for members only.',
  })
  async scientificMetadata(
    @Arg('id', () => ID, { description: 'The MFID of a dataset, sample, project or instrument.' }) id: string,
    @Ctx() ctx: RequestContext,
  ) {
    return (await ctx.services.metadata.get(ctx, id)).data;
  }

  @Query(() => [MetadataSearchHit], {
    description:
      'Full-text search over scientific metadata (keys and values, English stemming, web-search syntax), newest first (not by relevance: each hit carries its rank); only resources you may read.',
  })
  searchMetadata(
    @Arg('q', { description: 'Search text, e.g. `calibration -raw` or `"heater temp"`.' }) q: string,
    @Arg('limit', () => Int, { defaultValue: 20, description: 'How many results (at most 50).' })
    limit: number,
    @Arg('after', () => ID, {
      nullable: true,
      description: 'Only hits older than this MFID: the uniqueId of the last hit of the previous page.',
    })
    after: string | undefined,
    @Ctx() ctx: RequestContext,
  ) {
    return ctx.services.metadata.search(ctx, q, limit, after ?? undefined);
  }

  @Mutation(() => GraphQLJSONObject, {
    description:
      'Merges metadata into a resource: top-level keys are added or replaced whole, nested objects are not merged (created when absent). With overwrite, replaces it all.',
  })
  async mergeScientificMetadata(
    @Arg('id', () => ID, { description: 'The MFID of a dataset, sample, project or instrument.' }) id: string,
    @Arg('metadata', () => GraphQLJSONObject, { description: 'The keys to merge.', validate: false })
    metadata: Record<string, unknown>,
    @Arg('overwrite', { defaultValue: false, description: 'Replace everything instead of merging.' })
    overwrite: boolean,
    @Ctx() ctx: RequestContext,
  ) {
    return (await ctx.services.metadata.write(ctx, id, overwrite ? 'replace' : 'merge', metadata)).data;
  }

  @Query(() => MetadataVersionPage, {
    description:
      "The versions of a resource's scientific metadata, newest first (whoever may read its metadata).",
  })
  metadataVersions(
    @Arg('id', () => ID, { description: 'The MFID of a dataset, sample, project or instrument.' }) id: string,
    @Arg('first', () => Int, { defaultValue: 20, description: 'How many (at most 100).' }) first: number,
    @Arg('before', () => Int, { nullable: true, description: 'Only versions older than this one.' })
    before: number | undefined,
    @Ctx() ctx: RequestContext,
  ) {
    return ctx.services.metadata.versions(ctx, id, pageSize('first', first, 100), before ?? undefined);
  }

  @Mutation(() => MetadataRestore, {
    description:
      'Restores an earlier version of the metadata as a new change (update permission on the resource).',
  })
  restoreMetadataVersion(
    @Arg('id', () => ID, { description: 'The MFID of a dataset, sample, project or instrument.' }) id: string,
    @Arg('version', () => Int, { description: 'The version to restore.' }) version: number,
    @Ctx() ctx: RequestContext,
  ) {
    return ctx.services.metadata.restore(ctx, id, version);
  }

  @Mutation(() => GraphQLJSONObject, { description: 'Replaces all the scientific metadata of a resource.' })
  async replaceScientificMetadata(
    @Arg('id', () => ID, { description: 'The MFID of a dataset, sample, project or instrument.' }) id: string,
    @Arg('metadata', () => GraphQLJSONObject, { description: 'The new document.', validate: false })
    metadata: Record<string, unknown>,
    @Ctx() ctx: RequestContext,
  ) {
    return (await ctx.services.metadata.write(ctx, id, 'replace', metadata)).data;
  }
}

/** `scientificMetadata(path)` on a resource type, batched through the request's loader. */
function metadataField<T extends { uniqueId: string }>(
  type: ClassType<T>,
  resourceType: AnyResource['type'],
) {
  @Resolver(() => type)
  class MetadataField {
    @FieldResolver(() => GraphQLJSON, {
      nullable: true,
      description:
        'Scientific metadata: the whole document, or the value at `path`; null when absent (and, on projects, for non-members).',
    })
    async scientificMetadata(
      @Root() record: T,
      @Arg('path', () => String, { nullable: true, description: 'Dot-separated keys of one value.' })
      path: string | undefined,
      @Ctx() ctx: RequestContext,
    ): Promise<unknown> {
      const resource = { type: resourceType, uniqueId: record.uniqueId, record } as unknown as AnyResource;
      const doc = await ctx.services.metadata.documentFor(ctx, resource);
      if (!doc) return null;
      return path ? valueAt(doc, path) : doc;
    }
  }
  return MetadataField;
}

export const DatasetMetadataField = metadataField(DatasetType, 'dataset');
export const SampleMetadataField = metadataField(SampleType, 'sample');
export const ProjectMetadataField = metadataField(Project, 'project');
export const InstrumentMetadataField = metadataField(Instrument, 'instrument');
