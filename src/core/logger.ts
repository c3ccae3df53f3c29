import { AsyncLocalStorage } from 'node:async_hooks';
import pino, { type Logger } from 'pino';
import type { LogLevel } from './config';

/**
 * One structured logger. The request id of the request being served (or the job being run) is
 * carried in AsyncLocalStorage and stamped on every line, whoever logs it.
 */
export interface LogScope {
  requestId: string;
}

export const logScope = new AsyncLocalStorage<LogScope>();

export function createLogger(level: LogLevel): Logger {
  return pino({
    level,
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    mixin() {
      const scope = logScope.getStore();
      return scope ? { requestId: scope.requestId } : {};
    },
    redact: {
      // no secret of the configuration is logged (DATACITE_PASSWORD: docs/configuration.md)
      paths: ['req.headers.authorization', 'headers.authorization', 'password', '*.password', '*.*.password'],
      censor: '[redacted]',
    },
  });
}

export type { Logger };
