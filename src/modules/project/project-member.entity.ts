import {
  OptionalProps,
  Entity,
  Enum,
  Index,
  ManyToOne,
  PrimaryKey,
  Property,
  Unique,
  type Rel,
} from '@mikro-orm/core';
import { User } from '../user/user.entity';
import { Project } from './project.entity';
import { GRANTABLE_PERMISSIONS, type GrantablePermission } from '../permission/permission';

/** Membership of a user in a project, with a role that implies a permission on its resources. */
@Entity({ tableName: 'project_member' })
@Unique({ properties: ['project', 'user'] })
export class ProjectMember {
  [OptionalProps]?: 'role' | 'creationTime';

  @PrimaryKey({ autoincrement: true })
  id!: number;

  @ManyToOne(() => Project, { fieldName: 'project_mfid', deleteRule: 'cascade' })
  project!: Rel<Project>;

  @Index()
  @ManyToOne(() => User, { fieldName: 'user_id', deleteRule: 'cascade' })
  user!: Rel<User>;

  @Enum({ items: () => GRANTABLE_PERMISSIONS })
  role: GrantablePermission = 'contributor';

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  creationTime: Date = new Date();
}
