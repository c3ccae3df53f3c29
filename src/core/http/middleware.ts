import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import { logScope, type Logger } from '../logger';
import type { ContextFactory } from '../context-factory';

const SAFE_ID = /^[\w.:-]{1,128}$/;

/** Gives every request an id (the caller's `x-request-id` when sane) and echoes it back. */
export const requestId: RequestHandler = (req, res, next) => {
  const incoming = req.get('x-request-id');
  const id = incoming && SAFE_ID.test(incoming) ? incoming : randomUUID();
  req.requestId = id;
  res.setHeader('x-request-id', id);
  logScope.run({ requestId: id }, next);
};

/**
 * Re-enters the request's log scope. Body parsers resume the chain from stream callbacks, which
 * run outside it, so this goes after them.
 */
export const rebindScope: RequestHandler = (req, _res, next) => {
  logScope.run({ requestId: req.requestId }, next);
};

export function accessLog(log: Logger): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const line = {
        requestId: req.requestId,
        method: req.method,
        path: req.originalUrl.split('?')[0],
        status: res.statusCode,
        ms: Math.round(ms * 10) / 10,
      };
      if (res.statusCode >= 500) log.error(line, 'request');
      else log.info(line, 'request');
    });
    next();
  };
}

/**
 * Records on the request context which legacy wire version the request came in on: the REST
 * router is mounted at both `/api/v2` and `/api/v3`, and encoders read `ctx.wireVersion`
 * (docs/legacy-client.md, "/api/v3").
 */
export const wireVersion: RequestHandler = (req, _res, next) => {
  if (req.ctx) req.ctx.wireVersion = req.baseUrl === '/api/v3' ? 3 : 2;
  next();
};

/** Authenticates REST requests: every route behind it needs a valid API key or session. */
export function authenticate(contexts: ContextFactory): RequestHandler {
  return (req, _res, next) => {
    contexts
      .forHttp(req)
      .then((ctx) => {
        req.ctx = ctx;
        logScope.run({ requestId: req.requestId }, next);
      })
      .catch(next);
  };
}

/**
 * Authenticates REST requests of routes open to anonymous readers (`auth: 'optional'`): a key or
 * session when one is sent (a bad one is 401, as everywhere), else an anonymous caller. Sets the
 * wire version as {@link wireVersion} does.
 */
export function authenticateOptionally(contexts: ContextFactory): RequestHandler {
  return (req, _res, next) => {
    contexts
      .forHttp(req, true)
      .then((ctx) => {
        req.ctx = ctx;
        ctx.wireVersion = req.baseUrl === '/api/v3' ? 3 : 2;
        logScope.run({ requestId: req.requestId }, next);
      })
      .catch(next);
  };
}
