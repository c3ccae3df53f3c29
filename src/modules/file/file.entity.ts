import { Field, ID, ObjectType } from 'type-graphql';
import { GraphQLSafeInt } from 'graphql-scalars';
import {
  BigIntType,
  Entity,
  Index,
  ManyToOne,
  PrimaryKey,
  PrimaryKeyProp,
  Property,
  type Rel,
} from '@mikro-orm/core';
import { TimedRecord } from '../../core/db/timed-record.entity';
import { Dataset } from '../dataset/dataset.entity';
import { Node } from '../../core/graphql/node';

/**
 * The `storage_backend` of files held in the service's own object store. It is the name the
 * Python client gives the service's storage (its `AssociatedFile` defaults to it and it refuses
 * to download any other backend), whatever store the service runs on.
 */
export const SERVICE_STORAGE_BACKEND = 'gcs';

/**
 * A file attached to a dataset. Stored files have an object key (`storageKey`) in the service's
 * store, a size and a SHA-256, unique per dataset; remote files record a location only
 * (`storageBackend`, `storagePath`, `accessNote`) and are never fetched or verified. Only the
 * file name is kept, never a directory.
 */
@ObjectType('File', {
  implements: Node,
  description: 'A file attached to a dataset: held in the service storage, or remote.',
})
@Entity({ tableName: 'associated_file' })
@Index({ properties: ['dataset', 'uniqueId'] })
@Index({
  name: 'associated_file_dataset_sha256_stored_uq',
  expression:
    'create unique index associated_file_dataset_sha256_stored_uq on associated_file (dataset_mfid, sha256) where storage_key is not null',
})
@Index({ properties: ['sha256'] })
@Index({
  name: 'associated_file_remote_idx',
  expression:
    'create index associated_file_remote_idx on associated_file (dataset_mfid, unique_id) where storage_key is null',
})
export class AssociatedFile extends TimedRecord {
  [PrimaryKeyProp]?: 'uniqueId';

  @Field(() => ID, { description: 'The file MFID.' })
  @PrimaryKey({ length: 26 })
  uniqueId!: string;

  @ManyToOne(() => Dataset, { fieldName: 'dataset_mfid', deleteRule: 'cascade' })
  dataset!: Rel<Dataset>;

  @Field({ description: 'The file name (never a path).' })
  @Property({ length: 255 })
  filename!: string;

  @Field(() => GraphQLSafeInt, { nullable: true, description: 'Size in bytes (optional for remote files).' })
  @Property({ type: new BigIntType('number'), nullable: true })
  size?: number | null;

  @Field(() => String, { nullable: true, description: 'SHA-256 of the contents, lowercase hex.' })
  @Property({ length: 64, nullable: true })
  sha256?: string | null;

  @Field(() => String, { nullable: true, description: 'Media type of the contents, as uploaded.' })
  @Property({ length: 255, nullable: true })
  contentType?: string | null;

  @Field({
    description: `Where the file lives: "${SERVICE_STORAGE_BACKEND}" for the service storage, else a remote backend name.`,
  })
  @Property({ length: 100 })
  storageBackend!: string;

  /** object key in the service store; null for remote files */
  @Property({ length: 300, nullable: true })
  storageKey?: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'Remote files: the location as given. Stored files: set once the file is ingested.',
  })
  @Property({ length: 2000, nullable: true })
  storagePath?: string | null;

  @Field(() => String, { nullable: true, description: 'How to obtain access to a remote file.' })
  @Property({ type: 'text', nullable: true })
  accessNote?: string | null;

  /** who added it: contributors may change the files they added */
  @Property({ length: 32, nullable: true })
  creatorId?: string | null;
}
