import { defineRoute, type Route } from '../../core/rest/route';
import {
  Checked,
  echoed,
  NullableString,
  OFFSET_PAGE,
  offsetPage,
  QList,
  RequiredString,
  Type,
} from '../../core/rest/schema';
import { pageOf } from '../../core/rest/params';
import { INCLUDE_QUERY, withMetadata } from '../../core/rest/include';
import { PROJECT, toLegacyProject } from './project.legacy';
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

export const projectRoutes: Route[] = [
  defineRoute(
    {
      method: 'get',
      path: '/users/:id/projects',
      tag,
      summary: "A user's projects",
      params: { id: 'ORCID, MFID, username or email' },
      query: OFFSET_PAGE,
      response: offsetPage(PROJECT),
    },
    async (ctx, { params, query }) => {
      const { limit, offset } = pageOf(query, ctx.config.limits);
      const all = await ctx.services.projectMember.projectsOf(ctx, params.id);
      const items = await Promise.all(
        all.slice(offset, offset + limit).map((m) => toLegacyProject(ctx, m.project)),
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
        accessible_to_user: QList('readable by these users'),
        accessible_to_project: QList('readable by these projects'),
        include_metadata: INCLUDE_QUERY.include_metadata,
        ...OFFSET_PAGE,
      },
      response: offsetPage(PROJECT),
    },
    async (ctx, { query }) => {
      const page = await ctx.services.project.list(ctx, pageOf(query, ctx.config.limits), {
        accessibleToUser: query.accessible_to_user ?? [],
        accessibleToProject: query.accessible_to_project ?? [],
      });
      const items = await Promise.all(
        page.items.map(async (p) =>
          withMetadata(query, await toLegacyProject(ctx, p), () =>
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
      query: { include_metadata: INCLUDE_QUERY.include_metadata },
      response: PROJECT,
    },
    async (ctx, { params, query }) => {
      const project = await ctx.services.project.get(ctx, params.pid);
      const out = await toLegacyProject(
        ctx,
        project,
        await ctx.services.project.policy.capabilities(ctx, project),
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
