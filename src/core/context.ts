import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from './config';
import type { Logger } from './logger';
import { unauthenticated } from './errors';
import {
  canElevate,
  copyCaller,
  effectiveMode,
  effectiveRole,
  type PlatformRole,
  type PrivilegeMode,
} from './auth/privilege';

/**
 * The application's own types inside a request context: its user entity, its DataLoaders, its
 * services (for handlers only), the access scope it loads per caller, the grants it may preload
 * and the permissions it memoises. Core names none of them: the application declares them by
 * declaration merging in `src/app.ts`, the way `core/rest/express.d.ts` declares `req.ctx`.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ContextTypes {}

/**
 * The key a request was made with: an API key record, or the internal key of contexts built
 * for jobs and command-line tools (see `ContextFactory.forUser`).
 */
export interface CallerKey {
  uniqueId: string;
  prefix: string;
  label?: string | null;
  createdAt: Date;
  expiresAt?: Date | null;
}

/** The legacy REST wire versions: `/api/v2` (the 3.1 client) and `/api/v3` (the 3.2 client). */
export type WireVersion = 2 | 3;

/** Who is calling: the user behind the API key of this request. */
export interface Caller {
  /**
   * The user's entity in the request's EntityManager. May be a getter that makes it on first
   * use (a cached key's row, `identity` then set): copy a caller with {@link copyCaller}, never by
   * spreading it, so that a copy does not make it.
   */
  user: ContextTypes['user'];
  /**
   * The user's id and stored role, when known without the entity: what every request reads
   * (`ctx.userId`, `ctx.platformRole`, the access scope), so a request that needs no more makes
   * no entity (docs/performance.md, "The cached caller").
   */
  identity?: CallerIdentity;
  apiKey: CallerKey;
  /** The API key secret the caller presented on this request (never stored); '' for a session. */
  token: string;
  /** the browser session this request was made in (its public id), when a cookie authenticated it */
  sessionId?: string;
  /**
   * The session cookie's secret, when a cookie authenticated the request (never stored): what a
   * long-lived subscription checks again per event, as `token` for a key.
   */
  sessionSecret?: string;
  /**
   * the privilege mode the browser session holds (`user_session.privilege_mode`), when a cookie
   * authenticated the request: what the request acts in unless it asks otherwise by header
   */
  sessionMode?: PrivilegeMode;
  /** the caller's access scope, when authentication loaded it in the same statement */
  scope?: ContextTypes['scope'];
  /**
   * The privilege mode the caller asked for on this request (null: none asked, an
   * administrator acts as one); set by `withPrivilegeMode` (core/auth/privilege.ts).
   */
  privilegeMode?: PrivilegeMode | null;
}

/** The caller's user as every request reads it: id and stored platform role. */
export interface CallerIdentity {
  uniqueId: string;
  platformRole: PlatformRole;
}

/** The caller's id and stored role: `identity` when set, else read from the entity. */
export function identityOf(caller: Pick<Caller, 'user' | 'identity'>): CallerIdentity {
  return caller.identity ?? caller.user;
}

/** What every request context of a process shares, handed to core by the application. */
export interface ContextSetup {
  config: Config;
  log: Logger;
  /** the services, for handlers: nothing inside a service reaches another through a context */
  services: ContextTypes['services'];
  /** the DataLoaders of one request; loaders that filter by visibility reach it through `context` */
  createLoaders(em: EntityManager, context: () => RequestContext): ContextTypes['loaders'];
  /** the caller's access scope, loaded when a request first needs it */
  loadScope(ctx: RequestContext): Promise<ContextTypes['scope']>;
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
  private readonly cache: { scope?: Promise<ContextTypes['scope']>; memos: Map<string, Promise<unknown>> } = {
    memos: new Map(),
  };
  /** Records fetched by a canonical single read: only these get `capabilities` computed. */
  readonly canonical = new WeakSet();
  /** Effective permissions computed during this request, by resource id. */
  readonly permissions = new Map<string, Promise<ContextTypes['permission']>>();

  /**
   * The legacy REST wire version the request came in on: 2 (`/api/v2`, the 3.1 client) or 3
   * (`/api/v3`, the 3.2 client). Encoders consult it where the two clients read different shapes
   * (docs/legacy-client.md, "/api/v3"); GraphQL and jobs leave it at 2.
   */
  wireVersion: WireVersion = 2;

  readonly loaders: ContextTypes['loaders'];
  readonly services: ContextTypes['services'];
  readonly config: Config;
  readonly log: Logger;

  constructor(
    readonly requestId: string,
    readonly em: EntityManager,
    private readonly currentCaller: Caller | null,
    private readonly setup: ContextSetup,
    /** grants loaded beforehand for the records this context will be asked about */
    readonly grants?: ContextTypes['grants'],
  ) {
    this.services = setup.services;
    this.config = setup.config;
    this.log = setup.log;
    this.loaders = setup.createLoaders(em, () => this);
    if (currentCaller?.scope) this.cache.scope = Promise.resolve(currentCaller.scope);
  }

  /**
   * The same request seen as `user` would see it (platform admins inspecting another user's
   * access, previews asking about every affected user). Shares the EntityManager; has its own
   * loaders and access scope. `preloaded` hands over what was already loaded for many users at
   * once: their scope and the grants on the records in question.
   */
  as(
    user: ContextTypes['user'],
    preloaded: { scope?: ContextTypes['scope']; grants?: ContextTypes['grants'] } = {},
  ): RequestContext {
    // the caller seen as themself keeps the mode of this request; anyone else acts with their role
    const privilegeMode =
      this.currentCaller && user.uniqueId === identityOf(this.currentCaller).uniqueId
        ? this.requestedMode
        : null;
    const caller: Caller = { user, apiKey: this.caller.apiKey, token: '', privilegeMode };
    const context = new RequestContext(this.requestId, this.em, caller, this.setup, preloaded.grants);
    if (preloaded.scope) context.cache.scope = Promise.resolve(preloaded.scope);
    context.wireVersion = this.wireVersion;
    return context;
  }

  /**
   * The same request inside the transaction `tx`: a permission check asked of it reads the
   * caller's scope and grants through that transaction, so it sees what the write it guards
   * will see (DESIGN §12), and no statement waits on a second connection while the transaction
   * holds the first (which deadlocks the embedded database). Has its own loaders and scope.
   */
  within(tx: EntityManager): RequestContext {
    const caller = this.currentCaller ? copyCaller(this.currentCaller, { scope: undefined }) : null;
    const context = new RequestContext(this.requestId, tx, caller, this.setup, this.grants);
    context.wireVersion = this.wireVersion;
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
    return identityOf(this.caller).uniqueId;
  }

  /** The privilege mode the caller asked for on this request (null: none). */
  get requestedMode(): PrivilegeMode | null {
    return this.currentCaller?.privilegeMode ?? null;
  }

  /**
   * The platform role the caller acts with on this request: their stored role, except that an
   * administrator in `normal` mode acts as an ordinary member (`contributor`). Every policy and
   * visibility condition reads this (through `isPlatformAdmin` and the access scope), never the
   * stored role. `none` for anonymous contexts.
   */
  get platformRole(): PlatformRole {
    if (!this.currentCaller) return 'none';
    return effectiveRole(identityOf(this.currentCaller).platformRole, this.requestedMode);
  }

  /** The mode the caller is in: `elevated` only for an administrator who did not ask for `normal`. */
  get privilegeMode(): PrivilegeMode {
    const role = this.currentCaller ? identityOf(this.currentCaller).platformRole : 'none';
    return effectiveMode(role, this.requestedMode);
  }

  /** Whether the caller may act elevated (their stored role is `admin`), whatever this request's mode. */
  get canElevate(): boolean {
    return !!this.currentCaller && canElevate(identityOf(this.currentCaller).platformRole);
  }

  get isPlatformAdmin(): boolean {
    return this.platformRole === 'admin';
  }

  /** The caller's access scope, computed on first use and shared for the rest of the request. */
  scope(): Promise<ContextTypes['scope']> {
    if (!this.cache.scope) this.cache.scope = this.setup.loadScope(this);
    return this.cache.scope;
  }

  /**
   * A value derived from the caller's access, computed once per request under `key` (shared by
   * Apollo's copies of this context) and forgotten with the scope.
   */
  memo<T>(key: string, compute: () => Promise<T>): Promise<T> {
    let value = this.cache.memos.get(key) as Promise<T> | undefined;
    if (!value) {
      value = compute();
      this.cache.memos.set(key, value);
    }
    return value;
  }

  /** Forgets the cached scope and what was derived from it (after the caller's own memberships or grants change). */
  resetScope(): void {
    this.cache.scope = undefined;
    this.cache.memos.clear();
    this.permissions.clear();
  }
}
