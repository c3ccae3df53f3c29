import { isBlank, NAME_BLANK } from '../owned-record/owned-record.fields';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { FilterQuery } from '@mikro-orm/core';
import type { RequestContext } from '../../core/context';
import { OwnershipColumns } from '../../core/db/ownership-columns';
import { AppError, assertNoProblems, notFound, validationError, type FieldProblem } from '../../core/errors';
import { uniquely } from '../../core/db/unique';
import { keysetFind, offsetFind } from '../../core/db/keyset';
import type { KeysetPage } from '../../core/pagination';
import { newMfid } from '../../core/ids';
import { slugEquals, validateSlug } from '../../core/slugs';
import { ProjectMember } from './project-member.entity';
import type { GrantablePermission } from '../permission/permission';
import type { UserService } from '../user/user.service';
import { User } from '../user/user.entity';
import type { AccessSelectorInput, AccessSelectors } from './access-selectors';
import { Project } from './project.entity';
import type { ProjectPolicy } from './project.policy';
import type { ProjectLookup } from './project-lookup';

/** The sort keys of `GET /projects` (the 3.2 client's `PROJECT_SORTS`). */
export const PROJECT_SORTS = ['project_id', 'title', 'created', 'updated'] as const;
export type ProjectSort = (typeof PROJECT_SORTS)[number];
const PROJECT_SORT_FIELDS: Record<ProjectSort, string> = {
  project_id: 'projectId',
  title: 'title',
  created: 'creationTime',
  updated: 'modificationTime',
};
/** The member roles `GET /projects?member_role=` names: the grantable levels and the lead's `owner`. */
export const MEMBER_ROLES = ['viewer', 'contributor', 'editor', 'admin', 'owner'] as const;

/** The 3.2 client's filters and sort of `GET /projects`. */
export interface ProjectListOptions {
  /** the slug, exact and case-insensitive */
  projectId?: string;
  /** projects with one of these users (ORCID, MFID, username or email) as a member or lead */
  memberRefs?: string[];
  /** … holding one of these roles (`owner`: the lead) */
  memberRoles?: string[];
  sort?: { sort: ProjectSort; direction: 'asc' | 'desc' } | null;
}

export interface ProjectCreateInput {
  projectId: string;
  title?: string | null;
  organization?: string | null;
  description?: string | null;
  status?: string | null;
  /** flexible lead: ORCID, MFID, username or email; defaults to the caller */
  projectLead?: string | null;
  /** legacy lead selectors (they must agree with each other); never together with projectLead */
  projectLeadOrcid?: string | null;
  projectLeadEmail?: string | null;
  projectLeadUsername?: string | null;
}

export interface ProjectPatch {
  projectId?: string;
  title?: string | null;
  organization?: string | null;
  description?: string | null;
  status?: string | null;
  /**
   * Lead selectors sent back with the record (field name and value): each must name the
   * current lead. The lead changes only through the ownership transfer.
   */
  lead?: [field: string, selector: unknown][];
}

const TEXT_LIMITS: Record<string, number> = {
  title: 500,
  organization: 500,
  status: 50,
  description: 100_000,
};

/** Projects and their lead (membership: `ProjectMemberService`). */
/** The ownership columns of `project`, written only through this module. */
export const PROJECT_OWNERSHIP = new OwnershipColumns('project');

export class ProjectService {
  /** the owner, for transfer and user deletion (`…In(tx)`) */
  readonly ownership = PROJECT_OWNERSHIP;

  constructor(
    private readonly users: UserService,
    readonly policy: ProjectPolicy,
    private readonly lookup: ProjectLookup,
    private readonly selectors: AccessSelectors,
  ) {}

  /** Finds a project by MFID or slug, or null. Every authenticated caller may read projects. */
  find(em: EntityManager, idOrSlug: string): Promise<Project | null> {
    return this.lookup.find(em, idOrSlug);
  }

  /**
   * Resolves a slug/MFID selector pair of an input: null when neither is given; 422 when one
   * names no project or the two name different projects.
   */
  async resolveSelectors(
    em: EntityManager,
    slug: string | null | undefined,
    mfid: string | null | undefined,
    fields: { slug: string; mfid: string } = { slug: 'project_id', mfid: 'project_mfid' },
  ): Promise<Project | null> {
    const bySlug = slug ? await em.findOne(Project, { projectId: slug }) : null;
    if (slug && !bySlug) throw validationError(fields.slug, `no project has the id "${slug}"`);
    const byMfid = mfid ? await em.findOne(Project, { uniqueId: mfid }) : null;
    if (mfid && !byMfid) throw validationError(fields.mfid, `no project has the MFID "${mfid}"`);
    if (bySlug && byMfid && bySlug !== byMfid) {
      throw new AppError('VALIDATION', `${fields.slug} and ${fields.mfid} name different projects`, [
        { field: fields.slug, message: `conflicts with ${fields.mfid}` },
        { field: fields.mfid, message: `conflicts with ${fields.slug}` },
      ]);
    }
    return bySlug ?? byMfid;
  }

  async get(ctx: RequestContext, idOrSlug: string): Promise<Project> {
    const project = await this.find(ctx.em, idOrSlug);
    if (!project) throw notFound('Project', idOrSlug);
    return project;
  }

  /** The projects of these MFIDs (a directory every caller may read), in one statement. */
  byIds(ctx: RequestContext, ids: readonly string[]): Promise<Project[]> {
    return ctx.em.find(Project, { uniqueId: { $in: [...ids] } });
  }

  /**
   * Projects (a directory every caller may read), narrowed by access selectors when given and by
   * the 3.2 client's filters (`ProjectListOptions`), in slug order unless sorted.
   */
  async list(
    ctx: RequestContext,
    page: { limit: number; offset: number },
    selectors: AccessSelectorInput = {},
    options: ProjectListOptions = {},
  ): Promise<{ items: Project[]; total: number }> {
    const where: FilterQuery<Project>[] = [await this.where(ctx, selectors)];
    if (options.projectId !== undefined) where.push({ projectId: slugEquals(options.projectId) });
    if (options.memberRefs?.length || options.memberRoles?.length) {
      where.push({ uniqueId: { $in: await this.withMembers(ctx, options) } });
    }
    const sort = options.sort;
    const dir = sort?.direction ?? 'asc';
    const orderBy: Record<string, 'asc' | 'desc'> = sort
      ? { [PROJECT_SORT_FIELDS[sort.sort]]: dir, uniqueId: dir }
      : { projectId: 'asc' };
    return offsetFind(ctx.em, Project, { $and: where }, orderBy, page);
  }

  /** The MFIDs of the projects with a member named by `memberRefs` holding one of `memberRoles`. */
  private async withMembers(ctx: RequestContext, options: ProjectListOptions): Promise<string[]> {
    const refs = options.memberRefs ?? [];
    const roles = options.memberRoles ?? [];
    const users = refs.length
      ? await ctx.em.find(
          User,
          { $or: [{ uniqueId: { $in: refs } }, { username: { $in: refs } }, { email: { $in: refs } }] },
          { fields: ['uniqueId'] },
        )
      : null;
    if (users && users.length === 0) return [];
    const ids = users?.map((u) => u.uniqueId);
    const wantsOwner = roles.length === 0 || roles.includes('owner');
    const memberRoles = roles.filter((r) => r !== 'owner');
    const found = new Set<string>();
    if (roles.length === 0 || memberRoles.length) {
      const rows = await ctx.em.find(
        ProjectMember,
        {
          ...(ids ? { user: { $in: ids } } : {}),
          ...(memberRoles.length ? { role: { $in: memberRoles as GrantablePermission[] } } : {}),
        },
        { fields: ['project'] },
      );
      for (const r of rows) found.add(r.project.uniqueId);
    }
    // the lead owns the project (it is not a member row)
    if (wantsOwner) {
      const led = await ctx.em.find(Project, ids ? { owner: { $in: ids } } : {}, { fields: ['uniqueId'] });
      for (const p of led) found.add(p.uniqueId);
    }
    if (ctx.isPlatformAdmin) return [...found];
    // who is a member where is seen only inside a project (as member lists are): others' memberships
    // narrow nothing beyond the caller's own projects
    // (the scope's roles include the projects the caller leads)
    const scope = await ctx.scope();
    return [...found].filter((id) => scope.projectRoles.has(id));
  }

  async page(
    ctx: RequestContext,
    page: { limit: number; cursor?: string },
    selectors: AccessSelectorInput = {},
  ): Promise<KeysetPage<Project>> {
    return keysetFind(ctx.em, Project, await this.where(ctx, selectors), page);
  }

  async count(ctx: RequestContext, selectors: AccessSelectorInput = {}): Promise<number> {
    return ctx.em.count(Project, await this.where(ctx, selectors));
  }

  private async where(ctx: RequestContext, selectors: AccessSelectorInput): Promise<FilterQuery<Project>> {
    const ids = await this.selectors.projectIds(ctx, selectors);
    return ids ? { uniqueId: { $in: ids } } : {};
  }

  async create(ctx: RequestContext, input: ProjectCreateInput): Promise<Project> {
    this.policy.assertCanCreate(ctx);
    const problems = checkText(input, false);
    assertNoProblems(problems);
    const projectId = validateSlug('project_id', input.projectId);
    const lead = await this.resolveLead(ctx, input);
    const em = ctx.em;
    const project = em.create(Project, {
      uniqueId: newMfid(),
      projectId,
      title: input.title ?? null,
      organization: input.organization ?? null,
      description: input.description ?? null,
      status: input.status ?? 'active',
      owner: em.getReference(User, lead.uniqueId),
    });
    await uniquely(() => em.flush(), `project ${projectId} already exists`);
    return project;
  }

  async update(ctx: RequestContext, idOrSlug: string, patch: ProjectPatch): Promise<Project> {
    const project = await this.get(ctx, idOrSlug);
    await this.policy.assertCan(ctx, 'update', project);
    assertNoProblems(checkText(patch, true));
    for (const [field, selector] of patch.lead ?? []) {
      const named = await this.users.resolveField(ctx.em, field, selector);
      if (named.uniqueId !== project.owner.uniqueId) {
        throw validationError(
          field,
          'the lead changes only through POST /resources/{mfid}/transfer_ownership',
        );
      }
    }
    if (patch.projectId !== undefined && patch.projectId !== project.projectId) {
      project.projectId = validateSlug('project_id', patch.projectId);
    }
    for (const key of ['title', 'organization', 'description', 'status'] as const) {
      if (key === 'status') {
        if (patch.status !== undefined) project.status = patch.status ?? 'active';
      } else if (patch[key] !== undefined) project[key] = patch[key];
    }
    await uniquely(() => ctx.em.flush(), `project ${project.projectId} already exists`);
    return project;
  }

  private async resolveLead(ctx: RequestContext, input: ProjectCreateInput): Promise<User> {
    const selectors: [string, string | null | undefined][] = [
      ['project_lead', input.projectLead],
      ['project_lead_orcid', input.projectLeadOrcid],
      ['project_lead_email', input.projectLeadEmail],
      ['project_lead_username', input.projectLeadUsername],
    ];
    const given = selectors.filter(([, v]) => v !== undefined && v !== null && v !== '');
    if (given.length === 0) return ctx.caller.user;
    if (given.length > 1 && given[0][0] === 'project_lead') {
      // spec §7: the flexible lead and a legacy lead field together are an error, as for owners
      const message = 'give project_lead or the legacy lead fields, not both';
      throw new AppError(
        'VALIDATION',
        message,
        given.map(([field]) => ({ field, message })),
      );
    }
    const resolved: User[] = [];
    for (const [field, value] of given) resolved.push(await this.users.resolveField(ctx.em, field, value));
    if (resolved.some((u) => u.uniqueId !== resolved[0].uniqueId)) {
      throw new AppError(
        'VALIDATION',
        `${given.map(([f]) => f).join(' and ')} name different users`,
        given.map(([field]) => ({ field, message: 'conflicts with another lead selector' })),
      );
    }
    return resolved[0];
  }
}

/** Problems with a project's text fields; its `title` (its name) must not be blank, nor cleared by an update. */
function checkText(input: object, update: boolean): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const [key, max] of Object.entries(TEXT_LIMITS)) {
    const v = (input as Record<string, unknown>)[key];
    if (key === 'title' && (isBlank(v) || (update && v === null))) {
      problems.push({ field: key, message: NAME_BLANK });
      continue;
    }
    if (v === undefined || v === null) continue;
    if (typeof v !== 'string') problems.push({ field: key, message: 'must be a string' });
    else if (v.length > max) problems.push({ field: key, message: `must be at most ${max} characters` });
  }
  return problems;
}
