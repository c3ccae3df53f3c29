import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { PREVIEW_IMAGE_MAX_BYTES, PREVIEW_MAX_BYTES } from './file-preview';

@ObjectType('FilePreview', {
  description: `A preview of a file (docs/web-app.md, "Previews"): its first bytes as text (at most ${PREVIEW_MAX_BYTES}, one range read), an image's address (up to ${PREVIEW_IMAGE_MAX_BYTES} bytes), or for HDF5 the dataset's \`hdf5\` metadata that ingestion extracts.`,
})
export class FilePreviewType {
  @Field(() => ID, { description: 'The file MFID.' })
  fileId!: string;

  @Field({ description: 'The file name.' })
  filename!: string;

  @Field({
    description:
      'csv, tsv, json, text (`text` holds the first bytes), image (`imagePath` serves it), hdf5 (the structure is the dataset metadata under `hdf5`), or none (`reason` says why).',
  })
  kind!: string;

  @Field(() => Float, { description: 'The whole file, in bytes.' })
  size!: number;

  @Field(() => String, { nullable: true, description: 'The first bytes as UTF-8 text.' })
  text!: string | null;

  @Field(() => Int, { description: 'Bytes read from storage for `text`.' })
  bytesRead!: number;

  @Field({ description: 'The file goes on past `text`.' })
  truncated!: boolean;

  @Field(() => String, {
    nullable: true,
    description: "An image's address on this service (GET with the caller's credentials; ETag and 304).",
  })
  imagePath!: string | null;

  @Field(() => String, { nullable: true, description: 'Why there is nothing to show (kind none).' })
  reason!: string | null;
}
