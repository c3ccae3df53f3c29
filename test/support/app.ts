import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/core/config';
import { createLogger } from '../../src/core/logger';
import { createApp, type App } from '../../src/app';

export interface TestApp {
  app: App;
  url: string;
  dataDir: string;
  /** SQL statements seen since the last reset (see countQueries) */
  queries: string[];
  close(): Promise<void>;
}

/**
 * A whole service on a random loopback port, over the test database (embedded by default, or
 * the server in DATABASE_URL): the jest worker's own (worker-db.ts), which the files this worker ran
 * before have written to: create your own records.
 */
export async function startTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'catalog-test-'));
  const config = loadConfig({
    DATABASE_URL: process.env.DATABASE_URL,
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
    SHUTDOWN_TIMEOUT_MS: '0',
    DB_POOL_MAX: '4',
    // test apps share the database: each drains only its own jobs (its files are in its own store)
    JOB_QUEUE_PREFIX: `t${randomBytes(4).toString('hex')}.`,
    // the tests' webhook receivers listen on loopback, which a service refuses by default
    // (modules/webhook/receiver-address.ts; webhook-address.test.ts starts one without this)
    WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8,::1',
    // GRAPHQL_COMPILE_AFTER=0 runs every query of a suite run compiled (docs/performance.md)
    ...(process.env.GRAPHQL_COMPILE_AFTER
      ? { GRAPHQL_COMPILE_AFTER: process.env.GRAPHQL_COMPILE_AFTER }
      : {}),
    ...env,
  });
  const queries: string[] = [];
  const app = await createApp({
    config,
    log: createLogger(config.logLevel),
    databaseUrl: config.databaseUrl!,
    onQuery: (sql) => {
      queries.push(sql);
    },
  });
  const port = await app.listen(Number(env.PORT ?? 0), '127.0.0.1');
  const stopWatch = watchSlowRequests(app);
  return {
    app,
    url: `http://127.0.0.1:${port}`,
    dataDir,
    queries,
    async close() {
      stopWatch();
      app.server.closeAllConnections();
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A request the service has not answered after this long is printed, once (see openPage). */
const SLOW_REQUEST_MS = 15_000;

/**
 * Prints every request the test app has left unanswered for {@link SLOW_REQUEST_MS}: should a
 * browser step stall past its timeout, this tells a request stuck in the service (printed here)
 * from a page that never asked (docs/development.md "Test tiers").
 * Long-lived responses (event streams, WebSocket upgrades) are not requests that stall.
 */
function watchSlowRequests(app: App): () => void {
  const open = new Map<object, { started: number; what: string; told: boolean }>();
  const onRequest = (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => {
    if ((req.headers.accept ?? '').includes('text/event-stream')) return;
    open.set(res, { started: Date.now(), what: `${req.method} ${req.url}`, told: false });
    res.on('close', () => open.delete(res));
  };
  app.server.on('request', onRequest);
  const watch = setInterval(() => {
    const now = Date.now();
    for (const r of open.values()) {
      if (r.told || now - r.started < SLOW_REQUEST_MS) continue;
      r.told = true;
      console.error(`the test app has not answered ${r.what} after ${now - r.started} ms`);
    }
  }, 5_000);
  watch.unref();
  return () => {
    clearInterval(watch);
    app.server.off('request', onRequest);
  };
}
