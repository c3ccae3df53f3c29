import type { MikroORM } from '@mikro-orm/postgresql';
import type { Config } from './config';
import type { Logger } from './logger';
import { RequestContext } from './context';
import { unauthenticated } from './errors';
import { bearerToken } from './auth/api-keys';
import type { Services } from '../modules/services';
import { createLoaders } from '../modules/loaders';

/**
 * The one builder of request contexts, shared by Apollo and Express: a fresh EntityManager fork,
 * the caller behind the bearer key, and fresh DataLoaders.
 */
export class ContextFactory {
  constructor(
    private readonly orm: MikroORM,
    private readonly services: Services,
    private readonly config: Config,
    private readonly log: Logger,
  ) {}

  /**
   * A context for one request. A malformed, unknown, revoked or expired key is always 401; a
   * missing key is 401 unless `anonymous` is allowed (GraphQL introspection only).
   */
  async forRequest(
    requestId: string,
    authorization: string | undefined,
    anonymous = false,
  ): Promise<RequestContext> {
    const em = this.orm.em.fork();
    let caller = null;
    // an explorer's empty template ("Bearer " with no key) is no key at all, not a bad one
    if (authorization !== undefined && !/^\s*(Bearer\s*)?$/i.test(authorization)) {
      const token = bearerToken(authorization);
      if (!token) throw unauthenticated('The Authorization header must be "Bearer <api key>"');
      caller = await this.services.user.authenticate(em, token);
      if (!caller) throw unauthenticated('The API key is invalid, expired or revoked');
    } else if (!anonymous) {
      throw unauthenticated('An API key is required: send "Authorization: Bearer <api key>"');
    }
    return new RequestContext(requestId, em, caller, this.services, createLoaders, this.config, this.log);
  }

  /** A context acting as `userId`, for jobs and command-line tools. */
  async forUser(userId: string, requestId: string): Promise<RequestContext> {
    const em = this.orm.em.fork();
    const user = await this.services.user.get(em, userId);
    if (!user) throw unauthenticated(`no user ${userId}`);
    const apiKey = { uniqueId: 'internal', prefix: 'internal', createdAt: new Date(), user } as never;
    const ctx: RequestContext = new RequestContext(
      requestId,
      em,
      { user, apiKey, token: '' },
      this.services,
      createLoaders,
      this.config,
      this.log,
    );
    return ctx;
  }
}
