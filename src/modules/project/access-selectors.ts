import type { RequestContext } from '../../core/context';
import { AppError, validationError } from '../../core/errors';
import { and, or, sql, type Sql } from '../../core/db/sql';
import type { User } from '../user/user.entity';
import type { UserService } from '../user/user.service';
import type { Project } from './project.entity';
import type { ProjectLookup } from './project-lookup';
import type { ProjectPolicy } from './project.policy';
import type { AccessService } from '../permission/access.service';
import { rawQuery } from '../../core/db/raw';

/** The access selectors of a collection request (spec 4.2 list rule 5). */
export interface AccessSelectorInput {
  /** user MFIDs, ORCIDs, usernames or emails: keep what each of them may read */
  accessibleToUser?: string[];
  /** project MFIDs or slugs: keep what is assigned or granted to each project */
  accessibleToProject?: string[];
}

interface Resolved {
  users: User[];
  projects: Project[];
}

/** At most this many selectors (users and projects together) per collection request. */
export const MAX_SELECTORS = 10;

const USER_FIELD = 'accessible_to_user';
const PROJECT_FIELD = 'accessible_to_project';

/**
 * Access selectors: `accessible_to_user` and `accessible_to_project` on the dataset, sample and
 * project collections. They intersect with each other and with the caller's own visibility, so
 * they only ever narrow what the caller may already read. Inspecting another user needs
 * platform admin (yourself is fine: `UserPolicy.assertMaySelectAccessOf`); inspecting a project
 * needs membership of it or platform admin (`ProjectPolicy.assertMayInspect`).
 */
export class AccessSelectors {
  constructor(
    private readonly deps: {
      access: AccessService;
      users: UserService;
      projects: ProjectLookup;
      projectPolicy: ProjectPolicy;
    },
  ) {}

  /** The selected users and projects, after the limit and permission checks; null when none. */
  async resolve(ctx: RequestContext, input: AccessSelectorInput): Promise<Resolved | null> {
    const given = (input.accessibleToUser?.length ?? 0) + (input.accessibleToProject?.length ?? 0);
    const users = unique(input.accessibleToUser);
    const projects = unique(input.accessibleToProject);
    if (users.length === 0 && projects.length === 0) return null;
    if (given > MAX_SELECTORS) {
      throw new AppError(
        'VALIDATION',
        `at most ${MAX_SELECTORS} access selectors (${USER_FIELD} and ${PROJECT_FIELD} together) per request`,
        [
          { field: USER_FIELD, message: `at most ${MAX_SELECTORS} selectors in total` },
          { field: PROJECT_FIELD, message: `at most ${MAX_SELECTORS} selectors in total` },
        ],
      );
    }
    const resolved: Resolved = { users: [], projects: [] };
    for (const value of users) {
      this.deps.users.policy.assertMaySelectAccessOf(ctx, value);
      const user = await this.deps.users.resolve(ctx.em, value);
      if (!user) throw validationError(USER_FIELD, `no user matches "${value}"`);
      resolved.users.push(user);
    }
    for (const value of projects) {
      const project = await this.deps.projects.find(ctx.em, value);
      if (!project) throw validationError(PROJECT_FIELD, `no project matches "${value}"`);
      await this.deps.projectPolicy.assertMayInspect(ctx, project);
      resolved.projects.push(project);
    }
    return resolved;
  }

  /**
   * The condition on the rows of a dataset or sample table aliased `alias` that the selectors
   * keep (null: no selector). A user selector keeps what that user may read; a project selector
   * keeps records assigned to the project or granted to it. `ordered`: for a page newest first.
   */
  async recordCondition(
    ctx: RequestContext,
    input: AccessSelectorInput,
    table: 'dataset' | 'sample',
    alias: string,
    ordered = false,
  ): Promise<Sql | null> {
    const resolved = await this.resolve(ctx, input);
    if (!resolved) return null;
    const parts: (Sql | null)[] = [];
    for (const user of resolved.users) {
      const seen = user.uniqueId === ctx.userId ? ctx : ctx.as(user);
      parts.push(await this.deps.access.readableCondition(seen, table, alias));
    }
    for (const project of resolved.projects) {
      parts.push(await projectCondition(ctx, { table, alias, ordered }, project.uniqueId));
    }
    return and(...parts);
  }

  /**
   * The project MFIDs the selectors keep on the project collection (null: no selector): the
   * projects each selected user holds a role in, and the selected projects themselves.
   */
  async projectIds(ctx: RequestContext, input: AccessSelectorInput): Promise<string[] | null> {
    const resolved = await this.resolve(ctx, input);
    if (!resolved) return null;
    const sets: string[][] = [];
    for (const user of resolved.users) {
      sets.push((await this.deps.projects.membershipsOf(ctx.em, user)).map((m) => m.project.uniqueId));
    }
    for (const project of resolved.projects) sets.push([project.uniqueId]);
    return sets.reduce((kept, ids) => kept.filter((id) => ids.includes(id)));
  }
}

const GRANTED_TO = `select sg.resource_id from access_grant sg where sg.principal_type = 'project' and sg.principal_id = ?`;

/**
 * Records assigned to `project` or granted to it: the project column or the granted MFIDs (a
 * bitmap OR of two index scans, what a count wants). For a page newest first (`ordered`), when
 * they are at most `ID_LIST_LIMIT` (counted on the project index and the grants, bounded, once per
 * request), the list of their MFIDs instead: the primary key walks it newest first and stops when
 * the page is full, rather than walking the whole catalog newest first for the project's share
 * of it (docs/scale.md).
 */
async function projectCondition(
  ctx: RequestContext,
  on: { table: 'dataset' | 'sample'; alias: string; ordered: boolean },
  project: string,
): Promise<Sql> {
  const { table, alias } = on;
  const limit = ctx.config.limits.idListLimit;
  const records =
    limit === 0 || !on.ordered
      ? Infinity
      : await ctx.memo(`selectors.records:${table}:${project}:${limit}`, async () => {
          const [{ n }] = await rawQuery<{ n: number }>(
            ctx.em,
            `select ((select count(*) from (select 1 from ${table} x where x.project_mfid = ? limit ?) a)
               + (select count(*) from (${GRANTED_TO} limit ?) b))::int as n`,
            [project, limit + 1, project, limit + 1],
          );
          return n;
        });
  if (records <= limit) {
    return sql(
      `${alias}.unique_id = any(array(select x.unique_id from ${table} x where x.project_mfid = ? union all ${GRANTED_TO}))`,
      project,
      project,
    );
  }
  return or(
    sql(`${alias}.project_mfid = ?`, project),
    // the granted MFIDs as a list, not a grant probe per row
    sql(`${alias}.unique_id = any(array(${GRANTED_TO}))`, project),
  );
}

function unique(values: string[] | undefined): string[] {
  return [...new Set((values ?? []).map((v) => v.trim()).filter((v) => v !== ''))];
}
