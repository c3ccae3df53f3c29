import type { Router } from 'express';
import { handle, param } from '../../core/rest/handler';
import { bodyObject, qList, qOffsetPage } from '../../core/rest/params';
import { withMetadata } from '../resource/resource.legacy';
import { pickFields, optionalString, requiredString, type Body } from '../../core/rest/body';
import { toLegacyProject } from './project.legacy';
import type { ProjectCreateInput, ProjectPatch } from './project.service';

const CREATE_FIELDS = [
  'project_id',
  'title',
  'organization',
  'description',
  'status',
  'project_lead',
  'project_lead_orcid',
  'project_lead_email',
  'project_lead_username',
] as const;
const PATCH_FIELDS = ['project_id', 'title', 'organization', 'description', 'status'] as const;

const LEAD_FIELDS = [
  'project_lead',
  'project_lead_orcid',
  'project_lead_email',
  'project_lead_username',
  'lead',
];
/**
 * The lead fields of a PATCH body, as selectors for the service (the 3.1 CLI's `project edit`
 * sends the record back, lead included), and the body without them. Nulls (an email hidden
 * from the caller) say nothing; a `lead` object names the lead by its `unique_id`.
 */
function splitLead(raw: unknown): { lead: [string, unknown][]; rest: Body } {
  const body = bodyObject(raw);
  const lead: [string, unknown][] = [];
  for (const field of LEAD_FIELDS) {
    const value = body[field];
    if (value === undefined || value === null || value === '') continue;
    const record = typeof value === 'object' ? (value as Record<string, unknown>) : null;
    lead.push([field, record ? (record.unique_id ?? record.orcid) : value]);
  }
  const rest = Object.fromEntries(Object.entries(body).filter(([k]) => !LEAD_FIELDS.includes(k)));
  return { lead, rest };
}

export function projectRoutes(router: Router): void {
  router.get(
    '/users/:id/projects',
    handle(async (ctx, req) => {
      const { limit, offset } = qOffsetPage(req.query, ctx.config.limits);
      const all = await ctx.services.projectMember.projectsOf(ctx, param(req, 'id'));
      const items = await Promise.all(
        all.slice(offset, offset + limit).map((m) => toLegacyProject(ctx, m.project)),
      );
      return { items, total: all.length };
    }),
  );
  router.get(
    '/projects',
    handle(async (ctx, req) => {
      const page = await ctx.services.project.list(ctx, qOffsetPage(req.query, ctx.config.limits), {
        accessibleToUser: qList(req.query, 'accessible_to_user'),
        accessibleToProject: qList(req.query, 'accessible_to_project'),
      });
      const items = await Promise.all(
        page.items.map(async (p) =>
          withMetadata(
            ctx,
            ctx.services.metadata,
            { type: 'project', uniqueId: p.uniqueId, record: p },
            req.query,
            await toLegacyProject(ctx, p),
          ),
        ),
      );
      return { items, total: page.total };
    }),
  );
  router.post(
    '/projects',
    handle(async (ctx, req) => {
      const body = pickFields(bodyObject(req.body), CREATE_FIELDS, {
        ignore: ['lead', 'scientific_metadata'],
      });
      const input: ProjectCreateInput = {
        projectId: requiredString(body, 'project_id'),
        title: optionalString(body, 'title'),
        organization: optionalString(body, 'organization'),
        description: optionalString(body, 'description'),
        status: optionalString(body, 'status'),
        projectLead: optionalString(body, 'project_lead'),
        projectLeadOrcid: optionalString(body, 'project_lead_orcid'),
        projectLeadEmail: optionalString(body, 'project_lead_email'),
        projectLeadUsername: optionalString(body, 'project_lead_username'),
      };
      const project = await ctx.services.project.create(ctx, input);
      return toLegacyProject(ctx, project, await ctx.services.project.policy.capabilities(ctx, project));
    }, 201),
  );
  router.get(
    '/projects/:pid',
    handle(async (ctx, req) => {
      const project = await ctx.services.project.get(ctx, param(req, 'pid'));
      const out = await toLegacyProject(
        ctx,
        project,
        await ctx.services.project.policy.capabilities(ctx, project),
      );
      return withMetadata(
        ctx,
        ctx.services.metadata,
        { type: 'project', uniqueId: project.uniqueId, record: project },
        req.query,
        out,
      );
    }),
  );
  router.patch(
    '/projects/:pid',
    handle(async (ctx, req) => {
      const { lead, rest } = splitLead(req.body);
      const body = pickFields(rest, PATCH_FIELDS);
      const patch: ProjectPatch = { lead };
      if ('project_id' in body) patch.projectId = requiredString(body, 'project_id');
      for (const [wire, key] of [
        ['title', 'title'],
        ['organization', 'organization'],
        ['description', 'description'],
        ['status', 'status'],
      ] as const) {
        if (wire in body) patch[key] = optionalString(body, wire);
      }
      const project = await ctx.services.project.update(ctx, param(req, 'pid'), patch);
      return toLegacyProject(ctx, project, await ctx.services.project.policy.capabilities(ctx, project));
    }),
  );
}
