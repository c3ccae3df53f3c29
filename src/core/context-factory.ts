import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { RequestContext, type Caller, type CallerKey, type ContextSetup, type ContextTypes } from './context';
import { unauthenticated } from './errors';
import { bearerToken } from './auth/api-keys';
import { withPrivilegeMode, type PrivilegeMode } from './auth/privilege';

/** Where the factory finds callers; the application's user service is one. */
export interface CallerSource {
  /** The caller behind a bearer secret; null when the key is unknown, revoked or expired. */
  authenticate(em: EntityManager, token: string): Promise<Caller | null>;
  /** The user with this id, or null. */
  get(em: EntityManager, uniqueId: string): Promise<ContextTypes['user'] | null>;
}

/** The key of contexts built for jobs and command-line tools: no API key is behind them. */
const internalKey = (): CallerKey => ({ uniqueId: 'internal', prefix: 'internal', createdAt: new Date() });

/**
 * The one builder of request contexts, shared by Apollo and Express: a fresh EntityManager fork,
 * the caller behind the bearer key, and fresh DataLoaders.
 */
export class ContextFactory {
  constructor(
    private readonly orm: MikroORM,
    private readonly callers: CallerSource,
    private readonly setup: ContextSetup,
  ) {}

  /**
   * A context for one request. A malformed, unknown, revoked or expired key is always 401; a
   * missing key is 401 unless `anonymous` is allowed (GraphQL introspection only). The caller
   * acts under `privilegeMode` (parsed from the `Crucible-Privilege-Mode` header by
   * `parsePrivilegeMode`): `elevated` from a caller who may not elevate is 403.
   */
  async forRequest(
    requestId: string,
    authorization: string | undefined,
    anonymous = false,
    privilegeMode: PrivilegeMode | null = null,
  ): Promise<RequestContext> {
    const em = this.orm.em.fork();
    let caller = null;
    // an explorer's empty template ("Bearer " with no key) is no key at all, not a bad one
    if (authorization !== undefined && !/^\s*(Bearer\s*)?$/i.test(authorization)) {
      const token = bearerToken(authorization);
      if (!token) throw unauthenticated('The Authorization header must be "Bearer <api key>"');
      caller = await this.callers.authenticate(em, token);
      if (!caller) throw unauthenticated('The API key is invalid, expired or revoked');
      caller = withPrivilegeMode(caller, privilegeMode);
    } else if (!anonymous) {
      throw unauthenticated('An API key is required: send "Authorization: Bearer <api key>"');
    }
    return new RequestContext(requestId, em, caller, this.setup);
  }

  /** A context acting as `userId`, for jobs and command-line tools. */
  async forUser(userId: string, requestId: string): Promise<RequestContext> {
    const em = this.orm.em.fork();
    const user = await this.callers.get(em, userId);
    if (!user) throw unauthenticated(`no user ${userId}`);
    return new RequestContext(requestId, em, { user, apiKey: internalKey(), token: '' }, this.setup);
  }
}
