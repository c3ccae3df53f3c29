import 'reflect-metadata';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../core/config';
import { createLogger } from '../core/logger';
import { createOrm, migrate } from '../core/db/orm';
import { ENTITIES } from '../modules/entities';
import { holdLiveness } from '../core/db/liveness';
import { runningEmbeddedUrl, startEmbeddedPostgres, type EmbeddedPostgres } from '../core/db/embedded';
import { stopDigestThread } from '../core/storage/digest-thread';
import { createServices, initServices } from '../modules/services';
import { createJobWorker } from '../modules/jobs';
import { FINAL_STATUSES, IngestionRequest } from '../modules/ingestion/ingestion-request.entity';
import { toLegacyIngestionRequest } from '../modules/ingestion/ingestion.legacy';

const HELP = `Re-ingests one stored file (npm run ingest -- <file MFID> [options])

  --ingestor <name>   use this ingestor (default: the first that supports the file)
  --queue-only        only queue the request (a running worker takes it) and wait for it
  --no-wait           queue the request and return at once

A new ingestion request is recorded and queued like POST /files/{id}/ingest; this process then
works the queue until that request is final, and prints it. The database is DATABASE_URL, or the
embedded one under DATA_DIR (the running service's, if any); the store is configured as for the
service.`;

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      ingestor: { type: 'string' },
      'queue-only': { type: 'boolean', default: false },
      'no-wait': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help || positionals.length !== 1) {
    process.stdout.write(`${HELP}\n`);
    return values.help ? 0 : 2;
  }
  const config = loadConfig();
  const log = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel);
  let url = config.databaseUrl ?? runningEmbeddedUrl(config.dataDir);
  let embedded: EmbeddedPostgres | undefined;
  if (!url) {
    embedded = await startEmbeddedPostgres({ dir: path.join(config.dataDir, 'db') });
    url = embedded.url;
  }
  const orm = await createOrm({ clientUrl: url, entities: ENTITIES, poolMax: 4, logger: log });
  const services = createServices({ config, log });
  const worker = createJobWorker({ orm, services, config, log });
  let releaseLiveness: (() => Promise<void>) | undefined;
  try {
    await migrate(orm);
    // this process claims jobs: it must hold its liveness lock while it does
    releaseLiveness = await holdLiveness(orm, url, log);
    await initServices(services, orm.em.fork(), config);
    const request = await services.ingestion.requestAsOperator(
      orm.em.fork(),
      positionals[0],
      values.ingestor,
    );
    process.stderr.write(`ingestion request ${request.id} queued for file ${request.fileMfid}\n`);
    if (values['no-wait']) {
      process.stdout.write(`${JSON.stringify(toLegacyIngestionRequest(request), null, 2)}\n`);
      return 0;
    }
    if (!values['queue-only']) worker.start();
    for (;;) {
      const now = await orm.em.fork().findOneOrFail(IngestionRequest, { id: request.id });
      if (FINAL_STATUSES.has(now.status)) {
        process.stdout.write(`${JSON.stringify(toLegacyIngestionRequest(now), null, 2)}\n`);
        return now.status === 'complete' ? 0 : 1;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  } finally {
    await worker.stop(config.shutdownTimeoutMs);
    await releaseLiveness?.();
    await orm.close(true);
    await stopDigestThread();
    await embedded?.stop();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
