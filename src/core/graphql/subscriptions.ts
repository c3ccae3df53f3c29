import type http from 'node:http';
import { randomUUID } from 'node:crypto';
import {
  GraphQLError,
  getOperationAST,
  OperationTypeNode,
  parse,
  validate,
  specifiedRules,
  getVariableValues,
  type DocumentNode,
  type ExecutionArgs,
  type GraphQLSchema,
} from 'graphql';
import { WebSocketServer } from 'ws';
import { useServer } from 'graphql-ws/use/ws';
import type { Config } from '../config';
import type { ContextFactory } from '../context-factory';
import { parsePrivilegeMode, PRIVILEGE_HEADER, type PrivilegeMode } from '../auth/privilege';
import { CSRF_HEADER, csrfMatches, sessionSecretOfCookie } from '../auth/sessions';
import type { RequestContext } from '../context';
import type { Logger } from '../logger';
import { checkLimits, listEstimator } from './limits';
import { formatGraphqlError } from './errors';
import { operationProblem, type DocumentLimits } from './gate';

/**
 * The close code of a socket over the per-key limit: one of ours, outside the codes graphql-ws
 * reserves (4004, 4005, 4400, 4401, 4403, 4406, 4408, 4409, 4429 "too many initialisation
 * requests", 4500, 4504). A refused key gets graphql-ws's own 4403. docs/events.md lists both.
 */
export const SOCKETS_PER_KEY_CLOSE_CODE = 4029;

/**
 * Whether a WebSocket upgrade comes from a page of this service: its `Origin` names this host (or
 * `PUBLIC_BASE_URL`). Browsers always send `Origin` on upgrades; a cookie-authenticated socket
 * without one is refused.
 */
function sameOriginUpgrade(req: http.IncomingMessage, publicBaseUrl: string): boolean {
  const origin = req.headers.origin;
  if (!origin) return false;
  try {
    const url = new URL(origin);
    return url.host === req.headers.host || url.origin === new URL(publicBaseUrl).origin;
  } catch {
    return false;
  }
}

/** `err` with the code Apollo gives the same failure over HTTP, its message and locations kept. */
function coded(err: unknown, code: string): GraphQLError {
  if (!(err instanceof GraphQLError)) {
    return new GraphQLError(err instanceof Error ? err.message : 'Invalid operation', {
      extensions: { code },
    });
  }
  return new GraphQLError(err.message, {
    nodes: err.nodes,
    source: err.source,
    positions: err.positions,
    extensions: { ...err.extensions, code },
  });
}

/** A socket's caller, once `connection_init` carried a valid key (or a page's session: `session`). */
interface Connected {
  authorization: string | undefined;
  /** the session secret of the upgrade's cookie, when the socket is a signed-in page's */
  session: string | undefined;
  /** the privilege mode asked for in `connection_init` (`Crucible-Privilege-Mode`), kept for every subscription */
  mode: PrivilegeMode | null;
  keyId: string;
  /** the ids of its open subscriptions */
  ids: Set<string>;
}

/**
 * GraphQL subscriptions over WebSocket (the graphql-ws protocol) on the HTTP server's
 * `/graphql` path, beside Apollo's HTTP endpoint (docs/events.md, "Live updates"):
 * - `connection_init` must carry `{"authorization": "Bearer <api key>"}`, or come from a signed-in
 *   page (its session cookie, `x-csrf-token` in `connection_init`, its own Origin); otherwise the
 *   socket is closed (4403) before any operation runs;
 * - only subscription operations, with the HTTP endpoint's document limits (bytes, tokens,
 *   depth, complexity) and error codes (a refused operation has the same `extensions.code`
 *   over both);
 * - at most `SUBSCRIPTIONS_PER_KEY` open subscriptions and `SUBSCRIPTION_SOCKETS_PER_KEY`
 *   sockets per key in this process (over them: an error for that subscription,
 *   {@link SOCKETS_PER_KEY_CLOSE_CODE} for a socket);
 * - each subscription gets its own request context, as the key's user.
 * Returns a function that closes every socket.
 */
export function serveSubscriptions(opts: {
  server: http.Server;
  schema: GraphQLSchema;
  contexts: ContextFactory;
  config: Config;
  log: Logger;
}): () => Promise<void> {
  const { config, contexts, log } = opts;
  const { limits, subscriptions: caps } = config;
  const wss = new WebSocketServer({
    server: opts.server,
    path: '/graphql',
    maxPayload: limits.graphqlMaxDocumentBytes * 2,
  });
  const sockets = new Map<string, number>();
  const open = new Map<string, number>();
  const connected = new WeakMap<object, Connected>();
  const estimator = listEstimator({
    defaultPageSize: limits.defaultPageSize,
    maxPageSize: limits.maxPageSize,
    listMax: limits.graphqlListMax,
    graphMaxNodes: limits.graphMaxNodes,
  });
  const documentLimits: DocumentLimits = {
    bytes: limits.graphqlMaxDocumentBytes,
    tokens: limits.graphqlMaxTokens,
  };
  const format = formatGraphqlError(log);
  /** Errors as the HTTP endpoint formats them (AppError codes, nothing internal). */
  const errorsOf = (err: unknown): GraphQLError[] => {
    const original = err instanceof GraphQLError && err.originalError ? err.originalError : err;
    const base =
      err instanceof GraphQLError ? err : new GraphQLError(err instanceof Error ? err.message : 'error');
    // as Apollo does before formatting: `http` is for the HTTP answer, not the client
    const { http: _http, ...extensions } = base.extensions;
    const f = format({ ...base.toJSON(), extensions }, original);
    return [new GraphQLError(f.message, { extensions: f.extensions })];
  };

  const dispose = useServer(
    {
      schema: opts.schema,
      onConnect: async (ctx) => {
        const given = ctx.connectionParams?.authorization;
        let authorization: string | undefined;
        let session: string | undefined;
        if (typeof given === 'string') authorization = given;
        else {
          // a signed-in page: the session cookie of the upgrade, with the session's CSRF token in
          // connection_init (only a page of this origin can read it) and no other site's Origin
          session = sessionSecretOfCookie(ctx.extra.request.headers.cookie);
          if (!session || !csrfMatches(session, ctx.connectionParams?.[CSRF_HEADER])) return false;
          if (!sameOriginUpgrade(ctx.extra.request, config.publicBaseUrl)) return false;
        }
        let rc: RequestContext;
        let mode: PrivilegeMode | null;
        try {
          const asked: unknown =
            ctx.connectionParams?.[PRIVILEGE_HEADER] ??
            ctx.connectionParams?.[PRIVILEGE_HEADER.toLowerCase()];
          if (asked !== undefined && typeof asked !== 'string') return false;
          mode = parsePrivilegeMode(asked);
          rc = await contexts.forRequest(randomUUID(), authorization, false, {
            privilegeMode: mode,
            session,
          });
        } catch {
          return false;
        }
        const keyId = rc.caller.apiKey.uniqueId;
        const n = sockets.get(keyId) ?? 0;
        if (n >= caps.socketsPerKey) {
          ctx.extra.socket.close(
            SOCKETS_PER_KEY_CLOSE_CODE,
            `At most ${caps.socketsPerKey} sockets per API key`,
          );
          return false;
        }
        sockets.set(keyId, n + 1);
        connected.set(ctx, { authorization, session, mode, keyId, ids: new Set() });
        return true;
      },
      onSubscribe: async (ctx, id, payload) => {
        const who = connected.get(ctx);
        if (!who) return [new GraphQLError('Not connected', { extensions: { code: 'UNAUTHENTICATED' } })];
        const problem = operationProblem(payload.query, payload.variables ?? undefined, documentLimits);
        if (problem) return errorsOf(problem);
        let document: DocumentNode;
        try {
          document = parse(payload.query, { maxTokens: limits.graphqlMaxTokens });
        } catch (err) {
          return [coded(err, 'GRAPHQL_PARSE_FAILED')];
        }
        const invalid = validate(opts.schema, document, specifiedRules);
        if (invalid.length > 0) return invalid.map((e) => coded(e, 'GRAPHQL_VALIDATION_FAILED'));
        const operation = getOperationAST(document, payload.operationName ?? undefined);
        if (operation?.operation !== OperationTypeNode.SUBSCRIPTION) {
          return [
            new GraphQLError(
              'Only subscriptions are served over WebSocket; send queries and mutations over HTTP',
              { extensions: { code: 'BAD_USER_INPUT' } },
            ),
          ];
        }
        try {
          checkLimits(
            {
              schema: opts.schema,
              document,
              operation,
              operationName: payload.operationName,
              variables: payload.variables,
            },
            limits.graphqlMaxDepth,
            limits.graphqlMaxComplexity,
            estimator,
          );
        } catch (err) {
          return errorsOf(err);
        }
        // what Apollo answers over HTTP as BAD_USER_INPUT, before subscribing (graphql-js would
        // answer it as a result without a code)
        const coerced = getVariableValues(
          opts.schema,
          operation.variableDefinitions ?? [],
          payload.variables ?? {},
        );
        if (coerced.errors) return coerced.errors.map((e) => coded(e, 'BAD_USER_INPUT'));
        const count = open.get(who.keyId) ?? 0;
        if (count >= caps.perKey) {
          return [
            new GraphQLError(`At most ${caps.perKey} open subscriptions per API key`, {
              extensions: { code: 'TOO_MANY_REQUESTS' },
            }),
          ];
        }
        // the place is taken before anything is awaited: concurrent subscribes cannot all pass
        open.set(who.keyId, count + 1);
        who.ids.add(id);
        let rc: RequestContext;
        try {
          // the key again, per subscription: revoked since the socket opened is refused here
          rc = await contexts.forRequest(randomUUID(), who.authorization, false, {
            privilegeMode: who.mode,
            session: who.session,
          });
        } catch (err) {
          release(ctx, id);
          return errorsOf(err);
        }
        const args: ExecutionArgs = {
          schema: opts.schema,
          document,
          operationName: payload.operationName,
          variableValues: payload.variables,
          contextValue: rc,
        };
        return args;
      },
      onNext: (_ctx, _id, _payload, _args, result) => {
        if (!result.errors?.length) return result;
        return {
          ...result,
          errors: result.errors.flatMap((e) => errorsOf(e)),
        };
      },
      onComplete: (ctx, id) => {
        release(ctx, id);
      },
      onClose: (ctx) => {
        const who = connected.get(ctx);
        if (!who) return;
        for (const id of [...who.ids]) release(ctx, id);
        sockets.set(who.keyId, Math.max(0, (sockets.get(who.keyId) ?? 1) - 1));
      },
    },
    wss,
  );

  function release(ctx: object, id: string): void {
    const who = connected.get(ctx);
    if (!who?.ids.has(id)) return;
    who.ids.delete(id);
    open.set(who.keyId, Math.max(0, (open.get(who.keyId) ?? 1) - 1));
  }

  return async () => {
    await dispose.dispose();
    for (const socket of wss.clients) socket.terminate();
    await new Promise<void>((resolve) => {
      wss.close(() => {
        resolve();
      });
    });
  };
}
