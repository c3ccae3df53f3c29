import { Field, ID, ObjectType } from 'type-graphql';
import { PrimaryKeyProp, Entity, Index, ManyToOne, PrimaryKey, Property, type Rel } from '@mikro-orm/core';
import { TimedRecord } from '../../core/db/timed-record.entity';
import { User } from '../user/user.entity';
import { Node } from '../../core/graphql/node';

/** A project: a slug (`projectId`), descriptive fields and exactly one owner, its lead. */
@ObjectType('Project', {
  implements: Node,
  description: 'A project: the unit of membership that datasets and samples are assigned to.',
})
@Entity({ tableName: 'project' })
@Index({
  name: 'project_search_trgm_idx',
  expression:
    "create index project_search_trgm_idx on project using gin ((coalesce(title, '') || ' ' || project_id) gin_trgm_ops)",
})
export class Project extends TimedRecord<'status'> {
  [PrimaryKeyProp]?: 'uniqueId';

  @Field(() => ID, { description: 'The project MFID.' })
  @PrimaryKey({ length: 26 })
  uniqueId!: string;

  @Field(() => String, { description: 'Human-readable slug, unique.' })
  @Property({ length: 100, unique: true })
  projectId!: string;

  @Field(() => String, { description: 'Title.', nullable: true })
  @Property({ length: 500, nullable: true })
  title?: string | null;

  @Field(() => String, { description: 'Organization the project belongs to.', nullable: true })
  @Property({ length: 500, nullable: true })
  organization?: string | null;

  @Field(() => String, { description: 'Free-text description.', nullable: true })
  @Property({ type: 'text', nullable: true })
  description?: string | null;

  @Field(() => String, { description: 'Status, for example active.' })
  @Property({ length: 50, default: 'active' })
  status: string = 'active';

  /** The project lead; the project's one owner. */
  @Index()
  @ManyToOne(() => User, { fieldName: 'owner_id' })
  owner!: Rel<User>;
}
