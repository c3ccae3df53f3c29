import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { RequestContext, type Caller, type CallerKey, type ContextSetup, type ContextTypes } from './context';
import { unauthenticated } from './errors';
import type { Request } from 'express';
import { bearerToken } from './auth/api-keys';
import {
  PRIVILEGE_HEADER,
  canElevate,
  parsePrivilegeMode,
  withPrivilegeMode,
  type PrivilegeMode,
} from './auth/privilege';
import { assertSameSiteWrite, sessionSecretOf } from './auth/sessions';

/** Where the factory finds callers; the application's user service is one. */
export interface CallerSource {
  /** The caller behind a bearer secret; null when the key is unknown, revoked or expired. */
  authenticate(em: EntityManager, token: string): Promise<Caller | null>;
  /** The caller behind a browser session's secret; null when it has ended (or never began). */
  authenticateSession(em: EntityManager, secret: string): Promise<Caller | null>;
  /** The user with this id, or null. */
  get(em: EntityManager, uniqueId: string): Promise<ContextTypes['user'] | null>;
}

/**
 * The mode a request acts in when it asks for none: a browser session's stored mode (`normal`
 * unless its administrator elevated it; an `elevated` session whose user is no longer an
 * administrator acts `normal`, never a 403), or null (today's rule) for API keys.
 */
function sessionDefault(caller: Caller): PrivilegeMode | null {
  if (caller.sessionMode === undefined) return null;
  return caller.sessionMode === 'elevated' && canElevate(caller.user.platformRole) ? 'elevated' : 'normal';
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
   * missing key is 401 unless `anonymous` is allowed (GraphQL introspection only). Without an
   * Authorization header, `session` (the secret of the session cookie, its CSRF check already
   * passed) authenticates instead; an ended session is 401. The caller acts under
   * `privilegeMode` (parsed from the `Crucible-Privilege-Mode` header by `parsePrivilegeMode`):
   * `elevated` from a caller who may not elevate is 403. Asked for none, a session acts in the
   * mode it holds (docs/authentication.md, "Elevation"), a key as before.
   */
  async forRequest(
    requestId: string,
    authorization: string | undefined,
    anonymous = false,
    opts: { privilegeMode?: PrivilegeMode | null; session?: string } = {},
  ): Promise<RequestContext> {
    const em = this.orm.em.fork();
    let caller = null;
    // an explorer's empty template ("Bearer " with no key) is no key at all, not a bad one
    if (authorization !== undefined && !/^\s*(Bearer\s*)?$/i.test(authorization)) {
      const token = bearerToken(authorization);
      if (!token) throw unauthenticated('The Authorization header must be "Bearer <api key>"');
      caller = await this.callers.authenticate(em, token);
      if (!caller) throw unauthenticated('The API key is invalid, expired or revoked');
    } else if (opts.session !== undefined) {
      caller = await this.callers.authenticateSession(em, opts.session);
      if (!caller) throw unauthenticated('Your session has ended: sign in again');
    } else if (!anonymous) {
      throw unauthenticated('An API key is required: send "Authorization: Bearer <api key>"');
    }
    if (caller) caller = withPrivilegeMode(caller, opts.privilegeMode ?? sessionDefault(caller));
    return new RequestContext(requestId, em, caller, this.setup);
  }

  /**
   * A context for an HTTP request: the API key of its Authorization header when it has one
   * (then any cookie is ignored), else its session cookie, whose writes must pass the CSRF check
   * (403 otherwise), else no caller (see {@link forRequest}).
   */
  async forHttp(req: Request, anonymous = false): Promise<RequestContext> {
    const authorization = req.get('authorization');
    const hasKey = authorization !== undefined && !/^\s*(Bearer\s*)?$/i.test(authorization);
    const session = hasKey ? undefined : sessionSecretOf(req);
    if (session !== undefined) assertSameSiteWrite(req, session, this.setup.config.publicBaseUrl);
    return this.forRequest(req.requestId, authorization, anonymous, {
      session,
      privilegeMode: parsePrivilegeMode(req.get(PRIVILEGE_HEADER)),
    });
  }

  /** A context acting as `userId`, for jobs and command-line tools. */
  async forUser(userId: string, requestId: string): Promise<RequestContext> {
    const em = this.orm.em.fork();
    const user = await this.callers.get(em, userId);
    if (!user) throw unauthenticated(`no user ${userId}`);
    return new RequestContext(requestId, em, { user, apiKey: internalKey(), token: '' }, this.setup);
  }
}
