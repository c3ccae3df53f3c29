import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The process's Prometheus metrics (served at `/metrics`, see `metrics/endpoint.ts`). One
 * registry per process: API replicas and workers each expose their own, and Prometheus sums them.
 * Label values are bounded: route templates (never raw paths), operation names from a capped set,
 * queue and ingestor names, status codes.
 */
export const registry = new Registry();
collectDefaultMetrics({ register: registry, prefix: 'catalog_' });
renameTotalGauges();

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
const JOB_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 900, 1800];

export const httpRequests = new Counter({
  name: 'catalog_http_requests_total',
  help: 'HTTP requests answered, by method, route template and status code.',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [registry],
});

export const httpDuration = new Histogram({
  name: 'catalog_http_request_duration_seconds',
  help: 'Time from receiving an HTTP request to the end of its response, by method, route template and status code.',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [registry],
});

export const graphqlOperations = new Counter({
  name: 'catalog_graphql_operations_total',
  help: 'GraphQL operations, by operation name, type and outcome (ok, or the first error code in lower case).',
  labelNames: ['operation', 'type', 'outcome'] as const,
  registers: [registry],
});

export const graphqlExecutions = new Counter({
  name: 'catalog_graphql_executions_total',
  help: 'GraphQL operations executed, by engine: compiled (graphql-jit, hot queries) or graphql-js (everything else).',
  labelNames: ['engine'] as const,
  registers: [registry],
});

export const graphqlDuration = new Histogram({
  name: 'catalog_graphql_operation_duration_seconds',
  help: 'Time to answer a GraphQL operation, by operation name, type and outcome.',
  labelNames: ['operation', 'type', 'outcome'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [registry],
});

export const jobsProcessed = new Counter({
  name: 'catalog_jobs_total',
  help: 'Job attempts run by this process, by queue and outcome (completed, retried, failed, released).',
  labelNames: ['queue', 'outcome'] as const,
  registers: [registry],
});

export const jobDuration = new Histogram({
  name: 'catalog_job_duration_seconds',
  help: 'Time one job attempt ran in this process, by queue and outcome.',
  labelNames: ['queue', 'outcome'] as const,
  buckets: JOB_BUCKETS,
  registers: [registry],
});

export const ingestions = new Counter({
  name: 'catalog_ingestions_total',
  help: 'Ingestion runs by ingestor and outcome (the request status recorded, or "error" when the run is retried).',
  labelNames: ['ingestor', 'outcome'] as const,
  registers: [registry],
});

export const ingestionDuration = new Histogram({
  name: 'catalog_ingestion_duration_seconds',
  help: 'Time one ingestion run took, by ingestor and outcome.',
  labelNames: ['ingestor', 'outcome'] as const,
  buckets: JOB_BUCKETS,
  registers: [registry],
});

export const uploadBytes = new Counter({
  name: 'catalog_upload_bytes_total',
  help: 'Bytes written to the object store by uploads (whole objects and multipart parts), by store kind.',
  labelNames: ['store'] as const,
  registers: [registry],
});

export const storedObjects = new Counter({
  name: 'catalog_stored_objects_total',
  help: 'Objects completed in the object store, by store kind.',
  labelNames: ['store'] as const,
  registers: [registry],
});

/** Builds a gauge whose value is computed at each scrape. */
export function gauge<L extends string>(
  name: string,
  help: string,
  labelNames: readonly L[],
  collect: (g: Gauge<L>) => Promise<void> | void,
): Gauge<L> {
  return new Gauge<L>({
    name,
    help,
    labelNames,
    registers: [registry],
    collect() {
      return collect(this);
    },
  });
}

/**
 * prom-client's default metrics include three gauges named like counters
 * (`nodejs_active_handles_total`, `…_requests_total`, `…_resources_total`): `_total` is for
 * counters (Prometheus naming; promtool refuses it on a gauge). Each is served as `…_all` instead,
 * the same figure read from prom-client's own gauge at each scrape.
 */
function renameTotalGauges(): void {
  for (const metric of registry.getMetricsAsArray()) {
    if (!(metric instanceof Gauge) || !metric.name.endsWith('_total')) continue;
    const original = metric as Gauge;
    registry.removeSingleMetric(metric.name);
    gauge(metric.name.replace(/_total$/, '_all'), metric.help, [], async (g) => {
      const { values } = await original.get();
      g.set(values.reduce((sum, v) => sum + v.value, 0));
    });
  }
}

/** Seconds since `started` (a `process.hrtime.bigint()` reading). */
export function secondsSince(started: bigint): number {
  return Number(process.hrtime.bigint() - started) / 1e9;
}

/** Records one ingestion run (`outcome`: the request status recorded, or `error` when retried). */
export function observeIngestion(ingestor: string, outcome: string, started: bigint): void {
  ingestions.inc({ ingestor, outcome });
  ingestionDuration.observe({ ingestor, outcome }, secondsSince(started));
}

/** Records bytes an upload wrote to the object store; `completed` when an object is now whole. */
export function countUpload(store: string, bytes: number, completed: boolean): void {
  if (bytes > 0) uploadBytes.inc({ store }, bytes);
  if (completed) storedObjects.inc({ store });
}
