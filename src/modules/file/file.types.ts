import { Field, InputType, ObjectType } from 'type-graphql';
import { GraphQLSafeInt } from 'graphql-scalars';
import { connectionTypes } from '../../core/graphql/connection';
import { AssociatedFile } from './file.entity';

export const { Connection: FileConnection } = connectionTypes('File', AssociatedFile, 'A page of files.');

@ObjectType({ description: 'The outcome of adding a file to a dataset.' })
export class AddFilePayload {
  @Field(() => AssociatedFile, {
    description: 'The file record: the new one, or the existing one with the same contents.',
  })
  file!: AssociatedFile;

  @Field({ description: 'False when the dataset already held identical contents (nothing new was stored).' })
  created!: boolean;

  @Field(() => String, { nullable: true, description: 'The ingestor requested for the new file, if any.' })
  ingestor!: string | null;
}

@InputType({ description: 'A remote file: catalogued by location, never fetched, uploaded or verified.' })
export class RemoteFileInput {
  @Field({ description: 'The file name (directory parts are dropped).' })
  filename!: string;

  @Field({ description: 'Where it lives, e.g. globus, nersc, local.' })
  storageBackend!: string;

  @Field(() => String, { nullable: true, description: 'Its location on that backend (may be set later).' })
  storagePath?: string | null;

  @Field(() => String, { nullable: true, description: 'How to obtain access to it.' })
  accessNote?: string | null;

  @Field(() => GraphQLSafeInt, { nullable: true, description: 'Size in bytes, if known.' })
  size?: number | null;

  @Field(() => String, { nullable: true, description: 'SHA-256 (hex), if known.' })
  sha256?: string | null;
}

@InputType({
  description: 'Changes to a file. Files in the service storage accept filename and storagePath only.',
})
export class UpdateFileInput {
  @Field(() => String, { nullable: true, description: 'A new file name.' })
  filename?: string;

  @Field(() => String, { nullable: true, description: 'The location (remote files), or the ingested path.' })
  storagePath?: string | null;

  @Field(() => String, { nullable: true, description: 'Remote files: the backend.' })
  storageBackend?: string;

  @Field(() => String, { nullable: true, description: 'Remote files: how to obtain access.' })
  accessNote?: string | null;

  @Field(() => GraphQLSafeInt, { nullable: true, description: 'Remote files: size in bytes.' })
  size?: number | null;

  @Field(() => String, { nullable: true, description: 'Remote files: SHA-256 (hex).' })
  sha256?: string | null;
}
