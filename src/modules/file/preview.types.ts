import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import { PREVIEW_IMAGE_MAX_BYTES, PREVIEW_MAX_BYTES } from './file-preview';
import {
  STRUCTURE_MAX_ATTRIBUTE_BYTES,
  STRUCTURE_MAX_ATTRIBUTES,
  STRUCTURE_MAX_BYTES,
  STRUCTURE_MAX_DEPTH,
  STRUCTURE_MAX_NODES,
} from './file-structure';

@ObjectType('FileStructureNode', { description: 'A group, dataset or other object of an HDF5 file.' })
export class FileStructureNodeType {
  @Field({ description: '`/` is the root group; `/entry/counts`.' })
  path!: string;

  @Field({ description: 'group, dataset or other.' })
  kind!: string;

  @Field(() => [Float], { nullable: true, description: 'Datasets: the dimensions (empty for a scalar).' })
  shape?: number[] | null;

  @Field(() => String, {
    nullable: true,
    description: 'Datasets: the element type (float64, int32, string, …).',
  })
  dtype?: string | null;

  @Field(() => GraphQLJSONObject, {
    description: `Its attributes: at most ${STRUCTURE_MAX_ATTRIBUTES}; a value over ${STRUCTURE_MAX_ATTRIBUTE_BYTES} bytes of JSON is \`{"omitted": true, "bytes": n}\`.`,
  })
  attributes!: Record<string, unknown>;
}

@ObjectType('FileStructure', {
  description: `An HDF5 file's own structure, as its last ingestion read it: at most ${STRUCTURE_MAX_NODES} nodes, ${STRUCTURE_MAX_DEPTH} levels, ${STRUCTURE_MAX_BYTES} bytes of JSON.`,
})
export class FileStructureType {
  @Field({ description: 'hdf5.' })
  format!: string;

  @Field(() => [FileStructureNodeType], { description: 'Groups, datasets and other objects in tree order.' })
  nodes!: FileStructureNodeType[];

  @Field({ description: 'Something was left out at the limits.' })
  truncated!: boolean;

  @Field(() => String, { nullable: true, description: 'The ingestor that read it.' })
  ingestor!: string | null;

  @Field({ description: 'When the ingestion recorded it.' })
  recordedAt!: Date;
}

@ObjectType('FilePreview', {
  description: `A preview of a file (docs/web-app.md, "Previews"): its first bytes as text (at most ${PREVIEW_MAX_BYTES}, one range read), an image's address (up to ${PREVIEW_IMAGE_MAX_BYTES} bytes), or for HDF5 the file's own structure, as its last ingestion read it.`,
})
export class FilePreviewType {
  @Field(() => ID, { description: 'The file MFID.' })
  fileId!: string;

  @Field({ description: 'The file name.' })
  filename!: string;

  @Field({
    description:
      'csv, tsv, json, text (`text` holds the first bytes), image (`imagePath` serves it), hdf5 (`structure`, or `reason` when not ingested yet or its ingestion failed), or none (`reason` says why).',
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

  @Field(() => String, {
    nullable: true,
    description: 'Why there is nothing to show (kind none), or no structure (kind hdf5).',
  })
  reason!: string | null;

  @Field(() => FileStructureType, {
    nullable: true,
    description: "HDF5: this file's own structure, once ingestion has read it.",
  })
  structure!: FileStructureType | null;
}
