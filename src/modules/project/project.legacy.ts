import { NullableString, Type } from '../../core/rest/schema';
import type { RequestContext } from '../../core/context';
import { CAPABILITY_VALUE, toWireCapabilities } from '../../core/rest/wire';
import { toPublicUser, USER_FIELDS } from '../user/user.legacy';
import type { Project } from './project.entity';
import type { ProjectCapabilities } from './project.policy';
import type { ProjectMember } from './project-member.entity';

/** The legacy REST shape of a project; `capabilities` only on single reads and writes. */
export async function toLegacyProject(
  ctx: RequestContext,
  project: Project,
  capabilities: ProjectCapabilities | null = null,
): Promise<Record<string, unknown>> {
  const lead = await ctx.loaders.user.load(project.owner.uniqueId);
  const showEmail = lead ? ctx.services.user.policy.canSeeEmail(ctx, lead) : false;
  return {
    unique_id: project.uniqueId,
    project_id: project.projectId,
    title: project.title ?? null,
    organization: project.organization ?? null,
    description: project.description ?? null,
    status: project.status,
    project_lead_orcid: project.owner.uniqueId,
    project_lead_email: showEmail ? (lead?.email ?? null) : null,
    project_lead_username: lead?.username ?? null,
    lead: lead ? toPublicUser(ctx, lead) : null,
    creation_time: project.creationTime.toISOString(),
    modification_time: project.modificationTime.toISOString(),
    resource_type: 'project',
    capabilities: capabilities ? toWireCapabilities(ctx, capabilities, true) : null,
  };
}

/** The reference of a project on the legacy wire, or null for none. */
export function toLegacyProjectRef(
  p: Pick<Project, 'uniqueId' | 'projectId' | 'title'> | null | undefined,
): Record<string, unknown> | null {
  return p ? { unique_id: p.uniqueId, project_id: p.projectId, title: p.title ?? null } : null;
}

/** A member record (spec 2.6 rule 1): the public-safe user, with the role held in the project. */
export function toLegacyMember(ctx: RequestContext, m: ProjectMember): Record<string, unknown> {
  return {
    ...toPublicUser(ctx, m.user),
    orcid: m.user.uniqueId,
    is_service_account: m.user.isServiceAccount,
    role: m.role,
  };
}

const nullable = NullableString();
const nullableObject = Type.Union([Type.Object({}), Type.Null()]);
/** A project on the legacy wire. */
export const PROJECT = Type.Object(
  {
    unique_id: Type.String(),
    project_id: Type.String({ description: 'the slug' }),
    title: nullable,
    organization: nullable,
    description: nullable,
    status: nullable,
    project_lead_orcid: Type.String(),
    project_lead_email: Type.Optional(nullable),
    project_lead_username: nullable,
    lead: Type.Optional(nullableObject),
    creation_time: Type.String({ format: 'date-time' }),
    modification_time: Type.String({ format: 'date-time' }),
    resource_type: Type.Literal('project'),
    capabilities: Type.Optional(Type.Union([Type.Record(Type.String(), CAPABILITY_VALUE), Type.Null()])),
    role: Type.Optional(NullableString({ description: "/api/v3: the caller's role (owner for the lead)" })),
    members: Type.Optional(
      Type.Union([Type.Array(Type.Object({})), Type.Null()], {
        description: 'with include_members: the members',
      }),
    ),
    scientific_metadata: Type.Optional(nullableObject),
  },
  { title: 'Project' },
);
/** A project member: the public-safe user with the role. */
export const MEMBER = Type.Object({ ...USER_FIELDS, role: Type.String() }, { title: 'Member' });
