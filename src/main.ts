import 'reflect-metadata';
import fs from 'node:fs/promises';
import path from 'node:path';
import { ConfigError, loadConfig, type Config } from './core/config';
import { createLogger, type Logger } from './core/logger';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './core/db/embedded';
import { createOrm, migrate } from './core/db/orm';
import { ENTITIES } from './modules/entities';
import { holdLiveness } from './core/db/liveness';
import { createApp, createContexts, type App } from './app';
import { createServices, initServices } from './modules/services';
import { createJobWorker, createWebhookDispatcher } from './modules/jobs';
import { stopDigestThread } from './core/storage/digest-thread';
import { attachDatabaseMetrics } from './core/metrics/database';
import { startOpsListener } from './core/metrics/listener';
import { HealthService } from './modules/health/health.service';
import { healthRouter } from './modules/health/health.rest';
import { processScratchDir } from './core/storage/leftovers';

/**
 * Process entry. Roles: `all` (HTTP and ingestion workers, the default), `api` (HTTP only) and
 * `worker` (ingestion only). With no DATABASE_URL an embedded PostgreSQL runs in this process.
 */
async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const log = createLogger(config.logLevel);
  const stoppers: (() => Promise<void>)[] = [];

  // this process's temporary files (ingestion spools, GraphQL upload spools: graphql-upload-ts
  // writes to os.tmpdir()) go to a directory of its own; what dead processes left is removed
  const scratch = await processScratchDir(config.ingestion.tmpDir);
  process.env.TMPDIR = scratch;
  config = Object.freeze({ ...config, ingestion: { ...config.ingestion, tmpDir: scratch } });

  let embedded: EmbeddedPostgres | undefined;
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    const dir = path.join(config.dataDir, 'db');
    embedded = await startEmbeddedPostgres({
      dir,
      port: config.embeddedDbPort,
      maxConnections: config.dbPoolMax + 10,
      sharedBuffers: config.embeddedDbSharedBuffers,
    });
    databaseUrl = embedded.url;
    log.info({ dir, url: embedded.url }, 'embedded PostgreSQL started');
  }

  let app: App | undefined;
  let health: HealthService;
  if (config.role === 'all' || config.role === 'api') {
    app = await createApp({ config, log, databaseUrl });
    health = app.health;
    // before listening: a start that fails on a busy port must not lose the only copy of the key
    if (app.bootstrap.secret) announceAdminKey(app.bootstrap.secret, app.bootstrap.user?.uniqueId ?? 'admin');
    const port = await app.listen();
    const started = app;
    stoppers.push(() => started.close());
    if (config.role === 'all') {
      app.jobs.start();
      app.webhooks.start();
    }
    const web = `${config.publicBaseUrl}/`;
    log.info(
      {
        port,
        host: config.host,
        role: config.role,
        web,
        graphql: `${config.publicBaseUrl}/graphql`,
        api: `${config.publicBaseUrl}/api/v2`,
        // from the process's own start (bench:start reads it)
        startMs: Math.round(process.uptime() * 1000),
      },
      'catalog service listening',
    );
    // for the person who ran `npm start`: the log line above is JSON, addressed to machines
    process.stdout.write(
      `\nCatalog is up. Open the web page: ${web}\n` +
        `  GraphQL: ${config.publicBaseUrl}/graphql    REST: ${config.publicBaseUrl}/api/v2 (docs: ${config.publicBaseUrl}/api/v2/docs)\n\n`,
    );
  } else {
    const orm = await createOrm({
      clientUrl: databaseUrl,
      entities: ENTITIES,
      poolMax: config.dbPoolMax,
      logger: log,
    });
    await migrate(orm, log);
    const releaseLiveness = await holdLiveness(orm, databaseUrl, log);
    const services = createServices({ config, log });
    await initServices(services, orm.em.fork(), config);
    const worker = createJobWorker({ orm, services, config, log });
    const webhooks = createWebhookDispatcher({
      orm,
      services,
      contexts: createContexts(orm, services, config, log),
      config,
      log,
    });
    const detachMetrics = attachDatabaseMetrics(orm);
    health = new HealthService(orm, config);
    worker.start();
    webhooks.start();
    stoppers.push(async () => {
      // running jobs finish, or go back to the queue, before the connections close
      await Promise.all([worker.stop(config.shutdownTimeoutMs), webhooks.stop()]);
      detachMetrics();
      await releaseLiveness();
      await orm.close(true);
      await stopDigestThread();
    });
    log.info({ role: config.role, concurrency: config.workerConcurrency }, 'worker started');
  }
  if (config.metricsPort !== undefined) {
    const ops = await startOpsListener({
      port: config.metricsPort,
      host: config.host,
      health: healthRouter(health),
      metricsToken: config.metricsToken,
    });
    // first to stop: the orchestrator sees the process going before its connections do
    stoppers.unshift(() => ops.close());
    log.info({ port: ops.port }, 'metrics and health listening');
  }
  if (embedded) stoppers.push(() => embedded.stop());
  stoppers.push(() => fs.rm(scratch, { recursive: true, force: true }));

  installShutdown(log, stoppers, config.shutdownTimeoutMs);
}

/** The bootstrap admin key is printed once, on the run that creates it. */
function announceAdminKey(secret: string, userId: string): void {
  const line = '='.repeat(78);
  process.stdout.write(
    `\n${line}\nA platform administrator (${userId}) was created. Its API key, shown only this once:\n\n    ${secret}\n\n` +
      `Use it as "Authorization: Bearer <key>". Create more users and keys with: npm run admin -- help\n` +
      `Lost it? npm run admin -- create-key --user admin issues another.\n${line}\n\n`,
  );
}

/**
 * Stops on SIGTERM/SIGINT: each stopper in turn (the embedded database is closed, not killed),
 * then exit. An error nothing handled (an uncaught exception, an unhandled rejection) is logged
 * and takes the same way out, with exit code 1. A backstop: the service handles the failures of
 * its own streams and promises, so one arriving here is a bug, and the process does not carry
 * on in an unknown state.
 */
function installShutdown(log: Logger, stoppers: (() => Promise<void>)[], timeoutMs: number): void {
  let stopping = false;
  let exitCode = 0;
  const stop = (signal: string) => {
    if (stopping) {
      log.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    stopping = true;
    log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      log.error('shutdown timed out');
      process.exit(1);
    }, timeoutMs + 5000);
    force.unref();
    (async () => {
      for (const s of stoppers) await s();
    })()
      .then(() => {
        log.info('stopped');
        process.exit(exitCode);
      })
      .catch((err: unknown) => {
        log.error({ err }, 'error during shutdown');
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => {
    stop('SIGTERM');
  });
  process.on('SIGINT', () => {
    stop('SIGINT');
  });
  const fatal = (kind: 'uncaughtException' | 'unhandledRejection', err: unknown) => {
    // the logger stamps the request id when the error surfaced inside a request (logger.ts)
    log.fatal({ err }, kind === 'uncaughtException' ? 'uncaught exception' : 'unhandled promise rejection');
    exitCode = 1;
    // while already stopping, the stop under way finishes (the database closes either way)
    if (!stopping) stop(kind);
  };
  process.on('uncaughtException', (err) => {
    fatal('uncaughtException', err);
  });
  process.on('unhandledRejection', (reason) => {
    fatal('unhandledRejection', reason);
  });
}

main().catch((err: unknown) => {
  const e = err as NodeJS.ErrnoException & { port?: number; address?: string };
  if (e.code === 'EADDRINUSE') {
    process.stderr.write(
      `fatal: ${e.address ?? ''}:${e.port ?? ''} is already in use. Start on another port (PORT=8080 npm start; ` +
        `PUBLIC_BASE_URL follows PORT unless set) or stop the process holding it (ss -ltnp | grep ${e.port ?? ''}).\n`,
    );
    process.exit(1);
  }
  process.stderr.write(`fatal: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
