import express, { type ErrorRequestHandler, type Request, type RequestHandler, type Response } from 'express';
import { Lexer, Source, TokenKind, GraphQLError } from 'graphql';
import type { ContextFactory } from '../context-factory';
import type { Config } from '../config';
import type { Logger } from '../logger';
import { AppError, RETRY_AFTER_SECONDS, unauthenticated } from '../errors';
import { databaseError } from '../db/errors';
import { jsonProblem } from '../json-guard';
import { closeIfUnread, declaredTooLarge } from '../http/unread-body';
import { graphqlMultipart } from './multipart';
import { graphqlMediaType, requestErrorStatus } from './media-type';
import { bearerChallenge } from '../auth/challenge';

/** What one caller may send to /graphql before anything is parsed. */
export interface DocumentLimits {
  bytes: number;
  tokens: number;
}

/**
 * An error before Apollo runs, in GraphQL's response shape and media type. A refused document or
 * variables is a request error: 200 under `application/json`, 400 under
 * `application/graphql-response+json` (REST says 422), as Apollo's own (media-type.ts).
 */
function sendGraphqlError(req: Request, res: Response, err: AppError): void {
  const accept = req.get('accept');
  const status = requestErrorStatus(accept, err.wireCode) ?? err.status;
  if (err.code === 'SERVICE_UNAVAILABLE') res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
  if (status === 401) res.setHeader('WWW-Authenticate', bearerChallenge(req.get('authorization')));
  res.type(`${graphqlMediaType(accept) ?? 'application/json'}; charset=utf-8`);
  res.status(status).json({
    errors: [
      {
        message: err.message,
        extensions: { code: err.wireCode, ...(err.fields.length ? { fields: err.fields } : {}) },
      },
    ],
  });
}

/**
 * Lexes `query` up to `limits.tokens` tokens (the bytes were checked before): a document over
 * the limit, or a string literal holding a NUL character, is refused before parsing and
 * validation (whose cost grows faster than the document). Syntax errors are left to the parser.
 */
function checkDocument(query: string, limits: DocumentLimits): AppError | null {
  const lexer = new Lexer(new Source(query));
  let name = 'query';
  let previous = '';
  try {
    for (let n = 0; ; n++) {
      const token = lexer.advance();
      if (token.kind === TokenKind.EOF) return null;
      if (n >= limits.tokens) {
        return new AppError('PAYLOAD_TOO_LARGE', `The document has more than ${limits.tokens} tokens`);
      }
      if (token.kind === TokenKind.COLON && previous) name = previous;
      // graphql-js types `value` as a string, but punctuation tokens carry none
      const value = token.value as string | undefined;
      previous = token.kind === TokenKind.NAME ? (value ?? '') : '';
      if (
        (token.kind === TokenKind.STRING || token.kind === TokenKind.BLOCK_STRING) &&
        value?.includes('\u0000')
      ) {
        return new AppError('VALIDATION', `${name}: must not contain NUL characters (\\u0000)`, [
          { field: name, message: 'must not contain NUL characters (\\u0000)' },
        ]);
      }
    }
  } catch (err) {
    if (err instanceof GraphQLError) return null;
    throw err;
  }
}

/**
 * What is wrong with a document and its variables before anything parses them: a document over
 * the byte or token limit, a NUL character in a string literal, variables too deep or holding
 * text PostgreSQL cannot store. The HTTP endpoint and the WebSocket one (subscriptions.ts) ask
 * the same, so a refused operation has the same code on both.
 */
export function operationProblem(
  query: unknown,
  variables: unknown,
  limits: DocumentLimits,
): AppError | null {
  if (typeof query === 'string') {
    if (Buffer.byteLength(query) > limits.bytes) {
      return new AppError('PAYLOAD_TOO_LARGE', `The document is larger than ${limits.bytes} bytes`);
    }
    const problem = checkDocument(query, limits);
    if (problem) return problem;
  }
  const bad = variables === undefined ? null : jsonProblem(variables, 'variables');
  return bad ? new AppError('VALIDATION', `${bad.field}: ${bad.message}`, [bad]) : null;
}

function queryText(req: Request): unknown {
  const body = req.body as { query?: unknown } | undefined;
  if (req.method === 'POST') return body?.query;
  return (req.query as { query?: unknown }).query;
}

/**
 * The middleware in front of Apollo at /graphql, bounding what a request can cost before it is
 * authorized: the API key is checked first (from the header alone), then the body is read with
 * the caller's limit (anonymous callers, who may only introspect, get small ones), multipart
 * uploads are accepted only from authenticated callers, and the document's size and token count
 * and the variables' depth and text are checked before Apollo parses anything. `req.ctx` holds
 * the request context afterwards.
 */
export function graphqlGate(contexts: ContextFactory, config: Config): RequestHandler[] {
  const { limits } = config;
  const signed: DocumentLimits = { bytes: limits.graphqlMaxDocumentBytes, tokens: limits.graphqlMaxTokens };
  const anonymous: DocumentLimits = {
    bytes: limits.graphqlAnonymousMaxDocumentBytes,
    tokens: limits.graphqlAnonymousMaxTokens,
  };
  const signedJson = express.json({ limit: limits.maxJsonBodyBytes });
  const anonymousBodyBytes = anonymous.bytes + 4096;
  const anonymousJson = express.json({ limit: anonymousBodyBytes });
  const uploads = graphqlMultipart({
    maxFileSize: limits.maxUploadBytes,
    maxFiles: limits.maxUploadFiles,
  });

  const caller: RequestHandler = (req, _res, next) => {
    contexts.forHttp(req, true).then((ctx) => {
      req.ctx = ctx;
      next();
    }, next);
  };
  const body: RequestHandler = (req, res, next) => {
    if (!req.ctx?.isAuthenticated) {
      if (req.is('multipart/form-data')) {
        next(unauthenticated('Uploads need an API key: send "Authorization: Bearer <api key>"'));
        return;
      }
      const tooLarge = declaredTooLarge(req, anonymousBodyBytes);
      if (tooLarge) next(tooLarge);
      else anonymousJson(req, res, next);
      return;
    }
    const tooLarge = req.is('multipart/form-data') ? null : declaredTooLarge(req, limits.maxJsonBodyBytes);
    if (tooLarge) {
      next(tooLarge);
      return;
    }
    signedJson(req, res, (err?: unknown) => {
      if (err) next(err);
      else uploads(req, res, next);
    });
  };
  const document: RequestHandler = (req, _res, next) => {
    const variables = (req.body as { variables?: unknown } | undefined)?.variables;
    const own = req.ctx?.isAuthenticated ? signed : anonymous;
    next(operationProblem(queryText(req), variables, own) ?? undefined);
  };
  return [caller, body, document];
}

/** Errors of the gate (and of the body parsers) as GraphQL error responses. */
export function graphqlRequestErrors(log: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, next) => {
    if (res.headersSent) {
      next(err);
      return;
    }
    const e = (err ?? {}) as { type?: string; status?: number; expose?: boolean; message?: string };
    closeIfUnread(req, res);
    let known: AppError | null = err instanceof AppError ? err : databaseError(err);
    if (!known && e.type === 'entity.parse.failed')
      known = new AppError('BAD_REQUEST', 'The body is not valid JSON');
    if (!known && e.type === 'entity.too.large')
      known = new AppError('PAYLOAD_TOO_LARGE', 'The request body is too large');
    if (!known && e.status && e.status >= 400 && e.status < 500 && e.expose)
      known = new AppError(
        e.status === 413 ? 'PAYLOAD_TOO_LARGE' : 'BAD_REQUEST',
        e.message ?? 'Bad request',
      );
    if (!known) {
      log.error({ err, path: req.path }, 'unhandled error before GraphQL');
      known = new AppError('INTERNAL', 'Internal server error');
    }
    sendGraphqlError(req, res, known);
  };
}
