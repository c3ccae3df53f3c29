import { Field, ID, ObjectType } from 'type-graphql';
import {
  OptionalProps,
  PrimaryKeyProp,
  Entity,
  Index,
  ManyToOne,
  PrimaryKey,
  Property,
  type Rel,
} from '@mikro-orm/core';
import { User } from '../user/user.entity';
import { Project } from '../project/project.entity';

/**
 * A physical sample. Visibility works exactly like datasets: owner, project membership, grants,
 * public. Samples link to parent/child samples and, many to many, to datasets.
 */
@ObjectType('Sample', {
  description: 'A physical sample: it has parent/child samples and is associated with datasets.',
})
@Entity({ tableName: 'sample' })
@Index({ properties: ['project', 'uniqueId'] })
@Index({ properties: ['owner', 'uniqueId'] })
@Index({
  name: 'sample_name_trgm_idx',
  expression: 'create index sample_name_trgm_idx on sample using gin (sample_name gin_trgm_ops)',
})
export class Sample {
  [PrimaryKeyProp]?: 'uniqueId';
  [OptionalProps]?: 'public' | 'creationTime' | 'modificationTime';

  @Field(() => ID, { description: 'The sample MFID.' })
  @PrimaryKey({ length: 26 })
  uniqueId!: string;

  @Field(() => String, { description: 'Human-readable name.', nullable: true })
  @Property({ length: 500, nullable: true })
  sampleName?: string | null;

  @Field(() => String, { description: 'Kind of sample.', nullable: true })
  @Index()
  @Property({ length: 200, nullable: true })
  sampleType?: string | null;

  @Field(() => String, { description: 'Free-text description.', nullable: true })
  @Property({ type: 'text', nullable: true })
  description?: string | null;

  /** ISO 8601 text as supplied: when the sample was made or collected. */
  @Field(() => String, { description: 'ISO 8601: when the sample was made or collected.', nullable: true })
  @Property({ length: 64, nullable: true })
  timestamp?: string | null;

  @Field({ description: 'Whether every authenticated user may read it.' })
  @Property({ default: false })
  public: boolean = false;

  @ManyToOne(() => User, { fieldName: 'owner_id' })
  owner!: Rel<User>;

  @ManyToOne(() => Project, { fieldName: 'project_mfid', nullable: true, deleteRule: 'set null' })
  project?: Rel<Project> | null;

  @Field({ description: 'When the record was created.' })
  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  creationTime: Date = new Date();

  @Field({ description: 'When the record last changed.' })
  @Property({ type: 'timestamptz', defaultRaw: 'now()', onUpdate: () => new Date() })
  modificationTime: Date = new Date();
}
