import path from 'node:path';
import {
  corsOrigins,
  datacite,
  embeddedSharedBuffers,
  queuePrefix,
  Reader,
  storeName,
  trustProxy,
  webhookAllowNetworks,
  ConfigError,
  type DataciteSettings,
  type Env,
} from './config-reader';

export { ConfigError, type DataciteSettings } from './config-reader';

/**
 * The only reader of `process.env`. Every setting is parsed and validated once at start; all
 * problems are reported together. Defaults make `npm start` work with nothing set: role `all`,
 * an embedded PostgreSQL and a filesystem object store under `./data`.
 */
export type Role = 'all' | 'api' | 'worker';
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface S3Settings {
  endpoint?: string;
  /** the endpoint presigned download URLs name (clients outside the store's network); default `endpoint` */
  publicEndpoint?: string;
  bucket: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
}

export interface Config {
  role: Role;
  host: string;
  port: number;
  logLevel: LogLevel;
  /** Absent: run the embedded PostgreSQL under `dataDir/db`. */
  databaseUrl?: string;
  dbPoolMax: number;
  /** how long a process reuses what authenticated a key (0: look it up on every request) */
  authCacheTtlMs: number;
  embeddedDbPort: number;
  /** `shared_buffers` of the embedded database (resident memory of the service) */
  embeddedDbSharedBuffers: string;
  dataDir: string;
  /** Absent: the filesystem object store under `dataDir/objects`. */
  s3?: S3Settings;
  publicBaseUrl: string;
  /** the publisher named in publications' citations and DataCite records (docs/publications.md) */
  publisherName: string;
  /** DOIs through DataCite's REST API (docs/publications.md, "DOIs through DataCite"); absent: none */
  datacite?: DataciteSettings;
  /** OAI-PMH and sitemaps (docs/publications.md "Harvesting") */
  oai: { adminEmail: string; pageSize: number; sitemapFileUrls: number };
  /**
   * Express's `trust proxy`: which hops' `X-Forwarded-For` / `-Proto` / `-Host` are believed
   * (`req.ip`, `req.secure`). `false` (the default): none, `req.ip` is the socket's address;
   * a number: that many hops in front; a string: comma-separated addresses, CIDRs and the names
   * `loopback`, `linklocal`, `uniquelocal` (docs/configuration.md).
   */
  trustProxy: false | number | string;
  /** exact origins (`scheme://host[:port]`) whose pages may call the API from a browser; none by default */
  corsOrigins: readonly string[];
  /** when set, `/metrics` answers only `Authorization: Bearer <token>` */
  metricsToken?: string;
  /** a second listener with only `/metrics` and `/health/*` (how workers expose them) */
  metricsPort?: number;
  adminApiKey?: string;
  urlSigningSecret?: string;
  /** Resumable upload sessions (legacy protocol) and signed download links. */
  uploads: {
    sessionTtlSeconds: number;
    chunkSizeHint: number;
    downloadUrlTtlSeconds: number;
  };
  limits: {
    maxUploadBytes: number;
    /** files per GraphQL multipart request */
    maxUploadFiles: number;
    /** datasets one batch edit may change (docs/web-app.md, "Edit many at once") */
    batchMaxTargets: number;
    maxPageSize: number;
    defaultPageSize: number;
    /** how far the total of a full-text or metadata search is counted before it is reported as "at least" */
    totalCountLimit: number;
    /** a metadata condition or project selector with at most this many matches starts the list from their MFIDs (0: never); docs/scale.md */
    idListLimit: number;
    graphqlMaxDepth: number;
    graphqlMaxComplexity: number;
    /** the largest GraphQL document (bytes) and its most tokens, checked before parsing */
    graphqlMaxDocumentBytes: number;
    graphqlMaxTokens: number;
    /** the same for callers without an API key (they may only introspect) */
    graphqlAnonymousMaxDocumentBytes: number;
    graphqlAnonymousMaxTokens: number;
    /** items of the unpaged GraphQL lists of a record (parents, children, samples, links...) */
    graphqlListMax: number;
    graphMaxDepth: number;
    /** nodes of one entity or project graph (edges: four times as many) */
    graphMaxNodes: number;
    maxJsonBodyBytes: number;
  };
  workerConcurrency: number;
  /** hot GraphQL queries run as graphql-jit compiles them (docs/performance.md, "Compiled execution") */
  graphqlCompiled: boolean;
  /** how many times a query runs on graphql-js before it is compiled */
  graphqlCompileAfter: number;
  /** The durable job queue (jobs table) and its workers. */
  jobs: {
    /** how often idle workers look for work (they are also woken at once by this process's enqueues) */
    pollIntervalMs: number;
    /** a claimed job returns to the queue when its worker has not renewed the lease for this long */
    leaseSeconds: number;
    maxAttempts: number;
    /** retries wait base × 2^(attempt − 1) */
    retryBaseMs: number;
    /** prepended to every queue name: deployments (or test runs) sharing one database stay apart */
    queuePrefix: string;
  };
  /** GraphQL subscriptions over WebSocket (docs/events.md, "Live updates"). */
  subscriptions: {
    /** how often the outbox is read for this process's subscriptions (only while there are some) */
    pollIntervalMs: number;
    /** open subscriptions per API key, across its sockets in this process */
    perKey: number;
    /** open sockets per API key in this process */
    socketsPerKey: number;
  };
  /** Webhook delivery from the events outbox (worker role; docs/events.md). */
  webhooks: {
    pollIntervalMs: number;
    /** a receiver not answering within this long is a failed attempt */
    timeoutMs: number;
    /** a claimed delivery whose worker died is delivered again after this long */
    leaseSeconds: number;
    maxAttempts: number;
    /** retries wait base × 2^(attempt − 1), at most an hour */
    retryBaseMs: number;
    /** failed attempts in a row that disable a subscription */
    disableAfterFailures: number;
    /** deliveries in flight per worker */
    concurrency: number;
    /** networks webhooks may reach although they are not public (WEBHOOK_ALLOW_NETWORKS) */
    allowNetworks: string[];
    /** delivered (and skipped) deliveries are deleted after this many days */
    retentionDays: number;
  };
  ingestion: {
    /** where files are spooled when a parser needs a path */
    tmpDir: string;
    /** an ingestor still running after this long fails the request */
    timeoutSeconds: number;
    /** the store name in the storage_path of ingested files on the filesystem store */
    localStoreName: string;
    /** files from this size on report their reading progress (status and `ingestion.progress`) */
    progressMinBytes: number;
    /** at most one progress report per this long (and per 5 % of the file) */
    progressIntervalMs: number;
  };
  /** Sign-in through an OpenID Connect provider (docs/authentication.md); absent: keys only. */
  oidc?: {
    issuer: string;
    clientId: string;
    /** absent: a public client (PKCE only) */
    clientSecret?: string;
    scopes: string;
    providerName: string;
    /** what the first sign-in of an unknown person does */
    newUsers: 'create' | 'pending' | 'refuse';
  };
  /** Browser sessions (docs/authentication.md). */
  sessions: {
    /** a session with no request for this long has ended */
    idleMinutes: number;
    /** a session ends this long after sign-in, however busy */
    maxHours: number;
  };
  /** Failed sign-ins paused per client address and per key (docs/authentication.md). */
  signInLimits: {
    maxFailures: number;
    windowSeconds: number;
    maxEntries: number;
  };
  shutdownTimeoutMs: number;
  gitCommit?: string;
}

const MiB = 1024 ** 2;
const GiB = 1024 ** 3;

export function loadConfig(env: Env = process.env): Config {
  const r = new Reader(env);
  const role = r.oneOf<Role>('ROLE', 'all', ['all', 'api', 'worker']);
  const port = r.int('PORT', 8000, 0, 65535);
  const host = r.str('HOST') ?? '127.0.0.1';
  const databaseUrl = r.url('DATABASE_URL', ['postgres:', 'postgresql:']);
  const dataDir = path.resolve(r.str('DATA_DIR') ?? './data');

  const bucket = r.str('S3_BUCKET');
  const s3Endpoint = r.url('S3_ENDPOINT', ['http:', 'https:']);
  const s3PublicEndpoint = r.url('S3_PUBLIC_ENDPOINT', ['http:', 'https:']);
  const accessKeyId = r.str('S3_ACCESS_KEY_ID');
  const secretAccessKey = r.str('S3_SECRET_ACCESS_KEY');
  const s3Region = r.str('S3_REGION') ?? 'us-east-1';
  const forcePathStyle = r.bool('S3_FORCE_PATH_STYLE', true);
  let s3: S3Settings | undefined;
  if (bucket) {
    if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket))
      r.problems.push('S3_BUCKET is not a valid bucket name');
    if (Boolean(accessKeyId) !== Boolean(secretAccessKey)) {
      r.problems.push('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together');
    }
    s3 = {
      bucket,
      endpoint: s3Endpoint,
      publicEndpoint: s3PublicEndpoint,
      region: s3Region,
      accessKeyId,
      secretAccessKey,
      forcePathStyle,
    };
  } else if (s3Endpoint || s3PublicEndpoint || accessKeyId || secretAccessKey) {
    r.problems.push('S3_BUCKET is required when any other S3_* setting is given');
  }

  const publicBaseUrl = (r.url('PUBLIC_BASE_URL', ['http:', 'https:']) ?? `http://localhost:${port}`).replace(
    /\/+$/,
    '',
  );
  const publisherName = r.str('PUBLISHER_NAME') ?? 'Catalog service';
  if (publisherName.length > 200) r.problems.push('PUBLISHER_NAME must be at most 200 characters');
  const publicHost = new URL(publicBaseUrl).hostname;
  const adminEmail =
    r.str('OAI_ADMIN_EMAIL') ?? `admin@${publicHost.includes('.') ? publicHost : 'localhost.localdomain'}`;
  if (!/^[^\s@]+@([^\s@.]+\.)+[^\s@.]+$/.test(adminEmail))
    r.problems.push('OAI_ADMIN_EMAIL must be an e-mail address (name@host.domain)');
  const oai = {
    adminEmail,
    pageSize: r.int('OAI_PAGE_SIZE', 100, 1, 1000),
    sitemapFileUrls: r.int('SITEMAP_FILE_URLS', 50_000, 2, 50_000),
  };
  const adminApiKey = r.str('ADMIN_API_KEY');
  if (adminApiKey !== undefined && adminApiKey.length < 24) {
    r.problems.push('ADMIN_API_KEY must be at least 24 characters long');
  }
  const metricsToken = r.str('METRICS_TOKEN');
  if (metricsToken !== undefined && metricsToken.length < 16) {
    r.problems.push('METRICS_TOKEN must be at least 16 characters long');
  }
  const urlSigningSecret = r.str('URL_SIGNING_SECRET');
  if (urlSigningSecret !== undefined && urlSigningSecret.length < 32) {
    r.problems.push('URL_SIGNING_SECRET must be at least 32 characters long');
  }

  const maxPageSize = r.int('MAX_PAGE_SIZE', 1000, 1, 10000);
  const defaultPageSize = r.int('DEFAULT_PAGE_SIZE', 100, 1, 10000);
  if (defaultPageSize > maxPageSize) r.problems.push('DEFAULT_PAGE_SIZE must not exceed MAX_PAGE_SIZE');

  if (role === 'worker' && !databaseUrl) {
    r.problems.push(
      'ROLE=worker needs DATABASE_URL: the embedded database lives inside the process that owns DATA_DIR',
    );
  }

  const oidcIssuer = r.url('OIDC_ISSUER', ['http:', 'https:']);
  const oidcClientId = r.str('OIDC_CLIENT_ID');
  const oidcNewUsers = r.oneOf('OIDC_NEW_USERS', 'pending', ['create', 'pending', 'refuse'] as const);
  let oidc: Config['oidc'];
  if (oidcIssuer) {
    if (!oidcClientId) r.problems.push('OIDC_CLIENT_ID is required with OIDC_ISSUER');
    const scopes = r.str('OIDC_SCOPES') ?? 'openid profile email';
    if (!scopes.split(/\s+/).includes('openid')) r.problems.push('OIDC_SCOPES must include openid');
    oidc = {
      issuer: oidcIssuer,
      clientId: oidcClientId ?? '',
      clientSecret: r.str('OIDC_CLIENT_SECRET'),
      scopes,
      providerName: r.str('OIDC_PROVIDER_NAME') ?? 'your institution',
      newUsers: oidcNewUsers,
    };
  } else if (oidcClientId || r.str('OIDC_CLIENT_SECRET')) {
    r.problems.push('OIDC_ISSUER is required when OIDC_CLIENT_ID or OIDC_CLIENT_SECRET is set');
  }

  const config: Config = {
    role,
    host,
    port,
    logLevel: r.oneOf<LogLevel>('LOG_LEVEL', 'info', [
      'fatal',
      'error',
      'warn',
      'info',
      'debug',
      'trace',
      'silent',
    ]),
    databaseUrl,
    dbPoolMax: r.int('DB_POOL_MAX', 10, 1, 200),
    authCacheTtlMs: r.int('AUTH_CACHE_TTL_MS', 3000, 0, 60_000),
    embeddedDbPort: r.int('EMBEDDED_DB_PORT', 0, 0, 65535),
    embeddedDbSharedBuffers: embeddedSharedBuffers(r),
    dataDir,
    s3,
    publicBaseUrl,
    publisherName,
    datacite: datacite(r),
    oai,
    trustProxy: trustProxy(r),
    corsOrigins: corsOrigins(r),
    metricsToken,
    metricsPort: r.str('METRICS_PORT') === undefined ? undefined : r.int('METRICS_PORT', 0, 1, 65535),
    adminApiKey,
    urlSigningSecret,
    uploads: {
      sessionTtlSeconds: r.int('UPLOAD_SESSION_TTL_SECONDS', 24 * 3600, 60, 30 * 24 * 3600),
      chunkSizeHint: r.int('UPLOAD_CHUNK_SIZE_HINT', 64 * MiB, 256 * 1024, 5 * GiB),
      downloadUrlTtlSeconds: r.int('DOWNLOAD_URL_TTL_SECONDS', 3600, 60, 7 * 24 * 3600),
    },
    limits: {
      maxUploadBytes: r.int('MAX_UPLOAD_BYTES', 100 * GiB, 1, Number.MAX_SAFE_INTEGER),
      maxUploadFiles: r.int('MAX_UPLOAD_FILES', 10, 1, 1000),
      batchMaxTargets: r.int('BATCH_MAX_TARGETS', 10_000, 1, 1_000_000),
      maxPageSize,
      defaultPageSize,
      totalCountLimit: r.int('TOTAL_COUNT_LIMIT', 1000, 1, 10_000_000),
      idListLimit: r.int('ID_LIST_LIMIT', 50_000, 0, 10_000_000),
      graphqlMaxDepth: r.int('GRAPHQL_MAX_DEPTH', 12, 2, 100),
      graphqlMaxComplexity: r.int('GRAPHQL_MAX_COMPLEXITY', 250_000, 10, 100_000_000),
      graphqlMaxDocumentBytes: r.int('GRAPHQL_MAX_DOCUMENT_BYTES', 100_000, 1024, 10 * 1024 * 1024),
      graphqlMaxTokens: r.int('GRAPHQL_MAX_TOKENS', 3000, 100, 1_000_000),
      graphqlAnonymousMaxDocumentBytes: r.int(
        'GRAPHQL_ANONYMOUS_MAX_DOCUMENT_BYTES',
        16 * 1024,
        1024,
        10 * 1024 * 1024,
      ),
      graphqlAnonymousMaxTokens: r.int('GRAPHQL_ANONYMOUS_MAX_TOKENS', 500, 100, 1_000_000),
      graphqlListMax: r.int('GRAPHQL_LIST_MAX', 100, 1, 10000),
      graphMaxDepth: r.int('GRAPH_MAX_DEPTH', 64, 1, 10000),
      graphMaxNodes: r.int('GRAPH_MAX_NODES', 5000, 10, 1_000_000),
      maxJsonBodyBytes: r.int('MAX_JSON_BODY_BYTES', 10 * 1024 * 1024, 1024, 1024 ** 3),
    },
    workerConcurrency: r.int('WORKER_CONCURRENCY', 2, 1, 64),
    graphqlCompiled: r.bool('GRAPHQL_COMPILED', true),
    graphqlCompileAfter: r.int('GRAPHQL_COMPILE_AFTER', 2, 0, 1_000_000),
    jobs: {
      pollIntervalMs: r.int('JOB_POLL_INTERVAL_MS', 500, 10, 600_000),
      leaseSeconds: r.int('JOB_LEASE_SECONDS', 30, 5, 24 * 3600),
      maxAttempts: r.int('JOB_MAX_ATTEMPTS', 3, 1, 100),
      retryBaseMs: r.int('JOB_RETRY_BASE_MS', 5000, 0, 3_600_000),
      queuePrefix: queuePrefix(r),
    },
    subscriptions: {
      pollIntervalMs: r.int('SUBSCRIPTION_POLL_INTERVAL_MS', 200, 20, 60_000),
      perKey: r.int('SUBSCRIPTIONS_PER_KEY', 20, 1, 10_000),
      socketsPerKey: r.int('SUBSCRIPTION_SOCKETS_PER_KEY', 5, 1, 1000),
    },
    webhooks: {
      pollIntervalMs: r.int('WEBHOOK_POLL_INTERVAL_MS', 200, 10, 600_000),
      timeoutMs: r.int('WEBHOOK_TIMEOUT_MS', 10_000, 100, 600_000),
      leaseSeconds: r.int('WEBHOOK_LEASE_SECONDS', 60, 1, 24 * 3600),
      maxAttempts: r.int('WEBHOOK_MAX_ATTEMPTS', 10, 1, 100),
      retryBaseMs: r.int('WEBHOOK_RETRY_BASE_MS', 5000, 0, 3_600_000),
      disableAfterFailures: r.int('WEBHOOK_DISABLE_AFTER_FAILURES', 50, 1, 100_000),
      concurrency: r.int('WEBHOOK_CONCURRENCY', 8, 1, 256),
      allowNetworks: webhookAllowNetworks(r),
      retentionDays: r.int('EVENT_DELIVERY_RETENTION_DAYS', 30, 1, 36_500),
    },
    ingestion: {
      tmpDir: path.resolve(r.str('INGEST_TMP_DIR') ?? path.join(dataDir, 'tmp')),
      timeoutSeconds: r.int('INGEST_TIMEOUT_SECONDS', 1800, 1, 7 * 24 * 3600),
      localStoreName: storeName(r),
      progressMinBytes: r.int('INGEST_PROGRESS_MIN_BYTES', 1024 * 1024, 0, Number.MAX_SAFE_INTEGER),
      progressIntervalMs: r.int('INGEST_PROGRESS_INTERVAL_MS', 1000, 0, 3_600_000),
    },
    oidc,
    sessions: {
      idleMinutes: r.int('SESSION_IDLE_MINUTES', 720, 1, 30 * 24 * 60),
      maxHours: r.int('SESSION_MAX_HOURS', 168, 1, 365 * 24),
    },
    signInLimits: {
      maxFailures: r.int('SIGN_IN_MAX_FAILURES', 10, 1, 1_000_000),
      windowSeconds: r.int('SIGN_IN_WINDOW_SECONDS', 300, 1, 24 * 3600),
      maxEntries: r.int('SIGN_IN_LIMITER_ENTRIES', 100_000, 100, 10_000_000),
    },
    shutdownTimeoutMs: r.int('SHUTDOWN_TIMEOUT_MS', 10000, 0, 600000),
    gitCommit: r.str('GIT_COMMIT'),
  };
  if (r.problems.length > 0) throw new ConfigError(r.problems);
  return Object.freeze(config);
}
