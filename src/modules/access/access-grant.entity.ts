import { OptionalProps, Entity, Enum, Index, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import {
  GRANTABLE_PERMISSIONS,
  PRINCIPAL_TYPES,
  RESOURCE_TYPES,
  type GrantablePermission,
  type PrincipalType,
  type ResourceType,
} from '../permission/permission';

/**
 * A grant of a permission on one resource to one principal: a user (by unique_id), a project
 * (its members, by project unique_id) or a group (by name). Resource ids are MFIDs of any
 * resource type, so there is no foreign key; deleting a resource deletes its grants.
 */
@Entity({ tableName: 'access_grant' })
@Unique({ properties: ['resourceId', 'principalType', 'principalId'] })
@Index({ properties: ['principalType', 'principalId'] })
export class AccessGrant {
  [OptionalProps]?: 'creationTime';

  @PrimaryKey({ autoincrement: true })
  id!: number;

  @Property({ length: 26 })
  resourceId!: string;

  @Enum({ items: () => RESOURCE_TYPES })
  resourceType!: ResourceType;

  @Enum({ items: () => PRINCIPAL_TYPES })
  principalType!: PrincipalType;

  @Property({ length: 100 })
  principalId!: string;

  @Enum({ items: () => GRANTABLE_PERMISSIONS })
  permission!: GrantablePermission;

  @Property({ length: 32, nullable: true })
  grantedBy?: string | null;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  creationTime: Date = new Date();
}
