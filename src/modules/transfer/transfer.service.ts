import type { AccessService } from '../permission/access.service';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../core/context';
import { conflict, notFound, validationError } from '../../core/errors';
import { User } from '../user/user.entity';
import type { UserService } from '../user/user.service';
import type { Project } from '../project/project.entity';
import type { ProjectService } from '../project/project.service';
import { capitalize, type AnyResource, type ResourceService } from '../resource/resource.service';
import type { AccessSubject } from '../permission/access.service';
import type { GrantService } from '../access/grant.service';
import { rank, type Permission } from '../permission/permission';
import type { LinkRow } from '../link/link.loaders';
import { readChangeState, stateToken, type ChangeAction, type ChangeState } from './transfer-state';
import { actorOf, type EventService } from '../outbox/event.service';

/** How one user's permission on the record changes. */
export interface AccessChange {
  user: User;
  before: Permission | null;
  after: Permission | null;
}

/** A grant the change affects, and how. */
export interface AffectedGrant {
  principalType: string;
  principalId: string;
  permission: string;
  effect: 'removed' | 'kept';
  reason: string;
}

/** The exact effect of a change, as a preview shows it (and a confirm reports it). */
export interface ChangePreview {
  action: ChangeAction;
  resource: AnyResource;
  currentOwner?: User;
  newOwner?: User;
  currentProject?: Project | null;
  newProject?: Project;
  gains: AccessChange[];
  losses: AccessChange[];
  grantsAffected: AffectedGrant[];
  /** linked datasets and samples the caller may read; counts of files, datasets, samples */
  related: { links: LinkRow[]; files: number | null; datasets: number | null; samples: number | null };
  /** pass it back with confirm: the confirm fails (409) if anything it depends on changed */
  token: string;
}

export interface ChangeResult {
  preview: ChangePreview;
  applied: boolean;
}

export interface ChangeInput {
  confirm?: boolean | null;
  token?: string | null;
}

/**
 * The two risky changes (spec 1.10, 3; DESIGN §7): ownership transfer (datasets, samples,
 * projects, instruments; needs `own`) and project reassignment (datasets and samples; needs
 * `own` on the record and `contribute` on the target project). Without `confirm` they return a
 * preview and change nothing; with `confirm` they apply atomically in one transaction that
 * locks the record and re-reads the state: when it differs from the preview (the caller's
 * token, or this request's own preview) nothing changes and the answer is 409. The previous
 * owner keeps no implicit access.
 */
export class TransferService {
  constructor(
    private readonly deps: {
      resources: ResourceService;
      users: UserService;
      projects: ProjectService;
      grants: GrantService;
      access: AccessService;
      events: EventService;
    },
  ) {}

  async transferOwnership(
    ctx: RequestContext,
    id: string,
    input: ChangeInput & { newOwner?: unknown },
  ): Promise<ChangeResult> {
    const token = checkInput(input);
    const newOwner = await this.deps.users.resolveField(ctx.em, 'new_owner', input.newOwner);
    const r = await this.deps.resources.find(ctx, id);
    await this.deps.resources.assertCan(ctx, 'own', r);
    const before = this.deps.resources.subject(r);
    if (before.ownerId === newOwner.uniqueId)
      throw conflict(`${newOwner.uniqueId} already owns ${r.uniqueId}`);
    const after: AccessSubject = { ...before, ownerId: newOwner.uniqueId };
    const state = await this.state(ctx, r, before, 'transfer_ownership', newOwner.uniqueId);
    const currentOwner = await this.user(ctx, before.ownerId);
    const preview: ChangePreview = {
      action: 'transfer_ownership',
      resource: r,
      currentOwner,
      newOwner,
      ...(await this.changes(ctx, before, after, [before.ownerId, newOwner.uniqueId])),
      grantsAffected: state.grants
        .filter(([type, principal]) => type === 'user' && principal === newOwner.uniqueId)
        .map(([principalType, principalId, permission]) => ({
          principalType,
          principalId,
          permission,
          effect: 'removed' as const,
          reason: 'the new owner needs no grant',
        })),
      related: await this.related(ctx, r, state),
      token: stateToken(state),
    };
    if (!input.confirm) return { preview, applied: false };
    await this.apply(ctx, r, 'transfer_ownership', newOwner.uniqueId, token ?? preview.token, async (tx) => {
      await this.deps.resources.setOwnerIn(tx, r.type, r.uniqueId, newOwner.uniqueId);
      await this.deps.grants.removeUserGrantIn(tx, r.uniqueId, newOwner.uniqueId);
      await this.deps.events.emit(tx, {
        type: 'ownership.transferred',
        actorId: actorOf(ctx),
        resourceId: r.uniqueId,
        resourceType: r.type,
        payload: { from: before.ownerId, to: newOwner.uniqueId },
      });
    });
    return { preview: { ...preview, resource: await this.reread(ctx, r) }, applied: true };
  }

  async reassignProject(
    ctx: RequestContext,
    id: string,
    input: ChangeInput & { projectId?: string | null; projectMfid?: string | null },
  ): Promise<ChangeResult> {
    const token = checkInput(input);
    const project = await this.deps.projects.resolveSelectors(ctx.em, input.projectId, input.projectMfid);
    if (!project)
      throw validationError('project_id', 'is required: the project to assign it to (or project_mfid)');
    const r = await this.deps.resources.find(ctx, id);
    if (r.type !== 'dataset' && r.type !== 'sample') {
      throw validationError(
        'resource_type',
        `only datasets and samples are assigned to projects, not a ${r.type}`,
      );
    }
    await this.deps.resources.assertCan(ctx, 'own', r);
    await this.deps.projects.policy.assertCan(ctx, 'contribute', project);
    const before = this.deps.resources.subject(r);
    if (before.projectMfid === project.uniqueId) {
      throw conflict(`${r.uniqueId} is already assigned to project ${project.projectId}`);
    }
    const after: AccessSubject = { ...before, projectMfid: project.uniqueId };
    const state = await this.state(ctx, r, before, 'reassign_project', project.uniqueId);
    const involved = [before.projectMfid, project.uniqueId];
    const candidates = [
      ...state.members.filter(([p]) => involved.includes(p)).map(([, u]) => u),
      ...state.leads.filter(([p]) => involved.includes(p)).map(([, u]) => u),
    ];
    const preview: ChangePreview = {
      action: 'reassign_project',
      resource: r,
      currentProject: before.projectMfid ? await ctx.loaders.project.load(before.projectMfid) : null,
      newProject: project,
      ...(await this.changes(ctx, before, after, candidates)),
      grantsAffected: state.grants
        .filter(([type, principal]) => type === 'project' && principal === project.uniqueId)
        .map(([principalType, principalId, permission]) => ({
          principalType,
          principalId,
          permission,
          effect: 'kept' as const,
          reason: 'the record becomes assigned to this project; the grant stays until revoked',
        })),
      related: await this.related(ctx, r, state),
      token: stateToken(state),
    };
    if (!input.confirm) return { preview, applied: false };
    await this.apply(ctx, r, 'reassign_project', project.uniqueId, token ?? preview.token, async (tx) => {
      await this.deps.resources.setProjectIn(tx, r.type, r.uniqueId, project.uniqueId);
      await this.deps.events.emit(tx, {
        type: 'project.reassigned',
        actorId: actorOf(ctx),
        resourceId: r.uniqueId,
        resourceType: r.type,
        projectMfid: project.uniqueId,
        payload: { from: before.projectMfid, to: project.uniqueId },
      });
    });
    return { preview: { ...preview, resource: await this.reread(ctx, r) }, applied: true };
  }

  /** The state the preview depends on; 409 when it already differs from what the checks saw. */
  private async state(
    ctx: RequestContext,
    r: AnyResource,
    seen: AccessSubject,
    action: ChangeAction,
    target: string,
  ): Promise<ChangeState> {
    const state = await readChangeState(ctx.em, this.deps, r, action, target, false);
    if (!state) throw notFound(capitalize(r.type), r.uniqueId);
    if (
      state.record.ownerId !== seen.ownerId ||
      (r.type !== 'project' && state.record.projectMfid !== (seen.projectMfid ?? null))
    ) {
      throw conflict(`${r.uniqueId} changed while this request was checking it: preview again`);
    }
    return state;
  }

  /** Applies `change` in one transaction, after locking the record and re-reading its state. */
  private async apply(
    ctx: RequestContext,
    r: AnyResource,
    action: ChangeAction,
    target: string,
    expected: string,
    change: (tx: EntityManager) => Promise<void>,
  ): Promise<void> {
    await ctx.em.transactional(async (tx) => {
      const now = await readChangeState(tx, this.deps, r, action, target, true);
      if (!now) throw notFound(capitalize(r.type), r.uniqueId);
      if (stateToken(now) !== expected) {
        throw conflict(
          `${r.type} ${r.uniqueId} changed since the preview: nothing was applied; preview again`,
        );
      }
      await change(tx);
    });
    ctx.resetScope();
  }

  /**
   * Who gains and who loses access among `candidates`, each asked of the record's own policy as
   * it is (`before`) and as it would be (`after`).
   */
  private async changes(
    ctx: RequestContext,
    before: AccessSubject,
    after: AccessSubject,
    candidates: string[],
  ): Promise<{ gains: AccessChange[]; losses: AccessChange[] }> {
    const users = await ctx.em.find(
      User,
      { uniqueId: { $in: [...new Set(candidates)] } },
      { orderBy: { uniqueId: 'asc' } },
    );
    // every user's scope and the record's grants in two statements, not three per user
    const scopes = await this.deps.access.loadScopes(ctx.em, users);
    const grants = await this.deps.access.grantsOn(ctx.em, [before.uniqueId, after.uniqueId]);
    const gains: AccessChange[] = [];
    const losses: AccessChange[] = [];
    for (const user of users) {
      const as = ctx.as(user, { scope: scopes.get(user.uniqueId), grants });
      const change: AccessChange = {
        user,
        before: await this.deps.resources.permissionOf(as, before),
        after: await this.deps.resources.permissionOf(as, after),
      };
      if (rank(change.after) > rank(change.before)) gains.push(change);
      if (rank(change.after) < rank(change.before)) losses.push(change);
    }
    return { gains, losses };
  }

  private async related(
    ctx: RequestContext,
    r: AnyResource,
    state: ChangeState,
  ): Promise<ChangePreview['related']> {
    const links =
      r.type === 'dataset' || r.type === 'sample' ? await ctx.loaders.links.byResource.load(r.uniqueId) : [];
    return {
      links,
      files: state.related.files,
      datasets: state.related.datasets,
      samples: state.related.samples,
    };
  }

  private async user(ctx: RequestContext, id: string): Promise<User> {
    const user = await ctx.loaders.user.load(id);
    if (!user) throw notFound('User', id);
    return user;
  }

  /** The record as committed. */
  private reread(ctx: RequestContext, r: AnyResource): Promise<AnyResource> {
    return this.deps.resources.reread(ctx, r);
  }
}

function checkInput(input: ChangeInput): string | undefined {
  if (input.confirm !== undefined && input.confirm !== null && typeof input.confirm !== 'boolean') {
    throw validationError('confirm', 'must be true or false');
  }
  if (input.token === undefined || input.token === null || input.token === '') return undefined;
  if (typeof input.token !== 'string') throw validationError('token', 'must be the token of a preview');
  return input.token;
}
