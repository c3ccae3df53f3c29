import type { EntityManager } from '@mikro-orm/postgresql';
import { rawQuery } from '../../core/db/raw';
import type { CallerCache } from '../../core/auth/caller-cache';
import type { RequestContext } from '../../core/context';
import { and, inList, or, sql, type Sql } from '../../core/db/sql';
import { higher, rank, type GrantablePermission, type Permission } from './permission';
import type { ResourceType } from './permission';
import type { PlatformRole } from '../../core/auth/privilege';

/** Records granted to a caller are listed by MFID in visibility conditions up to this many (else probed per row). */
export const GRANTED_ID_LIST = 1000;

/** What the caller may reach through membership, loaded once per request when first needed. */
export interface AccessScope {
  userId: string;
  isPlatformAdmin: boolean;
  /** project MFID -> role the caller holds there (lead/owner counts as `admin`) */
  projectRoles: Map<string, GrantablePermission>;
  /** project MFID -> role held by membership alone (a project's own lead is its owner instead) */
  memberRoles: Map<string, GrantablePermission>;
  /** names of the named access groups the caller belongs to (grants to them reach the caller) */
  groups: string[];
  /**
   * MFIDs of the instruments the caller is bound to as a service account (a user grant on the
   * instrument, at any level, to a service account: `InstrumentOperatorService`). It holds
   * {@link INSTRUMENT_DATASET_ROLE} on every dataset recorded with them.
   */
  instruments: string[];
}

/**
 * What a bound instrument service account holds on the datasets recorded with its instrument (the
 * 3.2 client's "contributor on every dataset assigned to the instrument"): read them and add to
 * them (files, thumbnails, metadata, keywords, links), not change their fields or access.
 */
export const INSTRUMENT_DATASET_ROLE: GrantablePermission = 'contributor';

/** One row of `scopeRowsSql`: a membership, a project the user leads, or a group. */
export interface ScopeRow {
  user_id: string;
  kind: 'member' | 'lead' | 'group' | 'instrument';
  id: string;
  role: GrantablePermission | null;
}

/**
 * The SQL of the scope rows of the users matched by `users` (`in (?)` with the ids four times,
 * or `= <column>` to correlate with an outer query): project memberships, projects they lead
 * (`admin`), named access groups, and for a service account the instruments it is bound to (any
 * user grant on an instrument: what `GET /instruments/{id}/service_accounts` lists).
 */
export function scopeRowsSql(users: string): string {
  return `select user_id, 'member' as kind, project_mfid as id, role from project_member where user_id ${users}
       union all select owner_id, 'lead', unique_id, 'admin' from project where owner_id ${users}
       union all select m.user_id, 'group', g.name, null from access_group_member m
         join access_group g on g.id = m.group_id where m.user_id ${users}
       union all select ig.principal_id, 'instrument', ig.resource_id, ig.permission from access_grant ig
         join app_user sa on sa.unique_id = ig.principal_id and sa.is_service_account
         where ig.principal_type = 'user' and ig.resource_type = 'instrument' and ig.principal_id ${users}`;
}

/** Whose scope is loaded: their id and the platform role they act with. */
export interface ScopeUser {
  uniqueId: string;
  platformRole: PlatformRole;
}

/**
 * An empty scope of `user`, filled by `addScopeRow`. `isPlatformAdmin` is the role `user` acts
 * with: a request's caller passes the effective role of their privilege mode (`ctx.platformRole`).
 */
export function emptyScope(user: ScopeUser): AccessScope {
  return {
    userId: user.uniqueId,
    isPlatformAdmin: user.platformRole === 'admin',
    projectRoles: new Map(),
    memberRoles: new Map(),
    groups: [],
    instruments: [],
  };
}

export function addScopeRow(scope: AccessScope, row: ScopeRow): void {
  if (row.kind === 'instrument') {
    scope.instruments.push(row.id);
    return;
  }
  if (row.kind === 'group' || !row.role) {
    scope.groups.push(row.id);
    return;
  }
  if (row.kind === 'member') scope.memberRoles.set(row.id, row.role);
  const current = scope.projectRoles.get(row.id) ?? null;
  scope.projectRoles.set(row.id, (higher(current, row.role) ?? row.role) as GrantablePermission);
}

/** What the access rules need to know about one record. */
export interface AccessSubject {
  uniqueId: string;
  type: ResourceType;
  ownerId: string;
  /** the MFID of the project the record is assigned to, if any */
  projectMfid?: string | null;
  /** a dataset's instrument MFID, if any (bound service accounts reach it: `AccessScope.instruments`) */
  instrumentMfid?: string | null;
  public?: boolean;
}

/** A grant as the rules need it. */
export interface GrantRecord {
  resource_id: string;
  principal_type: 'user' | 'project' | 'group';
  principal_id: string;
  permission: GrantablePermission;
}

/** The grants on some records, loaded once for many callers (see `RequestContext.as`). */
export type GrantSnapshot = ReadonlyMap<string, readonly GrantRecord[]>;

/**
 * What a caller may read (`AccessService.readableTerms`): everything, or the union of public
 * records (`public`), the records they own (`ownerId`), those of their projects (`projects`),
 * the datasets of the instruments they are bound to as a service account (`instruments`) and
 * those a grant reaches them on.
 */
export type ReadableTerms =
  | { everything: true }
  | { everything: false; public: true; ownerId: string; projects: string[]; instruments: string[] };

/**
 * Effective permission, computed one way for every module (DESIGN §5): the highest of
 * ownership; a direct user grant; grants to the caller's projects and named groups; the role
 * implied by membership of the record's project; viewer when public; everything for platform
 * admins.
 */
export class AccessService {
  /** The MFIDs granted to a caller, across requests (see {@link cacheGrantedIds}). */
  private grantedIds?: CallerCache<string[] | null>;

  /**
   * Keeps what {@link readableCondition} finds granted to a caller in `cache`, for its TTL: the
   * authentication cache's bounds (docs/operations.md, "Authentication cache"): a grant written
   * by this process empties it, one written elsewhere takes effect within the TTL.
   */
  cacheGrantedIds(cache: CallerCache<string[] | null>): void {
    this.grantedIds = cache;
  }

  /**
   * Loads, in one statement, the caller's project roles (membership, or `admin` for projects
   * they lead) and the named access groups they belong to.
   */
  async loadScope(ctx: RequestContext): Promise<AccessScope> {
    const user: ScopeUser = { uniqueId: ctx.userId, platformRole: ctx.platformRole };
    const scope = (await this.loadScopes(ctx.em, [user])).get(user.uniqueId);
    if (!scope) throw new Error(`no access scope loaded for ${user.uniqueId}`); // loadScopes makes one per user
    return scope;
  }

  /** The scopes of many users in one statement (previews ask about every affected user). */
  async loadScopes(em: EntityManager, users: readonly ScopeUser[]): Promise<Map<string, AccessScope>> {
    const scopes = new Map<string, AccessScope>();
    for (const user of users) scopes.set(user.uniqueId, emptyScope(user));
    if (users.length === 0) return scopes;
    const ids = [...scopes.keys()];
    const rows = await rawQuery<ScopeRow>(em, scopeRowsSql('in (?)'), [ids, ids, ids, ids]);
    for (const row of rows) {
      const scope = scopes.get(row.user_id);
      if (scope) addScopeRow(scope, row); // the statement selects only these users
    }
    return scopes;
  }

  /** Every grant on `resourceIds`, by resource, in one statement. */
  async grantsOn(em: EntityManager, resourceIds: readonly string[]): Promise<GrantSnapshot> {
    const snapshot = new Map<string, GrantRecord[]>(resourceIds.map((id) => [id, []]));
    if (resourceIds.length === 0) return snapshot;
    const rows = await rawQuery<GrantRecord>(
      em,
      `select resource_id, principal_type, principal_id, permission from access_grant
       where resource_id in (?)`,
      [[...new Set(resourceIds)]],
    );
    for (const row of rows) snapshot.get(row.resource_id)?.push(row); // only these resources
    return snapshot;
  }

  /**
   * The caller's effective permission on one record, or null when they may not even read it.
   * Memoised for the request (access changes call `ctx.resetScope()`).
   */
  effective(
    ctx: RequestContext,
    subject: AccessSubject,
    em: EntityManager = ctx.em,
  ): Promise<Permission | null> {
    const key = `${subject.uniqueId}:${subject.ownerId}:${subject.projectMfid ?? ''}:${subject.instrumentMfid ?? ''}:${subject.public ? 1 : 0}`;
    let result = ctx.permissions.get(key);
    if (!result) {
      result = this.compute(ctx, subject, em);
      ctx.permissions.set(key, result);
    }
    return result;
  }

  private async compute(
    ctx: RequestContext,
    subject: AccessSubject,
    em: EntityManager,
  ): Promise<Permission | null> {
    const scope = await ctx.scope();
    if (scope.isPlatformAdmin || subject.ownerId === scope.userId) return 'owner';
    let permission: Permission | null = null;
    // on a project itself, leading it is ownership (decided by the subject), not a role
    const roles = subject.type === 'project' ? scope.memberRoles : scope.projectRoles;
    if (subject.projectMfid) permission = roles.get(subject.projectMfid) ?? null;
    if (
      subject.type === 'dataset' &&
      subject.instrumentMfid &&
      scope.instruments.includes(subject.instrumentMfid)
    ) {
      permission = higher(permission, INSTRUMENT_DATASET_ROLE);
    }
    const preloaded = ctx.grants?.get(subject.uniqueId);
    let rows: readonly { permission: GrantablePermission }[];
    if (preloaded) {
      rows = preloaded.filter((g) => grantReaches(scope, g));
    } else {
      const grantCondition = this.grantPrincipals(scope, 'g');
      rows = await rawQuery<{ permission: GrantablePermission }>(
        em,
        `select g.permission from access_grant g where g.resource_id = ? and (${grantCondition.sql})`,
        [subject.uniqueId, ...grantCondition.params],
      );
    }
    for (const row of rows) permission = higher(permission, row.permission);
    if (subject.public) permission = higher(permission, 'viewer');
    return rank(permission) > 0 ? permission : null;
  }

  /**
   * Who may read what, as terms: the one statement of the visibility rule. A platform
   * administrator reads everything; anyone else reads public records, their own, those of their
   * projects, the datasets of the instruments they are bound to (a service account), and what a
   * grant reaches (`grantPrincipals`). `readableCondition` writes these terms
   * as SQL over a record table; the tallies (dataset-tally.ts) as rows of their counts.
   */
  async readableTerms(ctx: RequestContext): Promise<ReadableTerms> {
    const scope = await ctx.scope();
    if (scope.isPlatformAdmin) return { everything: true };
    return {
      everything: false,
      public: true,
      ownerId: scope.userId,
      projects: [...scope.projectRoles.keys()],
      instruments: [...scope.instruments],
    };
  }

  /**
   * The condition, on rows of a `table` of datasets or samples aliased `alias` (columns
   * `unique_id`, `owner_id`, `public`, `project_mfid` and, for datasets, `instrument_mfid`), that
   * keeps what the caller may read. Null for platform admins (no restriction). `grants: false`
   * leaves out the grants (for tables without `unique_id`, such as the dataset tally, which add
   * the granted records themselves); `instruments: false` the datasets of bound instruments (for
   * the totals, which add them themselves); `public: false` the public records, leaving what the
   * caller reads through a role on the record (the exemption from an embargo: access/embargo.ts).
   */
  async readableCondition(
    ctx: RequestContext,
    table: 'dataset' | 'sample',
    alias: string,
    opts: { grants?: boolean; instruments?: boolean; public?: boolean } = {},
  ): Promise<Sql | null> {
    const terms = await this.readableTerms(ctx);
    if (terms.everything) return null;
    return or(
      opts.public === false ? null : sql(`${alias}.public = true`),
      sql(`${alias}.owner_id = ?`, terms.ownerId),
      inList(`${alias}.project_mfid`, terms.projects),
      table === 'dataset' && opts.instruments !== false && terms.instruments.length > 0
        ? inList(`${alias}.instrument_mfid`, terms.instruments)
        : null,
      opts.grants === false ? null : await this.grantedCondition(ctx, await ctx.scope(), alias),
    );
  }

  /**
   * The records a grant lets the caller read, as a condition on `alias.unique_id`: the list of
   * their MFIDs (loaded once per request) when there are at most `GRANTED_ID_LIST`, else a probe
   * of the grants per row. The list is what keeps the planner right: it estimates and hashes an
   * `in (…)` of constants exactly, while an `exists` inside the visibility `or` gets a default
   * selectivity of one half and turns selective searches into walks of the whole table
   * (docs/scale.md). Null when no grant reaches the caller.
   */
  private async grantedCondition(
    ctx: RequestContext,
    scope: AccessScope,
    alias: string,
  ): Promise<Sql | null> {
    const ids = await ctx.memo('access.grantedIds', async () => {
      // who the grants reach: the user, their projects, their groups
      const key = JSON.stringify([
        scope.userId,
        [...scope.projectRoles.keys()].sort(),
        [...scope.groups].sort(),
      ]);
      const cached = this.grantedIds?.get(key);
      if (cached !== undefined) return cached;
      const stamp = this.grantedIds?.stamp();
      const principals = this.grantPrincipals(scope, 'g');
      const rows = await rawQuery<{ resource_id: string }>(
        ctx.em,
        `select distinct g.resource_id from access_grant g where ${principals.sql} limit ?`,
        [...principals.params, GRANTED_ID_LIST + 1],
      );
      const found = rows.length > GRANTED_ID_LIST ? null : rows.map((r) => r.resource_id);
      this.grantedIds?.set(key, found, null, stamp);
      return found;
    });
    if (ids === null) {
      const grants = this.grantPrincipals(scope, 'g');
      return {
        sql: `exists (select 1 from access_grant g where g.resource_id = ${alias}.unique_id and (${grants.sql}))`,
        params: grants.params,
      };
    }
    return ids.length === 0 ? null : inList(`${alias}.unique_id`, ids);
  }

  /**
   * Grants that reach the caller: to them, to a project they belong to, or to one of their
   * groups (in SQL; `grantReaches` is the same rule on a loaded grant).
   */
  grantPrincipals(scope: AccessScope, alias: string): Sql {
    return or(
      and(sql(`${alias}.principal_type = 'user'`), sql(`${alias}.principal_id = ?`, scope.userId)),
      scope.projectRoles.size > 0
        ? and(
            sql(`${alias}.principal_type = 'project'`),
            inList(`${alias}.principal_id`, [...scope.projectRoles.keys()]),
          )
        : null,
      scope.groups.length > 0
        ? and(sql(`${alias}.principal_type = 'group'`), inList(`${alias}.principal_id`, scope.groups))
        : null,
    );
  }
}

/** Whether a loaded grant reaches the caller of `scope`: the rule of `grantPrincipals`. */
export function grantReaches(scope: AccessScope, grant: GrantRecord): boolean {
  switch (grant.principal_type) {
    case 'user':
      return grant.principal_id === scope.userId;
    case 'project':
      return scope.projectRoles.has(grant.principal_id);
    case 'group':
      return scope.groups.includes(grant.principal_id);
  }
}
