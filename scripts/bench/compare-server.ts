import 'reflect-metadata';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import Module from 'node:module';
import { loadConfig } from '../../src/core/config';
import { createLogger } from '../../src/core/logger';
import { createApp } from '../../src/app';

/**
 * One server of `bench:compare`, in a process of its own so the load driver does not share its
 * event loop: `ours` (the catalog service over DATABASE_URL), `postgraphile` (PostGraphile v4) or
 * `postgraphile5` (PostGraphile 5, the `postgraphile5` alias of `postgraphile@5`, with its
 * recommended Amber preset and grafserv's Node adaptor), both over PGL_URL, connected as the
 * benchmark caller's role. All count the SQL statements they send (counted in the driver); a
 * second port answers `GET /` with that count. Prints `{"port":..,"stats":..}` once ready.
 */
const mode = process.argv[2];
let statements = 0;

// every statement either server sends goes through the driver's Client.query: count there, the
// same way for both (the ORM's query log would cost our service formatting time)
const clientProto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
const driverQuery = clientProto.query;
clientProto.query = function (this: unknown, ...args: unknown[]) {
  statements++;
  return driverQuery.apply(this, args);
};

async function ours(): Promise<http.Server> {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is required');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'catalog-compare-'));
  const config = loadConfig({
    DATABASE_URL: url,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    SHUTDOWN_TIMEOUT_MS: '0',
    ROLE: 'api',
    // bench:compare runs the service twice: compiled execution on, and off
    ...(process.env.GRAPHQL_COMPILED ? { GRAPHQL_COMPILED: process.env.GRAPHQL_COMPILED } : {}),
  });
  const app = await createApp({
    config,
    log: createLogger('silent'),
    databaseUrl: url,
  });
  await app.listen(0, '127.0.0.1');
  return app.server;
}

async function pgl(): Promise<http.Server> {
  // PostGraphile v4 needs graphql 15 (nested under it); some of its own dependencies are hoisted
  // next to ours and would find our graphql 16: in this process every `graphql` is its copy
  const own = path.dirname(
    require.resolve('graphql/package.json', { paths: [require.resolve('postgraphile')] }),
  );
  const loader = Module as unknown as { _resolveFilename: (request: string, ...rest: unknown[]) => string };
  const resolve = loader._resolveFilename.bind(Module);
  loader._resolveFilename = (request: string, ...rest: unknown[]) =>
    resolve(
      request === 'graphql' || request.startsWith('graphql/') ? own + request.slice(7) : request,
      ...rest,
    );
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded after the hook above
  const { postgraphile } = require('postgraphile') as typeof import('postgraphile');
  const pool = new pg.Pool({ connectionString: process.env.PGL_URL, max: 10 });
  const handler = postgraphile(pool, 'public', {
    disableDefaultMutations: true,
    disableQueryLog: true,
    dynamicJson: true,
    watchPg: false,
    graphiql: false,
    retryOnInitFail: false,
  });
  const server = http.createServer((req, res) => {
    void handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

async function pgl5(): Promise<http.Server> {
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded only in this mode */
  const { postgraphile } = require('postgraphile5') as typeof import('postgraphile5');
  const { PostGraphileAmberPreset } =
    require('postgraphile5/presets/amber') as typeof import('postgraphile5/presets/amber');
  const { makePgService } =
    require('postgraphile5/adaptors/pg') as typeof import('postgraphile5/adaptors/pg');
  const { grafserv } = require('postgraphile5/grafserv/node') as typeof import('postgraphile5/grafserv/node');
  /* eslint-enable @typescript-eslint/no-require-imports */
  const pool = new pg.Pool({ connectionString: process.env.PGL_URL, max: 10 });
  const instance = postgraphile({
    extends: [PostGraphileAmberPreset],
    // the same schema as v4's `disableDefaultMutations`: queries only
    disablePlugins: ['PgMutationCreatePlugin', 'PgMutationUpdateDeletePlugin'],
    pgServices: [makePgService({ pool, schemas: ['public'] })],
    grafserv: { graphiql: false, watch: false, websockets: false },
    grafast: { explain: false },
  });
  const serv = instance.createServ(grafserv);
  const server = http.createServer();
  await serv.addTo(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

async function main(): Promise<void> {
  const server = mode === 'ours' ? await ours() : mode === 'postgraphile5' ? await pgl5() : await pgl();
  const stats = http.createServer((_req, res) => {
    res.end(String(statements));
  });
  await new Promise<void>((resolve) => stats.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const statsPort = (stats.address() as { port: number }).port;
  process.stdout.write(`${JSON.stringify({ port, stats: statsPort })}\n`);
}

// a clean exit on SIGTERM, so that `--cpu-prof` (BENCH_CPU_PROF) writes its profile
process.on('SIGTERM', () => process.exit(0));

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
