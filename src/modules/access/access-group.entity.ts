import {
  OptionalProps,
  Entity,
  Index,
  ManyToOne,
  PrimaryKey,
  Property,
  Unique,
  type Rel,
} from '@mikro-orm/core';
import { User } from '../user/user.entity';

/**
 * A named access group (legacy access groups that are neither a project nor a user): a set of
 * users that grants can name (principal type `group`, principal id = the name).
 */
@Entity({ tableName: 'access_group' })
export class AccessGroup {
  [OptionalProps]?: 'creationTime';

  @PrimaryKey({ autoincrement: true })
  id!: number;

  @Property({ length: 100, unique: true })
  name!: string;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  creationTime: Date = new Date();
}

/** Membership of a user in a named access group. */
@Entity({ tableName: 'access_group_member' })
@Unique({ properties: ['group', 'user'] })
export class AccessGroupMember {
  [OptionalProps]?: 'creationTime';

  @PrimaryKey({ autoincrement: true })
  id!: number;

  @ManyToOne(() => AccessGroup, { fieldName: 'group_id', deleteRule: 'cascade' })
  group!: Rel<AccessGroup>;

  @Index()
  @ManyToOne(() => User, { fieldName: 'user_id', deleteRule: 'cascade' })
  user!: Rel<User>;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  creationTime: Date = new Date();
}
