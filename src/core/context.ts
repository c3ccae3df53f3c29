import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from './config';
import type { Logger } from './logger';
import { unauthenticated } from './errors';
import type { User } from '../modules/user/user.entity';
import type { ApiKey } from '../modules/user/api-key.entity';
import type { Services } from '../modules/services';
import type { Loaders } from '../modules/loaders';
import type { GrantablePermission, Permission } from '../modules/access/permission';
import type { GrantSnapshot } from '../modules/access/access.service';

/** Who is calling: the user behind the API key of this request. */
export interface Caller {
  user: User;
  apiKey: ApiKey;
  /** The secret the caller presented on this request (never stored). */
  token: string;
}

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
}

/**
 * The per-request context, built once per request by one builder shared by Apollo and Express.
 * Every service method takes it first. `em` is a fork private to this request.
 */
export class RequestContext {
  /**
   * Held in an object rather than a field: Apollo hands resolvers a shallow copy of the context,
   * and the copy and the original (which the DataLoaders see) must share one scope.
   */
  private readonly cache: { scope?: Promise<AccessScope> } = {};
  /** Records fetched by a canonical single read: only these get `capabilities` computed. */
  readonly canonical = new WeakSet<object>();
  /** Effective permissions computed during this request, by resource id. */
  readonly permissions = new Map<string, Promise<Permission | null>>();

  readonly loaders: Loaders;

  constructor(
    readonly requestId: string,
    readonly em: EntityManager,
    private readonly currentCaller: Caller | null,
    readonly services: Services,
    private readonly makeLoaders: (em: EntityManager, context: () => RequestContext) => Loaders,
    readonly config: Config,
    readonly log: Logger,
    /** grants loaded beforehand for the records this context will be asked about */
    readonly grants?: GrantSnapshot,
  ) {
    this.loaders = makeLoaders(em, () => this);
  }

  /**
   * The same request seen as `user` would see it (platform admins inspecting another user's
   * access, previews asking about every affected user). Shares the EntityManager; has its own
   * loaders and access scope. `preloaded` hands over what was already loaded for many users at
   * once: their scope and the grants on the records in question.
   */
  as(user: User, preloaded: { scope?: AccessScope; grants?: GrantSnapshot } = {}): RequestContext {
    const caller: Caller = { user, apiKey: this.caller.apiKey, token: '' };
    const context = new RequestContext(
      this.requestId,
      this.em,
      caller,
      this.services,
      this.makeLoaders,
      this.config,
      this.log,
      preloaded.grants,
    );
    if (preloaded.scope) context.cache.scope = Promise.resolve(preloaded.scope);
    return context;
  }

  get isAuthenticated(): boolean {
    return this.currentCaller !== null;
  }

  /** The caller; throws UNAUTHENTICATED for an anonymous context. */
  get caller(): Caller {
    if (!this.currentCaller) throw unauthenticated();
    return this.currentCaller;
  }

  get userId(): string {
    return this.caller.user.uniqueId;
  }

  get isPlatformAdmin(): boolean {
    return this.currentCaller?.user.isPlatformAdmin === true;
  }

  /** The caller's access scope, computed on first use and shared for the rest of the request. */
  scope(): Promise<AccessScope> {
    if (!this.cache.scope) this.cache.scope = this.services.access.loadScope(this);
    return this.cache.scope;
  }

  /** Forgets the cached scope (after the caller's own memberships change). */
  resetScope(): void {
    this.cache.scope = undefined;
    this.permissions.clear();
  }
}
