import { Client } from 'pg';
import { maintenanceUrl, workerDbName } from './worker-db';

/** Stops the embedded databases, or drops the server's per-worker clones (global-setup.ts). */
export default async function globalTeardown(): Promise<void> {
  for (const pg of globalThis.__EMBEDDED_PG__ ?? []) await pg.stop();
  const server = globalThis.__WORKER_DBS__;
  if (server) {
    const db = decodeURIComponent(new URL(server.url).pathname.slice(1));
    const client = new Client({ connectionString: maintenanceUrl(server.url) });
    await client.connect();
    try {
      for (let id = 1; id <= server.workers; id++) {
        await client.query(`drop database if exists "${workerDbName(db, id)}" with (force)`);
      }
    } finally {
      await client.end();
    }
  }
}
