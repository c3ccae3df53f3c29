import http from 'node:http';
import express, { type RequestHandler } from 'express';
import { CompiledExecutor } from './core/graphql/compiled-executor';
import { ApolloServer, HeaderMap, type ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginLandingPageDisabled,
} from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express5';
import { GraphQLError, Kind, type OperationDefinitionNode } from 'graphql';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Config } from './core/config';
import type { Logger } from './core/logger';
import { createOrm, migrate } from './core/db/orm';
import { ENTITIES } from './modules/entities';
import { holdLiveness } from './core/db/liveness';
import { identityOf, type RequestContext } from './core/context';
import { copyCaller } from './core/auth/privilege';
import { ContextFactory, type CallerSource } from './core/context-factory';
import { accessLog, authenticate, rebindScope, requestId, wireVersion } from './core/http/middleware';
import { API_MOUNTS } from './core/rest/openapi';
import { cors } from './core/http/cors';
import { graphqlMetrics, httpMetrics, metricsEndpoint } from './core/metrics/http';
import { CallerCache, noteStatement } from './core/auth/caller-cache';
import type { AuthRow } from './modules/user/user.service';
import { attachDatabaseMetrics } from './core/metrics/database';
import { buildGraphqlSchema } from './core/graphql/schema';
import { serveSubscriptions } from './core/graphql/subscriptions';
import { queryLimits } from './core/graphql/limits';
import { formatGraphqlError, unavailableStatus } from './core/graphql/errors';
import { graphqlGate, graphqlRequestErrors } from './core/graphql/gate';
import { statusByMediaType } from './core/graphql/media-type';
import { bearerChallenge } from './core/auth/challenge';
import { explorerRouter } from './core/graphql/explorer';
import { authRouter } from './modules/session/auth.rest';
import { SignInAudit } from './modules/session/sign-in-audit';
import { SignInLimiter } from './modules/session/sign-in-limiter';
import { OidcService } from './modules/session/oidc.service';
import { randomBytes } from 'node:crypto';
import { webAppRouter } from './core/http/web-app';
import { landingRouter } from './modules/publication/publication-landing.rest';
import { compressJson } from './core/http/compress-json';
import { restErrorHandler } from './core/rest/errors';
import { jsonBodies, noRoute, pathAndQueryGuard } from './core/rest/input';
import { stopDigestThread } from './core/storage/digest-thread';
import { stopDataciteSchemaThread } from './modules/publication/datacite-schema';
import { createServices, initServices, type Services } from './modules/services';
import { createLoaders, type Loaders } from './modules/loaders';
import { RESOLVERS } from './modules/resolvers';
import type { User } from './modules/user/user.entity';
import {
  addScopeRow,
  emptyScope,
  scopeRowsSql,
  type AccessScope,
  type GrantSnapshot,
  type ScopeRow,
} from './modules/permission/access.service';
import type { Permission } from './modules/permission/permission';
import { apiDocument, mountRoutes, publicRoutes } from './modules/routes';
import { docsRouter } from './core/rest/docs';
import { HealthService } from './modules/health/health.service';
import { healthRouter } from './modules/health/health.rest';
import { oaiRouter } from './modules/publication/oai.rest';
import { ensureBootstrapAdmin, type BootstrapResult } from './modules/user/bootstrap';
import type { JobWorker } from './core/jobs/worker';
import { createJobWorker, createWebhookDispatcher } from './modules/jobs';
import type { WebhookDispatcher } from './modules/webhook/webhook-dispatcher';

declare module './core/context' {
  /** This application's types in every request context (core names none of them). */
  interface ContextTypes {
    user: User;
    loaders: Loaders;
    /** for handlers only: services get what they call in their constructors (see services.ts) */
    services: Services;
    scope: AccessScope;
    grants: GrantSnapshot;
    permission: Permission | null;
  }
}

/**
 * The request contexts of this process: callers are found by the user service, scopes loaded
 * by the access service, and every request gets fresh DataLoaders.
 */
export function createContexts(
  orm: MikroORM,
  services: Services,
  config: Config,
  log: Logger,
): ContextFactory {
  // the key, its user and the user's access scope in one statement
  const scope = `(select coalesce(json_agg(s), '[]'::json) from (${scopeRowsSql('= u.unique_id')}) s)`;
  const cache = new CallerCache<AuthRow>(config.authCacheTtlMs);
  // what is granted to a caller, for the visibility of lists: the same bounds
  services.access.cacheGrantedIds(new CallerCache<string[] | null>(config.authCacheTtlMs));
  watchAuthWrites(orm);
  const callers: CallerSource = {
    async authenticate(em, token) {
      const caller = await services.user.authenticate(em, token, scope, cache);
      if (!caller) return null;
      const access = emptyScope(identityOf(caller));
      for (const row of caller.attached as ScopeRow[]) addScopeRow(access, row);
      // a copy that keeps the user entity made on first use (copyCaller)
      return copyCaller(caller, { token, scope: access, attached: undefined });
    },
    async authenticateSession(em, secret) {
      const caller = await services.session.authenticate(em, secret, scope);
      if (!caller) return null;
      const access = emptyScope(caller.user);
      for (const row of caller.attached as ScopeRow[]) addScopeRow(access, row);
      return { ...caller, sessionSecret: secret, scope: access };
    },
    get: (em, uniqueId) => services.user.get(em, uniqueId),
  };
  return new ContextFactory(orm, callers, {
    config,
    log,
    services,
    createLoaders: (em, context) => createLoaders({ access: services.access }, em, context),
    loadScope: (ctx) => services.access.loadScope(ctx),
  });
}

export interface AppOptions {
  config: Config;
  log: Logger;
  databaseUrl: string;
  /** called with every SQL statement (tests count them) */
  onQuery?: (sql: string) => void;
}

export interface App {
  config: Config;
  orm: MikroORM;
  services: Services;
  contexts: ContextFactory;
  server: http.Server;
  bootstrap: BootstrapResult;
  health: HealthService;
  /** this process's job worker: started by role `all` (see main.ts); tests drain it */
  jobs: JobWorker;
  /** this process's webhook dispatcher: started with the job worker; tests drain it */
  webhooks: WebhookDispatcher;
  listen(port?: number, host?: string): Promise<number>;
  close(): Promise<void>;
}

/** Only `__schema`, `__type` and `__typename` at the top: explorers may introspect anonymously. */
function introspectionOnly(op: OperationDefinitionNode): boolean {
  return op.selectionSet.selections.every((s) => s.kind === Kind.FIELD && s.name.value.startsWith('__'));
}

const requireCaller: ApolloServerPlugin<RequestContext> = {
  requestDidStart() {
    return Promise.resolve({
      didResolveOperation({ contextValue, operation, request }) {
        if (!contextValue.isAuthenticated && !(operation && introspectionOnly(operation))) {
          const challenge = bearerChallenge(request.http?.headers.get('authorization'));
          throw new GraphQLError('An API key is required: send "Authorization: Bearer <api key>"', {
            extensions: {
              code: 'UNAUTHENTICATED',
              http: { status: 401, headers: new HeaderMap([['www-authenticate', challenge]]) },
            },
          });
        }
        return Promise.resolve();
      },
    });
  },
};

/** Shows the authentication caches every statement this process sends (see CallerCache). */
/** GraphQL answers are per caller and never cached (what Apollo's cache-control plugin sent). */
const noStore: RequestHandler = (_req, res, next) => {
  res.setHeader('Cache-Control', 'no-store');
  next();
};

function watchAuthWrites(orm: MikroORM): void {
  const knex = orm.em.getConnection().getKnex();
  const note = (q: { sql?: string } | undefined) => {
    if (q?.sql) noteStatement(q.sql);
  };
  knex.on('query', note);
  knex.on('query-response', (_response: unknown, q: { sql?: string } | undefined) => {
    note(q);
  });
}

/** Builds the HTTP application (GraphQL, REST shim, health) over a migrated database. */
export async function createApp(opts: AppOptions): Promise<App> {
  const { config, log } = opts;
  const orm = await createOrm({
    clientUrl: opts.databaseUrl,
    entities: ENTITIES,
    poolMax: config.dbPoolMax,
    logger: log,
    onQuery: opts.onQuery,
  });
  await migrate(orm, log);
  const releaseLiveness = await holdLiveness(orm, opts.databaseUrl, log);
  const services = createServices({ config, log });
  await initServices(services, orm.em.fork(), config);
  const bootstrap = await ensureBootstrapAdmin(orm.em.fork(), services.user, config.adminApiKey);
  const contexts = createContexts(orm, services, config, log);
  const health = new HealthService(orm, config);
  const jobs = createJobWorker({ orm, services, config, log });
  const webhooks = createWebhookDispatcher({ orm, services, contexts, config, log });
  const detachMetrics = attachDatabaseMetrics(orm);

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  const server = http.createServer(app);
  // uploads stream for as long as they take; headersTimeout still guards against idle clients
  server.requestTimeout = 0;
  // idle keep-alive connections outlive a client's reuse window (and a proxy's 60 s idle timeout):
  // a client never writes a request into a connection the server is closing (ECONNRESET on a PUT)
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  const schema = await buildGraphqlSchema(RESOLVERS);
  const apollo = new ApolloServer<RequestContext>({
    // hot queries run compiled (graphql-jit); everything else on graphql-js, as without it
    ...(config.graphqlCompiled
      ? { gateway: new CompiledExecutor(schema, config.graphqlCompileAfter).asGateway() }
      : { schema }),
    introspection: true,
    csrfPrevention: true,
    includeStacktraceInErrorResponses: false,
    // main.ts owns SIGTERM/SIGINT: Apollo's own handler would stop it early and re-raise the signal
    stopOnTerminationSignals: false,
    formatError: formatGraphqlError(log),
    // compact JSON: Apollo's default indents every answer (JSON.stringify(value, null, 2)), which
    // costs time in the serializer and bytes on the wire for a page of 50 records
    stringifyResult: (value) => JSON.stringify(value),
    // the gate in front (graphqlGate) has already refused longer documents
    parseOptions: { maxTokens: config.limits.graphqlMaxTokens },
    plugins: [
      ApolloServerPluginDrainHttpServer({
        httpServer: server,
        stopGracePeriodMillis: config.shutdownTimeoutMs,
      }),
      ApolloServerPluginLandingPageDisabled(),
      // no cache hints are used: the default cache-control plugin would only wrap every field
      // resolver to compute an uncacheable policy (`no-store`, set below instead)
      ApolloServerPluginCacheControlDisabled(),
      // before the limits: an operation an anonymous caller may not run is refused unmeasured
      requireCaller,
      queryLimits(config.limits.graphqlMaxDepth, config.limits.graphqlMaxComplexity, {
        defaultPageSize: config.limits.defaultPageSize,
        maxPageSize: config.limits.maxPageSize,
        listMax: config.limits.graphqlListMax,
        graphMaxNodes: config.limits.graphMaxNodes,
      }),
      graphqlMetrics,
      unavailableStatus,
      statusByMediaType,
    ],
  });
  await apollo.start();
  // subscriptions over WebSocket on /graphql, fed from the outbox (docs/events.md, "Live updates")
  services.eventFeed.attach(orm, log);
  const closeSubscriptions = serveSubscriptions({ server, schema, contexts, config, log });

  app.use(requestId);
  // REST routers are mounted at /api/v2 and /api/v3 (metrics label routes with their full template)
  app.use(httpMetrics(API_MOUNTS));
  app.use(accessLog(log));
  app.use(cors(config.corsOrigins));
  // JSON answers of 1 KB or more go compressed when the client accepts it (docs/web-app.md)
  app.use(compressJson());
  app.get('/metrics', metricsEndpoint(config.metricsToken));
  app.use(pathAndQueryGuard);
  const healthRoutes = healthRouter(health);
  app.use(healthRoutes);
  app.use(API_MOUNTS, healthRoutes);
  app.use(explorerRouter());
  const oidc = config.oidc
    ? new OidcService(config.oidc, config.publicBaseUrl, services.user, services.events)
    : undefined;
  oidc?.useStateKey(
    await services.setting.getOrCreate(orm.em.fork(), 'oidc_state_secret', () =>
      randomBytes(32).toString('base64url'),
    ),
  );
  const auth = authRouter({
    orm,
    config,
    users: services.user,
    sessions: services.session,
    oidc,
    audit: new SignInAudit(services.events),
    limiter: new SignInLimiter(config.signInLimits),
  });
  app.use(auth);
  app.use(
    '/graphql',
    // the caller is known, and the document bounded, before anything is parsed
    ...graphqlGate(contexts, config),
    rebindScope,
    noStore,
    expressMiddleware(apollo, {
      context: ({ req }) =>
        req.ctx
          ? Promise.resolve(req.ctx)
          : Promise.reject(new Error('no request context: graphqlGate sets it first')),
    }),
    graphqlRequestErrors(log),
  );
  const open = publicRoutes(services, contexts, log);
  app.use(API_MOUNTS, open);
  // the OpenAPI document and its browser: open, like the GraphQL schema
  const docs = docsRouter(apiDocument());
  app.use(API_MOUNTS, docs);
  const api = express.Router();
  // the key is checked before any body is read
  api.use(authenticate(contexts));
  api.use(jsonBodies(config.limits.maxJsonBodyBytes), rebindScope, wireVersion);
  mountRoutes(api);
  api.use(noRoute(open, docs, healthRoutes, api));
  // one router for both wire versions: `wireVersion` tells the encoders which one was called
  app.use(API_MOUNTS, api);
  // landing pages of publications (docs/publications.md): before the web app's fallback page
  app.use(landingRouter(services.publication, contexts));
  // OAI-PMH and the sitemaps: open XML doors (docs/publications.md, "Harvesting")
  const harvest = oaiRouter(orm, services.oai, services.sitemap);
  app.use(harvest);
  app.use(webAppRouter());
  app.use(noRoute(healthRoutes, auth, harvest));
  app.use(restErrorHandler(log));

  let closed = false;
  return {
    config,
    orm,
    services,
    contexts,
    server,
    bootstrap,
    health,
    jobs,
    webhooks,
    listen(port = config.port, host = config.host) {
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          const address = server.address();
          resolve(typeof address === 'object' && address ? address.port : port);
        });
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      server.closeIdleConnections();
      // no new jobs from now on; HTTP and running jobs get the same grace period, side by side
      jobs.halt();
      await closeSubscriptions();
      services.eventFeed.stop();
      await Promise.all([apollo.stop(), jobs.stop(config.shutdownTimeoutMs), webhooks.stop()]);
      detachMetrics();
      await releaseLiveness();
      await orm.close(true);
      await stopDigestThread();
      await stopDataciteSchemaThread();
    },
  };
}
