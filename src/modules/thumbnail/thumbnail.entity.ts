import { Field, Int, ObjectType } from 'type-graphql';
import {
  BlobType,
  Entity,
  Index,
  ManyToOne,
  OptionalProps,
  PrimaryKey,
  Property,
  type Rel,
} from '@mikro-orm/core';
import { Dataset } from '../dataset/dataset.entity';
import { Node } from '../../core/graphql/node';

/** A preview image of a dataset (spec 2.4), kept as JPEG bytes whatever was uploaded. */
@ObjectType('Thumbnail', {
  implements: Node,
  description: 'A preview image of a dataset, stored as JPEG.',
})
@Entity({ tableName: 'thumbnail' })
@Index({ properties: ['dataset', 'id'] })
export class Thumbnail {
  [OptionalProps]?: 'creationTime' | 'modificationTime' | 'mimeType';

  @Field(() => Int, { description: 'The thumbnail id.' })
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @ManyToOne(() => Dataset, { fieldName: 'dataset_mfid', deleteRule: 'cascade' })
  dataset!: Rel<Dataset>;

  @Field({ description: 'Display name (its extension does not tell the format: mimeType does).' })
  @Property({ length: 255 })
  thumbnailName!: string;

  @Field({ description: 'The media type of the image: always image/jpeg.' })
  @Property({ length: 50, default: 'image/jpeg' })
  mimeType: string = 'image/jpeg';

  @Property({ type: BlobType, lazy: false })
  data!: Buffer;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  creationTime: Date = new Date();

  @Property({ type: 'timestamptz', defaultRaw: 'now()', onUpdate: () => new Date() })
  modificationTime: Date = new Date();
}
