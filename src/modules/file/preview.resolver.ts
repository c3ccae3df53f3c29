import { Arg, Ctx, ID, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../../core/context';
import { FilePreviewType } from './preview.types';

@Resolver(() => FilePreviewType)
export class FilePreviewResolver {
  @Query(() => FilePreviewType, {
    description:
      "A preview of a file's first bytes (REST `GET /files/{id}/preview`). A file whose bytes you may not read is NOT_FOUND, as a missing one.",
  })
  async filePreview(
    @Arg('file', () => ID, { description: 'The file MFID.' }) file: string,
    @Ctx() ctx: RequestContext,
  ): Promise<FilePreviewType> {
    return ctx.services.download.preview(ctx, file);
  }
}
