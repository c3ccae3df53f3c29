import { Field, ID, InputType, ObjectType } from 'type-graphql';
import { IsIn, IsOptional, Length, MaxLength } from 'class-validator';
import { connectionTypes } from '../../core/graphql/connection';
import { GRANTABLE_PERMISSIONS } from '../permission/permission';
import { Project } from './project.entity';
import { User } from '../user/user.entity';

@ObjectType({
  description: 'Identity and display fields of a project; implies no access to the project itself.',
})
export class ProjectRef {
  @Field(() => ID, { description: 'The project MFID.' })
  uniqueId!: string;

  @Field({ description: 'The project slug.' })
  projectId!: string;

  @Field(() => String, { nullable: true, description: 'The project title.' })
  title!: string | null;
}

/** The reference of a project, or null for none. */
export function toProjectRef(p: Project | null | undefined): ProjectRef | null {
  return p ? { uniqueId: p.uniqueId, projectId: p.projectId, title: p.title ?? null } : null;
}

@ObjectType({ description: 'What the caller may do with a project (guidance; mutations re-check).' })
export class ProjectCapabilities {
  @Field({ description: 'May read the project.' })
  canRead!: boolean;

  @Field({ description: 'May change its fields.' })
  canUpdate!: boolean;

  @Field({ description: 'May add, change and remove members.' })
  canManageMembers!: boolean;

  @Field({ description: 'May grant and revoke access.' })
  canManageAccess!: boolean;

  @Field({ description: 'May transfer ownership (the lead role).' })
  canTransferOwnership!: boolean;

  @Field({ description: 'May create datasets and samples in it.' })
  canCreateDatasets!: boolean;
}

@ObjectType({ description: 'A membership: a user, a project and the role the user holds there.' })
export class ProjectMembership {
  @Field({ description: 'The role: viewer, contributor, editor or admin (the lead holds admin).' })
  role!: string;

  @Field(() => Project, { description: 'The project.' })
  project!: Project;

  @Field(() => User, { description: 'The member.' })
  user!: User;
}

/** The descriptive fields of a project, as creates and updates take them. */
@InputType()
class ProjectTextInput {
  @Field(() => String, { nullable: true, description: 'Title.' })
  @IsOptional()
  @MaxLength(500)
  title?: string | null;

  @Field(() => String, { nullable: true, description: 'Organization.' })
  @IsOptional()
  @MaxLength(500)
  organization?: string | null;

  @Field(() => String, { nullable: true, description: 'Free-text description.' })
  @IsOptional()
  description?: string | null;
}

@InputType({ description: 'A new project.' })
export class CreateProjectInput extends ProjectTextInput {
  @Field({ description: 'Slug: 2-64 letters, digits, "_" or "-".' })
  @Length(2, 64)
  projectId!: string;

  @Field(() => String, { nullable: true, description: 'Status (default active).' })
  @IsOptional()
  @MaxLength(50)
  status?: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'The lead (the owner): ORCID, MFID, username or email. Defaults to the caller.',
  })
  @IsOptional()
  projectLead?: string | null;
}

@InputType({ description: 'Changes to a project; the lead changes only through ownership transfer.' })
export class UpdateProjectInput extends ProjectTextInput {
  @Field(() => String, { nullable: true, description: 'A new slug (rename).' })
  @IsOptional()
  @Length(2, 64)
  projectId?: string;

  @Field(() => String, { nullable: true, description: 'Status.' })
  @IsOptional()
  @MaxLength(50)
  status?: string | null;
}

@InputType({ description: 'A member to add to a project, or whose role to change.' })
export class ProjectMemberInput {
  @Field({ description: 'The member: ORCID, MFID, username or email.' })
  user!: string;

  @Field({ defaultValue: 'contributor', description: 'Role: viewer, contributor, editor or admin.' })
  @IsIn(GRANTABLE_PERMISSIONS)
  role!: string;
}

@InputType({ description: 'Access selectors of the project collection; they intersect.' })
export class ProjectFilterInput {
  @Field(() => [String], {
    nullable: true,
    description:
      'Only projects each of these users holds a role in (MFID, ORCID, username or email). Inspecting another user needs platform admin. At most 10 selectors in all.',
  })
  accessibleToUser?: string[];

  @Field(() => [String], {
    nullable: true,
    description: 'Only these projects (MFID or slug); needs membership of them. At most 10 selectors in all.',
  })
  accessibleToProject?: string[];
}

export const { Connection: ProjectConnection, Edge: ProjectEdge } = connectionTypes(
  'Project',
  Project,
  'A page of projects.',
);
