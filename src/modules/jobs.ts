import type { MikroORM } from '@mikro-orm/postgresql';
import type { Config } from '../core/config';
import type { Logger } from '../core/logger';
import { JobWorker } from '../core/jobs/worker';
import type { Services } from './services';
import { INGESTION_QUEUE } from './ingestion/ingestion.service';
import { IngestionRunner } from './ingestion/ingestion-runner';
import { provenance } from './health/health.service';
import type { ContextFactory } from '../core/context-factory';
import { WebhookDispatcher } from './webhook/webhook-dispatcher';
import { DATACITE_QUEUE, DataciteRegistrationRunner } from './publication/datacite-registration';

/**
 * The job worker of this process with every queue it consumes: ingestion, and DataCite
 * registrations when DataCite is configured. (The analysis
 * queues have no consumer in this service.) Role `all` starts it inside the API process; role
 * `worker` runs only it.
 */
export function createJobWorker(deps: {
  orm: MikroORM;
  services: Services;
  config: Config;
  log: Logger;
}): JobWorker {
  const { orm, services, config, log } = deps;
  const worker = new JobWorker({
    orm,
    queue: services.jobs,
    log: log.child({ component: 'jobs' }),
    concurrency: config.workerConcurrency,
    pollIntervalMs: config.jobs.pollIntervalMs,
    leaseMs: config.jobs.leaseSeconds * 1000,
  });
  const { commit, version } = provenance(config);
  worker.register(
    INGESTION_QUEUE,
    new IngestionRunner({
      store: services.file.store,
      files: services.file,
      datasets: services.dataset,
      metadata: services.metadataStore,
      thumbnails: services.thumbnail,
      keywords: services.keyword,
      events: services.events,
      log: log.child({ component: 'ingestion' }),
      tmpDir: config.ingestion.tmpDir,
      timeoutMs: config.ingestion.timeoutSeconds * 1000,
      version: commit ?? version,
      progress: {
        minBytes: config.ingestion.progressMinBytes,
        intervalMs: config.ingestion.progressIntervalMs,
      },
    }),
  );
  if (services.dataciteClient)
    worker.register(
      DATACITE_QUEUE,
      new DataciteRegistrationRunner({
        client: services.dataciteClient,
        registrar: services.datacite,
        log: log.child({ component: 'datacite' }),
      }),
    );
  return worker;
}

/** The webhook dispatcher of this process: runs wherever the job worker runs (roles `all` and `worker`). */
export function createWebhookDispatcher(deps: {
  orm: MikroORM;
  services: Services;
  contexts: ContextFactory;
  config: Config;
  log: Logger;
}): WebhookDispatcher {
  const { services } = deps;
  return new WebhookDispatcher({
    orm: deps.orm,
    contexts: deps.contexts,
    resources: services.resource,
    datasets: services.dataset,
    references: services.references,
    log: deps.log,
    settings: deps.config.webhooks,
    addresses: services.webhook.addresses,
  });
}
