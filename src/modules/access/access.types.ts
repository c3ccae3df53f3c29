import { Extensions, Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { listCap } from '../../core/graphql/limits';
import { RESOURCE_MAX_GRANTS } from './grant.service';
import { User } from '../user/user.entity';
import { ProjectRef } from '../project/project.types';

export enum GrantKindEnum {
  users = 'users',
  projects = 'projects',
  groups = 'groups',
}
registerEnumType(GrantKindEnum, {
  name: 'GrantKind',
  description: 'Who a grant is given to.',
  valuesConfig: {
    users: { description: 'A user: ORCID, MFID, username or email.' },
    projects: { description: 'The members of a project: MFID or slug.' },
    groups: { description: 'The members of a named access group: its name.' },
  },
});

export enum PermissionLevelEnum {
  viewer = 'viewer',
  contributor = 'contributor',
  editor = 'editor',
  admin = 'admin',
  owner = 'owner',
}
registerEnumType(PermissionLevelEnum, {
  name: 'PermissionLevel',
  description: 'The permission ladder: viewer < contributor < editor < admin < owner.',
  valuesConfig: {
    viewer: { description: 'Read the record and everything attached to it.' },
    contributor: { description: 'Also add files, thumbnails, metadata, keywords and links.' },
    editor: { description: "Also change the record's fields; delete files and thumbnails." },
    admin: { description: 'Also grant and revoke access, make public or private, request deletion.' },
    owner: {
      description:
        'Also transfer ownership and reassign the project. Never granted: it moves by transfer only.',
    },
  },
});

@ObjectType({ description: 'A grant of a permission on a resource to a user, project or named group.' })
export class AccessGrantType {
  @Field(() => ID, { description: 'The MFID of the resource.' })
  resourceId!: string;

  @Field({ description: 'dataset, sample, project or instrument.' })
  resourceType!: string;

  @Field({ description: 'user, project or group.' })
  principalType!: string;

  @Field({ description: 'The user unique_id, the project MFID, or the group name.' })
  principalId!: string;

  @Field(() => String, { nullable: true, description: 'The username, project slug or group name.' })
  principalName!: string | null;

  @Field(() => PermissionLevelEnum, { description: 'The level granted (never owner).' })
  permission!: PermissionLevelEnum;

  @Field(() => User, { nullable: true, description: 'User principals: the user, public-safe.' })
  user!: User | null;

  @Field(() => ProjectRef, { nullable: true, description: 'Project principals: the project.' })
  project!: ProjectRef | null;

  @Field(() => String, { nullable: true, description: 'Who granted it.' })
  grantedBy!: string | null;

  @Field({ description: 'When it was first granted.' })
  creationTime!: Date;
}

@ObjectType({ description: 'Who may access a resource: its owner, public flag, your access and its grants.' })
export class ResourceAccess {
  @Field(() => ID, { description: 'The MFID of the resource.' })
  uniqueId!: string;

  @Field({ description: 'dataset, sample, project or instrument.' })
  resourceType!: string;

  @Field({ description: 'The canonical owner identifier.' })
  ownerOrcid!: string;

  @Field(() => User, { nullable: true, description: 'The owner, public-safe.' })
  owner!: User | null;

  @Field(() => Boolean, { nullable: true, description: 'Whether it is public (null for projects).' })
  public!: boolean | null;

  @Field(() => PermissionLevelEnum, { nullable: true, description: 'Your own effective permission.' })
  effectiveAccess!: PermissionLevelEnum | null;

  @Field({
    description: 'Whether grants is the full list (you may manage access) or only the grants that reach you.',
  })
  grantsComplete!: boolean;

  @Field(() => [AccessGrantType], {
    description: `The grants (a resource holds at most ${RESOURCE_MAX_GRANTS}).`,
  })
  @Extensions(listCap({ items: RESOURCE_MAX_GRANTS }))
  grants!: AccessGrantType[];
}
