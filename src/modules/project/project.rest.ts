import { defineRoute, type Route } from '../../core/rest/route';
import {
  Checked,
  echoed,
  NullableString,
  OFFSET_PAGE,
  offsetPage,
  QBool,
  QList,
  QStr,
  RequiredString,
  sortQuery,
  Enum,
  Type,
} from '../../core/rest/schema';
import { pageOf, sortOf } from '../../core/rest/params';
import { INCLUDE_QUERY, withMetadata } from '../../core/rest/include';
import { PROJECT, toLegacyMember, toLegacyProject } from './project.legacy';
import type { RequestContext } from '../../core/context';
import type { Project } from './project.entity';
import type { ProjectCapabilities } from './project.policy';
import { MEMBER_ROLES, PROJECT_SORTS } from './project.service';
import type { ProjectCreateInput, ProjectPatch } from './project.service';

const tag = 'projects';
const text = Type.Optional(NullableString());
const LEAD_SELECTORS = {
  project_lead: Type.Optional(NullableString({ description: 'the lead: ORCID, username or email' })),
  project_lead_orcid: text,
  project_lead_email: text,
  project_lead_username: text,
};
const CREATE_BODY = Type.Object(
  {
    project_id: RequiredString({ description: 'the slug' }),
    title: text,
    organization: text,
    description: text,
    status: text,
    ...LEAD_SELECTORS,
    ...echoed(['lead', 'scientific_metadata']),
  },
  { additionalProperties: false, title: 'ProjectCreate' },
);
const LEAD_FIELDS = [...Object.keys(LEAD_SELECTORS), 'lead'];
/**
 * The lead fields of a PATCH body name the new lead (the 3.1 CLI's `project edit` sends the
 * record back, lead included). Nulls (an email hidden from the caller) say nothing; a `lead`
 * object names the lead by its `unique_id`.
 */
const PATCH_BODY = Type.Object(
  {
    project_id: Type.Optional(RequiredString()),
    title: text,
    organization: text,
    description: text,
    status: text,
    ...Object.fromEntries(
      LEAD_FIELDS.map((f) => [f, Type.Optional(Checked('names the new lead (null: no change)'))]),
    ),
  },
  { additionalProperties: false, title: 'ProjectPatch' },
);

function leadSelectors(body: Record<string, unknown>): [string, unknown][] {
  const lead: [string, unknown][] = [];
  for (const field of LEAD_FIELDS) {
    const value = body[field];
    if (value === undefined || value === null || value === '') continue;
    const record = typeof value === 'object' ? (value as Record<string, unknown>) : null;
    lead.push([field, record ? (record.unique_id ?? record.orcid) : value]);
  }
  return lead;
}

const pid = { pid: 'the project slug or MFID' };

/**
 * A project as `/api/v3` answers it: with the caller's `role` (owner for the lead, the member
 * role, or null) and, when asked, its `members` (null for callers who may not list them).
 * `/api/v2` answers today's record (`members` only when asked).
 */
async function projectRecord(
  ctx: RequestContext,
  project: Project,
  capabilities: ProjectCapabilities | null,
  includeMembers?: boolean,
): Promise<Record<string, unknown>> {
  const out = await toLegacyProject(ctx, project, capabilities);
  if (ctx.wireVersion >= 3) {
    const scope = await ctx.scope();
    out.role =
      project.owner.uniqueId === ctx.userId ? 'owner' : (scope.projectRoles.get(project.uniqueId) ?? null);
  }
  if (includeMembers) {
    const members = await ctx.services.projectMember.visible(ctx, project);
    out.members = members ? members.map((m) => toLegacyMember(ctx, m)) : null;
  }
  return out;
}

export const projectRoutes: Route[] = [
  defineRoute(
    {
      method: 'get',
      path: '/users/:id/projects',
      tag,
      summary: "A user's projects",
      params: { id: 'ORCID, MFID, username or email' },
      query: { include_metadata: INCLUDE_QUERY.include_metadata, ...OFFSET_PAGE },
      response: offsetPage(PROJECT),
    },
    async (ctx, { params, query }) => {
      const { limit, offset } = pageOf(query, ctx.config.limits);
      const all = await ctx.services.projectMember.projectsOf(ctx, params.id);
      const items = await Promise.all(
        all
          .slice(offset, offset + limit)
          .map(async ({ project: p }) =>
            withMetadata(query, await toLegacyProject(ctx, p), () =>
              ctx.services.metadata.documentFor(ctx, { type: 'project', uniqueId: p.uniqueId, record: p }),
            ),
          ),
      );
      return { items, total: all.length };
    },
  ),
  defineRoute(
    {
      method: 'get',
      path: '/projects',
      tag,
      summary: 'Projects',
      query: {
        project_id: QStr('the slug: exact and case-insensitive (`total` is the exact count, 0 or 1)'),
        accessible_to_user: QList('readable by these users'),
        accessible_to_project: QList('readable by these projects'),
        member_ref: QList(
          'projects with one of these users (ORCID, MFID, username or email) as a member or the lead; outside platform administrators, only among your own projects',
        ),
        member_role: Type.Optional(
          Type.Array(Enum(MEMBER_ROLES), {
            description: 'members holding one of these roles (owner: the lead)',
          }),
        ),
        ...sortQuery(PROJECT_SORTS, 'by slug'),
        include_metadata: INCLUDE_QUERY.include_metadata,
        include_members: QBool('`members` on each project (null where you may not list them)'),
        ...OFFSET_PAGE,
      },
      response: offsetPage(PROJECT),
    },
    async (ctx, { query }) => {
      const page = await ctx.services.project.list(
        ctx,
        pageOf(query, ctx.config.limits),
        {
          accessibleToUser: query.accessible_to_user ?? [],
          accessibleToProject: query.accessible_to_project ?? [],
        },
        {
          projectId: query.project_id,
          memberRefs: query.member_ref,
          memberRoles: query.member_role,
          sort: sortOf(query),
        },
      );
      const items = await Promise.all(
        page.items.map(async (p) =>
          withMetadata(query, await projectRecord(ctx, p, null, query.include_members), () =>
            ctx.services.metadata.documentFor(ctx, { type: 'project', uniqueId: p.uniqueId, record: p }),
          ),
        ),
      );
      return { items, total: page.total };
    },
  ),
  defineRoute(
    {
      method: 'post',
      path: '/projects',
      tag,
      summary: 'Create a project',
      body: CREATE_BODY,
      status: 201,
      response: PROJECT,
    },
    async (ctx, input) => {
      const body = input.body as Record<string, string | null | undefined>;
      const create: ProjectCreateInput = {
        projectId: body.project_id as string,
        title: body.title,
        organization: body.organization,
        description: body.description,
        status: body.status,
        projectLead: body.project_lead,
        projectLeadOrcid: body.project_lead_orcid,
        projectLeadEmail: body.project_lead_email,
        projectLeadUsername: body.project_lead_username,
      };
      const project = await ctx.services.project.create(ctx, create);
      return toLegacyProject(ctx, project, await ctx.services.project.policy.capabilities(ctx, project));
    },
  ),
  defineRoute(
    {
      method: 'get',
      path: '/projects/:pid',
      tag,
      summary: 'A project',
      params: pid,
      query: {
        include_metadata: INCLUDE_QUERY.include_metadata,
        include_members: QBool('`members` (null when you may not list them)'),
      },
      response: PROJECT,
    },
    async (ctx, { params, query }) => {
      const project = await ctx.services.project.get(ctx, params.pid);
      const out = await projectRecord(
        ctx,
        project,
        await ctx.services.project.policy.capabilities(ctx, project),
        query.include_members,
      );
      return withMetadata(query, out, () =>
        ctx.services.metadata.documentFor(ctx, {
          type: 'project',
          uniqueId: project.uniqueId,
          record: project,
        }),
      );
    },
  ),
  defineRoute(
    {
      method: 'patch',
      path: '/projects/:pid',
      tag,
      summary: 'Update a project',
      params: pid,
      body: PATCH_BODY,
      response: PROJECT,
    },
    async (ctx, { params, body: raw }) => {
      const body = raw as Record<string, unknown>;
      const patch: ProjectPatch = { lead: leadSelectors(body) };
      if ('project_id' in body) patch.projectId = body.project_id as string;
      for (const key of ['title', 'organization', 'description', 'status'] as const) {
        if (key in body) patch[key] = body[key] as string | null;
      }
      const project = await ctx.services.project.update(ctx, params.pid, patch);
      return toLegacyProject(ctx, project, await ctx.services.project.policy.capabilities(ctx, project));
    },
  ),
];
