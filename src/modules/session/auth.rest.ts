import express, { Router, type Request, type RequestHandler, type Response } from 'express';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Config } from '../../core/config';
import type { Caller } from '../../core/context';
import { AppError, unauthenticated, validationError } from '../../core/errors';
import {
  assertSameOrigin,
  assertSameSiteWrite,
  clearedSessionCookie,
  csrfTokenFor,
  sessionCookie,
  sessionSecretOf,
} from '../../core/auth/sessions';
import type { UserService } from '../user/user.service';
import type { SessionService } from './session.service';
import { plainProviderError, type OidcService } from './oidc.service';
import type { SignInAudit } from './sign-in-audit';
import type { SignInLimiter } from './sign-in-limiter';
import { keyDisplayPrefix } from '../../core/auth/api-keys';
import { canElevate, type PrivilegeMode } from '../../core/auth/privilege';

export interface AuthRouterDeps {
  orm: MikroORM;
  config: Config;
  users: UserService;
  sessions: SessionService;
  /** present when an OpenID provider is configured */
  oidc?: OidcService;
  audit: SignInAudit;
  limiter: SignInLimiter;
}

/** The client address the limiter and the history name (behind a proxy: what it forwarded). */
const addressOf = (req: Request) => req.ip ?? req.socket.remoteAddress ?? 'unknown';

/** 429 with `Retry-After` (JSON for the page's key form, a plain page for the browser's callback). */
function tooMany(res: Response, seconds: number, page: boolean): void {
  res.setHeader('Retry-After', String(seconds));
  const message = `Too many failed sign-ins: try again in ${seconds} seconds.`;
  if (page) plainPage(res, 429, 'Sign-in is paused', message);
  else res.status(429).json({ detail: message, code: 'TOO_MANY_REQUESTS' });
}

const STATE_COOKIE = 'catalog_oidc';

function cookieOf(req: Request, name: string): string | undefined {
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** A plain page for the browser (no stack, no provider internals), with a way back. */
function plainPage(res: Response, status: number, title: string, message: string): void {
  res.status(status);
  res.setHeader('content-type', 'text/html; charset=utf-8');
  res.setHeader('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'");
  res.send(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>` +
      `<body><main><h1>${escapeHtml(title)}</h1><p role="alert">${escapeHtml(message)}</p>` +
      `<p><a href="/">Back to the catalog</a></p></main></body></html>`,
  );
}

/** `return_to`: a path of this service only (not `//host`, not a URL); `/` when absent. */
function returnTo(query: Request['query']): string {
  const extra = Object.keys(query).filter((k) => k !== 'return_to');
  if (extra.length) throw validationError(extra[0], 'is not a parameter of this route');
  const value = query.return_to;
  if (value === undefined) return '/';
  if (
    typeof value !== 'string' ||
    value.length > 2000 ||
    !value.startsWith('/') ||
    value.startsWith('//') ||
    value.includes('\\') ||
    [...value].some((c) => c.charCodeAt(0) < 0x20)
  ) {
    throw validationError('return_to', "must be a path of this service's pages, such as /datasets/…");
  }
  return value;
}

/** The largest body `POST /auth/key` reads (a key is 47 characters). */
const KEY_BODY_BYTES = 4096;

/** What the page learns about its session: who, until when, the CSRF token, how to sign in. */
function sessionBody(config: Config, signedIn: { caller: Caller; secret: string } | null) {
  const user = signedIn?.caller.user;
  return {
    signed_in: Boolean(signedIn),
    user: user
      ? {
          unique_id: user.uniqueId,
          username: user.username ?? null,
          first_name: user.firstName ?? null,
          last_name: user.lastName ?? null,
          is_platform_admin: user.platformRole === 'admin',
        }
      : null,
    // the mode the session's requests act in, and whether its user may switch to `elevated`
    privilege_mode: signedIn ? sessionMode(signedIn.caller) : null,
    can_elevate: user ? canElevate(user.platformRole) : false,
    session_id: signedIn?.caller.sessionId ?? null,
    expires_at: signedIn?.caller.apiKey.expiresAt?.toISOString() ?? null,
    csrf_token: signedIn ? csrfTokenFor(signedIn.secret) : null,
    sign_in: {
      api_key: true,
      oidc: config.oidc ? { name: config.oidc.providerName, login_url: '/auth/login' } : null,
    },
  };
}

/** The mode a session's requests act in (as `ContextFactory` decides it for a request with no header). */
function sessionMode(caller: Caller): PrivilegeMode {
  return caller.sessionMode === 'elevated' && canElevate(caller.user.platformRole) ? 'elevated' : 'normal';
}

const handle =
  (fn: (req: Request, res: Response) => Promise<void>): RequestHandler =>
  (req, res, next) => {
    fn(req, res).catch(next);
  };

function noStore(res: Response): void {
  res.setHeader('Cache-Control', 'no-store');
}

/** `{"api_key": "..."}` and nothing else; 422 naming the field otherwise. */
function keyOf(body: unknown): string {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw validationError('body', 'must be a JSON object {"api_key": "..."}');
  }
  const extra = Object.keys(body).filter((k) => k !== 'api_key');
  if (extra.length) throw validationError(extra[0], 'is not a field of this request');
  const key = (body as { api_key?: unknown }).api_key;
  if (typeof key !== 'string' || !key.trim()) throw validationError('api_key', 'is required: your API key');
  if (key.length > 200) throw validationError('api_key', 'is not an API key (too long)');
  return key.trim();
}

/**
 * The browser's sign-in routes (docs/authentication.md), outside /api/v2: the session the page
 * is in (`GET /auth/session`), signing in with an API key once (`POST /auth/key`), an
 * administrator's elevation (`POST /auth/session/elevate`, `POST /auth/session/drop-elevation`)
 * and signing out (`POST /auth/logout`). Mounted before the API routes.
 */
export function authRouter(deps: AuthRouterDeps): Router {
  const { orm, config, users, sessions, oidc, audit, limiter } = deps;
  const router = Router();
  const json = express.json({ limit: KEY_BODY_BYTES, type: ['application/json', 'application/*+json'] });

  const current = async (em: EntityManager, req: Request) => {
    const secret = sessionSecretOf(req);
    if (!secret) return { secret, caller: null };
    return { secret, caller: await sessions.authenticate(em, secret) };
  };

  router.get(
    '/auth/session',
    handle(async (req, res) => {
      noStore(res);
      const { secret, caller } = await current(orm.em.fork(), req);
      // a cookie whose session ended is removed: the page shows the sign-in form
      if (secret && !caller) res.setHeader('Set-Cookie', clearedSessionCookie(req));
      res.json(sessionBody(config, caller && secret ? { caller, secret } : null));
    }),
  );

  router.post(
    '/auth/key',
    (req, _res, next) => {
      try {
        assertSameOrigin(req, config.publicBaseUrl);
      } catch (err) {
        next(err);
        return;
      }
      if (!req.is(['application/json', 'application/*+json'])) {
        next(new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send {"api_key": "..."} as application/json'));
        return;
      }
      next();
    },
    json,
    handle(async (req, res) => {
      noStore(res);
      const key = keyOf(req.body);
      const address = addressOf(req);
      // per address and per key (its display prefix): a guessed-at key is paused wherever from
      const limited = [`address:${address}`, `key:${keyDisplayPrefix(key)}`];
      const wait = limiter.retryAfter(limited);
      if (wait > 0) {
        tooMany(res, wait, false);
        return;
      }
      const em = orm.em.fork();
      const caller = await users.authenticate(em, key);
      if (!caller) {
        limiter.fail(limited);
        const account = await audit.accountOfKey(em, key);
        if (account) {
          await audit.failed(em, account, {
            method: 'api_key',
            reason: 'the key is wrong, expired or revoked, or the account is disabled or pending',
            address,
            keyPrefix: keyDisplayPrefix(key),
          });
        }
        throw unauthenticated('This API key was not accepted: it is wrong, expired or revoked');
      }
      const { session, secret } = await sessions.start(em, caller.user, 'api_key', sessionSecretOf(req));
      await audit.signedIn(em, caller.user.uniqueId, {
        method: 'api_key',
        sessionId: session.uniqueId,
        address,
      });
      res.setHeader('Set-Cookie', sessionCookie(req, secret));
      const started: Caller = {
        user: caller.user,
        token: '',
        sessionId: session.uniqueId,
        sessionMode: session.privilegeMode,
        apiKey: {
          uniqueId: session.uniqueId,
          prefix: 'session',
          createdAt: session.createdAt,
          expiresAt: session.expiresAt,
        },
      };
      res.json(sessionBody(config, { caller: started, secret }));
    }),
  );

  router.get(
    '/auth/login',
    handle(async (req, res) => {
      noStore(res);
      if (!oidc) throw new AppError('NOT_FOUND', 'No OpenID provider is configured: sign in with an API key');
      const target = returnTo(req.query);
      let begun;
      try {
        begun = await oidc.begin(target);
      } catch (err) {
        plainPage(res, 502, 'Sign-in is unavailable', plainProviderError(err));
        return;
      }
      const secure = req.secure ? '; Secure' : '';
      res.setHeader(
        'Set-Cookie',
        `${STATE_COOKIE}=${oidc.sealState(begun.state)}; Path=/auth; HttpOnly; SameSite=Lax; Max-Age=600${secure}`,
      );
      res.redirect(302, begun.url);
    }),
  );

  router.get(
    '/auth/callback',
    handle(async (req, res) => {
      noStore(res);
      if (!oidc) throw new AppError('NOT_FOUND', 'No OpenID provider is configured');
      const address = addressOf(req);
      const limited = [`address:${address}`];
      const wait = limiter.retryAfter(limited);
      if (wait > 0) {
        tooMany(res, wait, true);
        return;
      }
      const state = oidc.openState(cookieOf(req, STATE_COOKIE));
      const secure = req.secure ? '; Secure' : '';
      res.setHeader('Set-Cookie', `${STATE_COOKIE}=; Path=/auth; HttpOnly; SameSite=Lax; Max-Age=0${secure}`);
      if (!state) {
        limiter.fail(limited);
        plainPage(
          res,
          400,
          'Sign-in failed',
          'This sign-in was not started in this browser, or took too long: start again.',
        );
        return;
      }
      let claims;
      try {
        claims = await oidc.finish(new URL(req.originalUrl, config.publicBaseUrl), state);
      } catch (err) {
        limiter.fail(limited);
        plainPage(res, 400, 'Sign-in failed', plainProviderError(err));
        return;
      }
      const em = orm.em.fork();
      const outcome = await oidc.signIn(em, claims);
      if (outcome.kind === 'refused') {
        if (outcome.userId) {
          await audit.failed(em, outcome.userId, { method: 'oidc', reason: outcome.message, address });
        }
        plainPage(res, 403, 'Sign-in refused', outcome.message);
        return;
      }
      if (outcome.kind === 'pending') {
        await audit.failed(em, outcome.user.uniqueId, {
          method: 'oidc',
          reason: 'the account awaits activation',
          address,
        });
        plainPage(
          res,
          403,
          'Your account awaits activation',
          'Your account was created and awaits activation by an administrator. Sign in again once it is active.',
        );
        return;
      }
      const { session, secret } = await sessions.start(em, outcome.user, 'oidc', sessionSecretOf(req));
      await audit.signedIn(em, outcome.user.uniqueId, {
        method: 'oidc',
        sessionId: session.uniqueId,
        address,
      });
      res.setHeader('Set-Cookie', [
        `${STATE_COOKIE}=; Path=/auth; HttpOnly; SameSite=Lax; Max-Age=0${secure}`,
        sessionCookie(req, secret),
      ]);
      res.redirect(302, state.returnTo);
    }),
  );

  /**
   * Switches the session of the cookie to `mode` (docs/authentication.md, "Elevation"): a write
   * made with the cookie (CSRF token, this site), no body, no parameter. The switch and its event
   * in the account's history are one transaction. Answers like `GET /auth/session`.
   */
  const switchMode = (mode: PrivilegeMode) =>
    handle(async (req, res) => {
      noStore(res);
      const extra = Object.keys(req.query);
      if (extra.length) throw validationError(extra[0], 'is not a parameter of this route');
      const secret = sessionSecretOf(req);
      if (!secret) throw unauthenticated('Sign in first: this changes the mode of your browser session');
      assertSameSiteWrite(req, secret, config.publicBaseUrl);
      const em = orm.em.fork();
      const outcome = await em.transactional(async (tx) => {
        const result = await sessions.setMode(tx, secret, mode);
        if (typeof result === 'object' && result.changed) {
          await audit.modeChanged(tx, result.userId, mode, {
            sessionId: result.sessionId,
            address: addressOf(req),
          });
        }
        return result;
      });
      if (outcome === 'ended') throw unauthenticated('Your session has ended: sign in again');
      if (outcome === 'forbidden') {
        throw new AppError('FORBIDDEN', 'Only platform administrators can elevate their session');
      }
      const { caller } = await current(orm.em.fork(), req);
      if (!caller) throw unauthenticated('Your session has ended: sign in again');
      res.json(sessionBody(config, { caller, secret }));
    });

  router.post('/auth/session/elevate', switchMode('elevated'));
  router.post('/auth/session/drop-elevation', switchMode('normal'));

  router.post(
    '/auth/logout',
    handle(async (req, res) => {
      noStore(res);
      const secret = sessionSecretOf(req);
      if (secret) {
        assertSameSiteWrite(req, secret, config.publicBaseUrl);
        const em = orm.em.fork();
        const ended = await sessions.end(em, secret);
        if (ended) await audit.signedOut(em, ended.userId, ended.sessionId, addressOf(req));
      }
      res.setHeader('Set-Cookie', clearedSessionCookie(req));
      res.status(204).end();
    }),
  );
  return router;
}
