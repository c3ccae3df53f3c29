import { randomOrcid, unique } from '../support/factories';
import { newMfid } from '../../src/core/ids';
import {
  ANY,
  PERSON,
  all,
  HOLDER,
  INSIDER,
  OPEN,
  PLATFORM_ADMIN,
  PUBLISHER,
  PUBLISHER_DRAFT,
  SELF,
  contribute,
  credential,
  manage,
  operate,
  orAnonymous,
  own,
  read,
  update,
  type Rule,
} from './rules';

/**
 * THE AUTHORIZATION TABLE: every REST route and every GraphQL query and mutation, with who may
 * call it. `matrix.rest.test.ts` and `matrix.graphql.test.ts` run each row for every role (rules.ts) on a private and a public
 * record, and fails when a route registered in Express or a field of the schema has no row
 * here. Adding an operation means adding its row.
 *
 * Reading a row: the operation, its rule, then the request made against the matrix world
 * (world.ts). `fresh` names a record made anew for each call (what the call consumes);
 * `allowed` lists answers that still mean "allowed" besides 2xx.
 */

/** The records the requests address (one world per visibility; see world.ts). */
export interface World {
  dataset: string;
  dataset2: string;
  sample: string;
  sample2: string;
  project: string;
  projectSlug: string;
  /** a project every role contributes to: the target of reassignments */
  target: string;
  instrument: string;
  storedFile: string;
  remoteFile: string;
  thumbnail: number;
  deletionRequest: number;
  auditEntry: number;
  serviceAccount: string;
  owner: { id: string; username: string };
  heir: { id: string; username: string; email: string };
  group: string;
  image: string;
  /** the ingestion request the upload of `storedFile` made */
  ingestionRequest: number;
  analysisRequest: number;
  /** the owner's webhook subscription (on `dataset`, paused) and a delivery in its log */
  webhook: string;
  webhookDelivery: number;
  /** a draft publication of `dataset2` the owner created, and a published one */
  draft: string;
  publication: string;
  /** a batch edit the owner previewed */
  batch: string;
}

/** Records made for one call: a dataset to delete, a file to remove... */
export interface Fresh {
  dataset?: string;
  file?: string;
  thumbnail?: number;
  deletionRequest?: number;
  joinRequest?: number;
  webhook?: string;
  /** a draft publication of `dataset2` (the owner's), and a published one */
  draft?: string;
  publication?: string;
  /** a batch edit of the owner's: previewed (`batch`) or applied (`appliedBatch`), with its token */
  batch?: { id: string; token: string };
  /** one of the owner's API keys */
  apiKey?: string;
  /** a user of its own (a person to disable) */
  user?: string;
}

export type FreshKind =
  | 'dataset'
  | 'file'
  | 'thumbnail'
  | 'deletionRequest'
  | 'joinRequest'
  | 'grant'
  | 'operator'
  | 'member'
  | 'groupMember'
  | 'datasetLink'
  | 'sampleLink'
  | 'association'
  | 'webhook'
  | 'draft'
  | 'publication'
  | 'batch'
  | 'appliedBatch'
  | 'apiKey'
  | 'user';

export interface Call {
  path: string;
  query?: Record<string, string>;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface Row {
  /** `GET /datasets/:id` (REST, without /api/v2) or `Query.dataset` / `Mutation.createDataset` */
  op: string;
  rule: Rule;
  rest?: (w: World, f: Fresh) => Call;
  /** served outside /api/v2 (health, the GraphQL explorer) */
  root?: boolean;
  graphql?: { doc: string; vars?: (w: World, f: Fresh) => Record<string, unknown>; upload?: boolean };
  fresh?: FreshKind;
  /** REST statuses or GraphQL codes that also mean the call was allowed */
  allowed?: (number | string)[];
}

const R = (
  op: string,
  rule: Rule,
  rest: (w: World, f: Fresh) => Call | string,
  opts: Partial<Row> = {},
): Row => ({
  op,
  rule,
  rest: (w, f) => {
    const call = rest(w, f);
    return typeof call === 'string' ? { path: call } : call;
  },
  ...opts,
});
const G = (
  op: string,
  rule: Rule,
  doc: string,
  vars?: (w: World, f: Fresh) => Record<string, unknown>,
  { upload, ...opts }: Partial<Row> & { upload?: boolean } = {},
): Row => ({ op, rule, graphql: { doc, vars, upload }, ...opts });

const body = (path: string, payload: unknown): Call => ({ path, body: payload });

/** A subscription the matrix makes: a closed port, and an event type the matrix never causes. */
export const MATRIX_WEBHOOK = { url: 'http://127.0.0.1:9/matrix', event_types: ['deletion.rejected'] };

/** The metadata of the matrix's publications (docs/publications.md). */
export const MATRIX_PUBLICATION = {
  title: 'matrix',
  description: 'A publication the authorization matrix makes, with a description long enough.',
  creators: [{ name: 'Matrix, Owner' }],
  license: 'CC0-1.0',
};

export const TABLE: Row[] = [
  // --- health and the explorer: open to everyone
  R('GET /health/live', OPEN, () => '/health/live'),
  R('GET /health/ready', OPEN, () => '/health/ready'),
  R('GET /graphql', OPEN, () => ({ path: '/graphql', headers: { accept: 'text/html' } }), { root: true }),
  R('GET /graphql/assets/:name', OPEN, () => '/graphql/assets/graphiql.css', { root: true }),
  // open unless METRICS_TOKEN is set (then its bearer token, never an API key: metrics.test.ts)
  R('GET /metrics', OPEN, () => '/metrics', { root: true }),
  // the OpenAPI document and its browsable page: public descriptions of the API
  R('GET /openapi.json', OPEN, () => '/openapi.json'),
  R('GET /docs', OPEN, () => ({ path: '/docs', headers: { accept: 'text/html' } })),
  // the web catalog page: any other GET asking for HTML (the page signs in with a key itself)
  R('GET /.*/', OPEN, () => ({ path: '/find/', headers: { accept: 'text/html' } }), { root: true }),
  // --- URLs that are their own credential (an upload session token, a download signature)
  R('PUT /upload-sessions/:token', credential(404), () => `/upload-sessions/${newMfid()}`),
  R(
    'GET /signed/objects/*key',
    credential(403),
    (w) => `/signed/objects/${w.dataset}%2Fx?name=x&type=text%2Fplain&expires=1&signature=bad`,
  ),

  // --- browser sign-in (outside /api/v2): the session state is open; the key exchange takes a
  // key as its credential; with no OpenID provider configured its routes are 404 for everyone
  R('GET /auth/session', OPEN, () => '/auth/session', { root: true }),
  R('POST /auth/key', credential(401), () => body('/auth/key', { api_key: `cat_${'x'.repeat(43)}` }), {
    root: true,
  }),
  R('POST /auth/logout', OPEN, () => ({ path: '/auth/logout', body: {} }), { root: true }),
  // an administrator's session elevating or dropping it: the session cookie is the credential
  // (a key alone is 401; with a session: session-elevation.test.ts)
  R('POST /auth/session/elevate', credential(401), () => ({ path: '/auth/session/elevate', body: {} }), {
    root: true,
  }),
  R(
    'POST /auth/session/drop-elevation',
    credential(401),
    () => ({ path: '/auth/session/drop-elevation', body: {} }),
    { root: true },
  ),
  R('GET /auth/login', credential(404), () => '/auth/login', { root: true }),
  R('GET /auth/callback', credential(404), () => '/auth/callback', { root: true }),

  // --- account and users
  R('GET /account', ANY, () => '/account'),
  R('GET /account/profile', ANY, () => '/account/profile'),
  R('PATCH /account/profile', ANY, () => body('/account/profile', { first_name: 'Test' })),
  R('GET /account/apikey', ANY, () => '/account/apikey'),
  R('GET /account/verify', ANY, () => '/account/verify'),
  // a person's own keys (each role makes one per call: far below the cap of 20 live keys)
  R('GET /account/apikeys', ANY, () => '/account/apikeys'),
  R('POST /account/apikeys', PERSON, () => body('/account/apikeys', { label: 'matrix' })),
  R('DELETE /account/apikeys/:id', HOLDER, (_w, f) => `/account/apikeys/${f.apiKey}`, { fresh: 'apiKey' }),
  R('GET /users/:id/apikeys', SELF, (w) => `/users/${w.owner.id}/apikeys`),
  R('DELETE /users/:id/apikeys/:keyId', SELF, (w, f) => `/users/${w.owner.id}/apikeys/${f.apiKey}`, {
    fresh: 'apiKey',
  }),
  R('GET /account/join_requests', ANY, () => '/account/join_requests'),
  R('GET /users', PLATFORM_ADMIN, () => '/users'),
  R('POST /users', PLATFORM_ADMIN, () =>
    body('/users', { user_info: { orcid: randomOrcid(), first_name: 'M', last_name: 'X' } }),
  ),
  R('POST /users/resolve', ANY, (w) => body('/users/resolve', { usernames: [w.heir.username] })),
  R('GET /users/search', ANY, (w) => ({ path: '/users/search', query: { q: w.heir.username } })),
  R('GET /users/by-username/:username', ANY, (w) => `/users/by-username/${w.heir.username}`),
  R('GET /users/:id', ANY, (w) => `/users/${w.heir.id}`),
  R('PATCH /users/:id', PLATFORM_ADMIN, (w) => body(`/users/${w.heir.id}`, { first_name: 'Heir' })),
  R('GET /users/:id/apikey/verify', SELF, (w) => `/users/${w.owner.id}/apikey/verify`),
  R('PATCH /users/:id/platform_role', PLATFORM_ADMIN, (w) =>
    body(`/users/${w.heir.id}/platform_role`, { platform_role: 'contributor' }),
  ),
  R('DELETE /users/:id/apikey', PLATFORM_ADMIN, (w) => `/users/${w.serviceAccount}/apikey`),
  R('POST /users/:id/activate', PLATFORM_ADMIN, (w) => body(`/users/${w.heir.id}/activate`, {})),
  R('DELETE /users/:id/sessions', SELF, (w) => `/users/${w.owner.id}/sessions`),
  R('GET /users/:id/projects', SELF, (w) => `/users/${w.owner.id}/projects`),
  R('GET /users/:id/datasets', PLATFORM_ADMIN, (w) => `/users/${w.heir.id}/datasets`),
  R('GET /users/:id/datasets/:dsid', PLATFORM_ADMIN, (w) => `/users/${w.heir.id}/datasets/${w.dataset}`),
  R('GET /users/:id/access_groups', SELF, (w) => `/users/${w.owner.id}/access_groups`),
  R(
    'POST /users/:id/access_groups/:group',
    PLATFORM_ADMIN,
    (w) => `/users/${w.heir.id}/access_groups/${w.group}`,
  ),
  R(
    'DELETE /users/:id/access_groups/:group',
    PLATFORM_ADMIN,
    (w) => `/users/${w.heir.id}/access_groups/${w.group}`,
    {
      fresh: 'groupMember',
    },
  ),
  R('POST /service_accounts', PLATFORM_ADMIN, () => body('/service_accounts', { username: unique('svc') })),
  R('GET /service_accounts', PLATFORM_ADMIN, () => ({ path: '/service_accounts', query: { q: 'svc' } })),
  R('GET /service_accounts/:id', PLATFORM_ADMIN, (w) => `/service_accounts/${w.serviceAccount}`),
  R('PATCH /service_accounts/:id', PLATFORM_ADMIN, (w) =>
    body(`/service_accounts/${w.serviceAccount}`, { platform_role: 'contributor' }),
  ),
  R(
    'POST /service_accounts/:id/rotate_key',
    PLATFORM_ADMIN,
    (w) => `/service_accounts/${w.serviceAccount}/rotate_key`,
  ),

  // --- projects, members, join requests
  R('GET /projects', ANY, () => '/projects'),
  R('POST /projects', PLATFORM_ADMIN, () => body('/projects', { project_id: unique('mx') })),
  R('GET /projects/search', ANY, () => ({ path: '/projects/search', query: { q: 'matrix' } })),
  R('GET /projects/:pid', read('project'), (w) => `/projects/${w.projectSlug}`),
  R('PATCH /projects/:pid', update('project'), (w) => body(`/projects/${w.project}`, { status: 'active' })),
  R('GET /projects/:pid/users', INSIDER, (w) => `/projects/${w.projectSlug}/users`),
  R(
    'POST /projects/:pid/users/:uid',
    manage('project'),
    (w) => `/projects/${w.projectSlug}/users/${w.heir.id}`,
  ),
  R(
    'PATCH /projects/:pid/users/:uid',
    manage('project'),
    (w) => body(`/projects/${w.projectSlug}/users/${w.heir.id}`, { role: 'viewer' }),
    { fresh: 'member' },
  ),
  R(
    'DELETE /projects/:pid/users/:uid',
    manage('project'),
    (w) => `/projects/${w.projectSlug}/users/${w.heir.id}`,
    {
      fresh: 'member',
    },
  ),
  R('POST /projects/:pid/users/me', manage('project'), (w) => ({
    path: `/projects/${w.projectSlug}/users/me`,
    query: { email: w.heir.email },
  })),
  R(
    'DELETE /projects/:pid/users/me',
    manage('project'),
    (w) => ({
      path: `/projects/${w.projectSlug}/users/me`,
      query: { username: w.heir.username },
    }),
    { fresh: 'member' },
  ),
  R('GET /project_graph/:pid', ANY, (w) => `/project_graph/${w.projectSlug}`),
  R(
    'POST /access_groups/:group/join',
    ANY,
    (w) => body(`/access_groups/${w.projectSlug}/join`, { reason: 'x' }),
    {
      allowed: [409],
    },
  ),
  R('GET /join_requests', manage('project'), (w) => ({
    path: '/join_requests',
    query: { group_name: w.projectSlug },
  })),
  R(
    'PATCH /join_requests/:id',
    manage('project'),
    (_w, f) => body(`/join_requests/${f.joinRequest}`, { status: 'rejected' }),
    { fresh: 'joinRequest' },
  ),

  // --- instruments
  R('GET /instruments', ANY, () => '/instruments'),
  R('POST /instruments', PLATFORM_ADMIN, () => body('/instruments', { instrument_name: unique('Matrix') })),
  R('GET /instruments/search', ANY, () => ({ path: '/instruments/search', query: { q: 'matrix' } })),
  R('GET /instruments/:id', read('instrument'), (w) => `/instruments/${w.instrument}`),
  R('PATCH /instruments/:id', update('instrument'), (w) =>
    body(`/instruments/${w.instrument}`, { location: 'B1' }),
  ),
  R('POST /instruments/:id/status', update('instrument'), (w) => ({
    path: `/instruments/${w.instrument}/status`,
    query: { status: 'active' },
  })),
  R(
    'GET /instruments/:id/service_accounts',
    manage('instrument'),
    (w) => `/instruments/${w.instrument}/service_accounts`,
  ),
  R(
    'POST /instruments/:id/service_accounts/:sa',
    manage('instrument'),
    (w) => `/instruments/${w.instrument}/service_accounts/${w.serviceAccount}`,
  ),
  R(
    'DELETE /instruments/:id/service_accounts/:sa',
    manage('instrument'),
    (w) => `/instruments/${w.instrument}/service_accounts/${w.serviceAccount}`,
    { fresh: 'operator' },
  ),

  // --- datasets
  R('GET /datasets', ANY, () => '/datasets'),
  R('GET /datasets/facets', ANY, () => '/datasets/facets'),
  R('POST /datasets', ANY, () => body('/datasets', { dataset_name: 'matrix' })),
  R('GET /datasets/search', ANY, () => ({ path: '/datasets/search', query: { q: 'matrix' } })),
  R('GET /datasets/:id', read('dataset'), (w) => `/datasets/${w.dataset}`),
  R('PATCH /datasets/:id', update('dataset'), (w) =>
    body(`/datasets/${w.dataset}`, { session_name: 'matrix' }),
  ),
  R(
    'PUT /datasets/:id/instrument',
    manage('dataset'),
    (w, f) => body(`/datasets/${f.dataset}/instrument`, { instrument_mfid: w.instrument }),
    { fresh: 'dataset' },
  ),
  // an embargo date in the past: the world's files stay open for the rows that read them
  R('GET /datasets/:id/embargo', read('dataset'), (w) => `/datasets/${w.dataset}/embargo`),
  R(
    'PUT /datasets/:id/embargo',
    manage('dataset'),
    (w, f) => body(`/datasets/${f.dataset}/embargo`, { embargo_until: '2001-01-01T00:00:00Z' }),
    { fresh: 'dataset' },
  ),
  R(
    'DELETE /datasets/:id/embargo',
    manage('dataset'),
    (w, f) => ({ path: `/datasets/${f.dataset}/embargo` }),
    {
      fresh: 'dataset',
    },
  ),
  R('GET /datasets/:id/keywords', read('dataset'), (w) => `/datasets/${w.dataset}/keywords`),
  R('POST /datasets/:id/keywords', contribute('dataset'), (w) => ({
    path: `/datasets/${w.dataset}/keywords`,
    query: { keyword: 'matrix' },
  })),
  R('DELETE /datasets/:id/keywords', update('dataset'), (w) => ({
    path: `/datasets/${w.dataset}/keywords`,
    query: { keyword: 'matrix' },
  })),
  R('POST /datasets/first_thumbnails', ANY, (w) => body('/datasets/first_thumbnails', [w.dataset])),
  R('GET /datasets/:id/thumbnails', read('dataset'), (w) => `/datasets/${w.dataset}/thumbnails`),
  R('POST /datasets/:id/thumbnails', contribute('dataset'), (w) =>
    body(`/datasets/${w.dataset}/thumbnails`, { thumbnail_b64str: w.image }),
  ),
  R('PATCH /datasets/:id/thumbnails/:tid', update('dataset'), (w) =>
    body(`/datasets/${w.dataset}/thumbnails/${w.thumbnail}`, { thumbnail_name: 'matrix.png' }),
  ),
  R(
    'DELETE /datasets/:id/thumbnails/:tid',
    update('dataset'),
    (w, f) => `/datasets/${w.dataset}/thumbnails/${f.thumbnail}`,
    {
      fresh: 'thumbnail',
    },
  ),

  // --- files, uploads, downloads
  R('GET /files', ANY, () => '/files'),
  R('GET /files/:id', read('dataset'), (w) => `/files/${w.storedFile}`),
  R('PATCH /files/:id', update('dataset'), (w) => body(`/files/${w.remoteFile}`, { access_note: 'matrix' })),
  R('DELETE /files/:id', update('dataset'), (_w, f) => `/files/${f.file}`, { fresh: 'file' }),
  R('GET /files/:id/download_link', read('dataset'), (w) => `/files/${w.storedFile}/download_link`),
  R('GET /files/:id/download', read('dataset'), (w) => `/files/${w.storedFile}/download`),
  // previews (docs/web-app.md, "Previews"): the matrix's file is not an image, so a reader is told so
  R('GET /files/:id/preview', read('dataset'), (w) => `/files/${w.storedFile}/preview`),
  R('GET /files/:id/preview/image', read('dataset'), (w) => `/files/${w.storedFile}/preview/image`, {
    allowed: ['^File [0-9a-z]{26} has no image preview$'],
  }),
  R('GET /thumbnails/:tid/image', read('dataset'), (w) => `/thumbnails/${w.thumbnail}/image`),
  R('GET /datasets/:id/files', read('dataset'), (w) => `/datasets/${w.dataset}/files`),
  R('GET /datasets/:id/export', orAnonymous(read('dataset')), (w) => `/datasets/${w.dataset}/export`),
  R(
    'GET /datasets/:id/export/:format',
    orAnonymous(read('dataset')),
    (w) => `/datasets/${w.dataset}/export/ro-crate`,
  ),
  R('POST /datasets/:id/files', contribute('dataset'), (w) =>
    body(`/datasets/${w.dataset}/files`, { filename: 'matrix.h5', storage_backend: 'tape' }),
  ),
  R('GET /datasets/:id/download_links', read('dataset'), (w) => `/datasets/${w.dataset}/download_links`),
  R('GET /datasets/:id/download', read('dataset'), (w) => `/datasets/${w.dataset}/download`),
  R('POST /datasets/:id/upload/initiate', contribute('dataset'), (w) =>
    body(`/datasets/${w.dataset}/upload/initiate`, {
      filename: 'm.bin',
      size: 3,
      sha256_hash: 'b'.repeat(64),
    }),
  ),
  // answers 501 to everybody: it hands out nothing, whatever the dataset
  R(
    'POST /datasets/:id/upload/initiate/multipart',
    ANY,
    (w) => `/datasets/${w.dataset}/upload/initiate/multipart`,
    {
      allowed: [501],
    },
  ),
  // allowed callers reach the session lookup: "Upload ... not found"
  R(
    'POST /datasets/:id/upload/complete',
    contribute('dataset'),
    (w) =>
      body(`/datasets/${w.dataset}/upload/complete`, { upload_id: newMfid(), sha256_hash: 'b'.repeat(64) }),
    { allowed: ['^Upload [0-9a-z]{26} not found$'] },
  ),

  // --- ingestion and analysis requests
  R('GET /ingestors', ANY, () => '/ingestors'),
  R('POST /files/:id/ingest', contribute('dataset'), (w) => `/files/${w.storedFile}/ingest`),
  R('GET /ingestion_requests', ANY, (w) => ({
    path: '/ingestion_requests',
    query: { file_id: w.storedFile },
  })),
  R('GET /ingestion_requests/:id', read('dataset'), (w) => `/ingestion_requests/${w.ingestionRequest}`),
  // a worker's report: platform admins and service accounts, on requests they may read
  R('PATCH /ingestion_requests/:id', operate('dataset'), (w) =>
    body(`/ingestion_requests/${w.ingestionRequest}`, { ingestion_githash: 'matrix' }),
  ),
  ...['carrier_segmentation', 'insitu_spec_aggregation', 'rga_analysis', 'mosaic_stitch'].map((analysis) =>
    R(`POST /datasets/:id/${analysis}`, contribute('dataset'), (w) => `/datasets/${w.dataset}/${analysis}`),
  ),
  R('GET /analysis_requests/:id', read('dataset'), (w) => `/analysis_requests/${w.analysisRequest}`),

  // --- samples
  R('GET /samples', ANY, () => '/samples'),
  R('GET /samples/facets', ANY, () => ({ path: '/samples/facets', query: { field: 'sample_type' } })),
  R('POST /samples', ANY, () => body('/samples', { sample_name: 'matrix' })),
  R('GET /samples/search', ANY, () => ({ path: '/samples/search', query: { q: 'matrix' } })),
  R('GET /samples/:id', read('sample'), (w) => `/samples/${w.sample}`),
  R('PATCH /samples/:id', update('sample'), (w) => body(`/samples/${w.sample}`, { description: 'matrix' })),

  // --- metadata, links, graphs, generic resources
  R('GET /resources/metadata/search', ANY, () => ({
    path: '/resources/metadata/search',
    query: { q: 'matrix' },
  })),
  R('GET /resources/:id/metadata', read('dataset'), (w) => `/resources/${w.dataset}/metadata`),
  R(
    'GET /resources/:id/metadata/versions',
    read('dataset'),
    (w) => `/resources/${w.dataset}/metadata/versions`,
  ),
  R('POST /resources/:id/metadata/restore', update('dataset'), (w) =>
    body(`/resources/${w.dataset}/metadata/restore`, { version: 1 }),
  ),
  R('PATCH /resources/:id/metadata', contribute('dataset'), (w) =>
    body(`/resources/${w.dataset}/metadata`, { m: 1 }),
  ),
  R('POST /resources/:id/metadata', contribute('dataset'), (w) => ({
    path: `/resources/${w.dataset}/metadata`,
    query: { overwrite: 'true' },
    body: { m: 1 },
  })),
  R('POST /resources/links', contribute('dataset'), (w) =>
    body('/resources/links', { parent_mfid: w.dataset, child_mfid: w.dataset2 }),
  ),
  R('GET /resources/:id/links', read('dataset'), (w) => `/resources/${w.dataset}/links`),
  R(
    'DELETE /resources/:a/links/:b',
    contribute('dataset'),
    (w) => `/resources/${w.dataset2}/links/${w.dataset}`,
    {
      fresh: 'datasetLink',
    },
  ),
  R(
    'POST /datasets/:a/children/:b',
    contribute('dataset'),
    (w) => `/datasets/${w.dataset}/children/${w.dataset2}`,
  ),
  R(
    'DELETE /datasets/:a/children/:b',
    contribute('dataset'),
    (w) => `/datasets/${w.dataset}/children/${w.dataset2}`,
    {
      fresh: 'datasetLink',
    },
  ),
  R(
    'POST /samples/:a/children/:b',
    contribute('sample'),
    (w) => `/samples/${w.sample}/children/${w.sample2}`,
  ),
  R(
    'DELETE /samples/:a/children/:b',
    contribute('sample'),
    (w) => `/samples/${w.sample}/children/${w.sample2}`,
    {
      fresh: 'sampleLink',
    },
  ),
  // contributor on the dataset, and the sample read (the bound account reads the dataset only)
  R(
    'POST /datasets/:a/samples/:b',
    all(contribute('dataset'), read('sample')),
    (w) => `/datasets/${w.dataset}/samples/${w.sample}`,
  ),
  R(
    'DELETE /datasets/:a/samples/:b',
    all(contribute('dataset'), read('sample')),
    (w) => `/datasets/${w.dataset}/samples/${w.sample}`,
    {
      fresh: 'association',
    },
  ),
  R('GET /datasets/:id/children', read('dataset'), (w) => `/datasets/${w.dataset}/children`),
  R('GET /datasets/:id/parents', read('dataset'), (w) => `/datasets/${w.dataset}/parents`),
  R('GET /datasets/:id/samples', read('dataset'), (w) => `/datasets/${w.dataset}/samples`),
  R('GET /samples/:id/children', read('sample'), (w) => `/samples/${w.sample}/children`),
  R('GET /samples/:id/parents', read('sample'), (w) => `/samples/${w.sample}/parents`),
  R('GET /samples/:id/datasets', read('sample'), (w) => `/samples/${w.sample}/datasets`),
  R('GET /entity_graph_cte/:id', read('dataset'), (w) => ({
    path: `/entity_graph_cte/${w.dataset}`,
    query: { recursive: 'True' },
  })),
  R('GET /resources/:id/type', read('dataset'), (w) => `/resources/${w.dataset}/type`),
  R('GET /resources/:id', read('dataset'), (w) => `/resources/${w.dataset}`),

  // --- deletion
  R('POST /resources/:id/delete', manage('dataset'), (_w, f) => `/resources/${f.dataset}/delete`, {
    fresh: 'dataset',
  }),
  R(
    'DELETE /resources/:id',
    PLATFORM_ADMIN,
    (_w, f) => ({ path: `/resources/${f.dataset}`, query: { force: 'True' } }),
    {
      fresh: 'dataset',
    },
  ),
  // anyone lists the requests they may see: their own, every request for platform admins
  R('GET /deletion_requests', ANY, () => '/deletion_requests'),
  R('GET /deletion_requests/:id', PLATFORM_ADMIN, (w) => `/deletion_requests/${w.deletionRequest}`),
  R(
    'PATCH /deletion_requests/:id',
    PLATFORM_ADMIN,
    (_w, f) => ({
      path: `/deletion_requests/${f.deletionRequest}`,
      query: { status: 'rejected' },
    }),
    { fresh: 'deletionRequest' },
  ),
  // its requester (the owner made it) or a platform admin
  R('DELETE /deletion_requests/:id', HOLDER, (_w, f) => `/deletion_requests/${f.deletionRequest}`, {
    fresh: 'deletionRequest',
  }),
  R('GET /deletion_audit', PLATFORM_ADMIN, () => '/deletion_audit'),
  R('GET /deletion_audit/:id', PLATFORM_ADMIN, (w) => `/deletion_audit/${w.auditEntry}`),

  // --- access control and ownership
  R('GET /resources/:id/access', read('dataset'), (w) => `/resources/${w.dataset}/access`),
  R('PUT /resources/:id/access/:kind/:principal', manage('dataset'), (w) =>
    body(`/resources/${w.dataset}/access/users/${w.heir.id}`, { permission: 'viewer' }),
  ),
  R(
    'DELETE /resources/:id/access/:kind/:principal',
    manage('dataset'),
    (w) => `/resources/${w.dataset}/access/users/${w.heir.id}`,
    {
      fresh: 'grant',
    },
  ),
  R('POST /resources/:id/public', manage('dataset'), (_w, f) => `/resources/${f.dataset}/public`, {
    fresh: 'dataset',
  }),
  R('POST /resources/:id/private', manage('dataset'), (_w, f) => `/resources/${f.dataset}/private`, {
    fresh: 'dataset',
  }),
  R(
    'PUT /resources/:id/access/public',
    manage('dataset'),
    (_w, f) => `/resources/${f.dataset}/access/public`,
    {
      fresh: 'dataset',
    },
  ),
  R(
    'DELETE /resources/:id/access/public',
    manage('dataset'),
    (_w, f) => `/resources/${f.dataset}/access/public`,
    { fresh: 'dataset' },
  ),
  R('GET /resources/:id/access_groups', manage('dataset'), (w) => `/resources/${w.dataset}/access_groups`),
  R('POST /resources/:id/access_groups', manage('dataset'), (w) => ({
    path: `/resources/${w.dataset}/access_groups`,
    query: { group_name: w.group, read: 'True', write: 'False' },
  })),
  // previews (no confirm): the same permission as the confirm, nothing changes
  R('POST /resources/:id/transfer_ownership', own('dataset'), (w) =>
    body(`/resources/${w.dataset}/transfer_ownership`, { new_owner: w.heir.id }),
  ),
  R('POST /resources/:id/reassign_project', own('dataset'), (w) =>
    body(`/resources/${w.dataset}/reassign_project`, { project_mfid: w.target }),
  ),
  R('POST /resources/:id/project', own('dataset'), (w) =>
    body(`/resources/${w.dataset}/project`, { project_mfid: w.target }),
  ),

  // === GraphQL queries
  G('Query.me', ANY, '{ me { orcid } }'),
  G('Query.myApiKeys', ANY, '{ myApiKeys { uniqueId } }'),
  G('Query.apiKeys', SELF, 'query($id: ID!) { apiKeys(userId: $id) { uniqueId } }', (w) => ({
    id: w.owner.id,
  })),
  G('Mutation.createApiKey', PERSON, 'mutation { createApiKey(label: "matrix") { secret } }'),
  G(
    'Mutation.revokeApiKey',
    HOLDER,
    'mutation($id: ID!) { revokeApiKey(id: $id) { status } }',
    (_w, f) => ({ id: f.apiKey }),
    { fresh: 'apiKey' },
  ),
  G(
    'Mutation.activateUser',
    PLATFORM_ADMIN,
    'mutation($id: ID!) { activateUser(id: $id) { uniqueId } }',
    (w) => ({
      id: w.heir.id,
    }),
  ),
  G('Query.pendingUsers', PLATFORM_ADMIN, '{ pendingUsers(first: 5) { total items { uniqueId } } }'),
  G(
    'Mutation.disableUser',
    PLATFORM_ADMIN,
    'mutation($id: ID!) { disableUser(id: $id) { uniqueId disabled } }',
    (_w, f) => ({ id: f.user }),
    { fresh: 'user' },
  ),
  G('Mutation.signOutEverywhere', SELF, 'mutation($id: ID) { signOutEverywhere(userId: $id) }', (w) => ({
    id: w.owner.id,
  })),
  G('Query.user', ANY, 'query($id: String!) { user(id: $id) { uniqueId } }', (w) => ({
    id: w.heir.username,
  })),
  G('Query.searchUsers', ANY, 'query($q: String!) { searchUsers(q: $q) { uniqueId } }', (w) => ({
    q: w.heir.username,
  })),
  G('Query.project', read('project'), 'query($id: String!) { project(id: $id) { uniqueId } }', (w) => ({
    id: w.project,
  })),
  G('Query.projects', ANY, '{ projects { totalCount } }'),
  G('Query.searchProjects', ANY, '{ searchProjects(q: "matrix") { uniqueId } }'),
  G('Query.projectGraph', ANY, 'query($p: String!) { projectGraph(project: $p) { nodes { id } } }', (w) => ({
    p: w.project,
  })),
  G(
    'Query.joinRequests',
    manage('project'),
    'query($p: String) { joinRequests(project: $p) { totalCount } }',
    (w) => ({
      p: w.projectSlug,
    }),
  ),
  G('Query.myJoinRequests', ANY, '{ myJoinRequests { totalCount } }'),
  G(
    'Query.instrument',
    read('instrument'),
    'query($id: String!) { instrument(id: $id) { uniqueId } }',
    (w) => ({
      id: w.instrument,
    }),
  ),
  G('Query.instruments', ANY, '{ instruments { totalCount } }'),
  G('Query.searchInstruments', ANY, '{ searchInstruments(q: "matrix") { uniqueId } }'),
  G('Query.dataset', read('dataset'), 'query($id: ID!) { dataset(id: $id) { uniqueId } }', (w) => ({
    id: w.dataset,
  })),
  G('Query.datasets', ANY, '{ datasets { totalCount } }'),
  G('Query.datasetFacets', ANY, '{ datasetFacets { total } }'),
  G('Query.searchDatasets', ANY, '{ searchDatasets(q: "matrix") { uniqueId } }'),
  G('Query.sample', read('sample'), 'query($id: ID!) { sample(id: $id) { uniqueId } }', (w) => ({
    id: w.sample,
  })),
  G('Query.samples', ANY, '{ samples { totalCount } }'),
  G('Query.searchSamples', ANY, '{ searchSamples(q: "matrix") { uniqueId } }'),
  G('Query.sampleFacets', ANY, '{ sampleFacets(field: sample_type) { value count } }'),
  G('Query.resource', read('dataset'), 'query($id: ID!) { resource(id: $id) { __typename } }', (w) => ({
    id: w.dataset,
  })),
  // an unreadable record is null, like a missing one (node.test.ts): never refused
  G('Query.node', ANY, 'query($id: ID!) { node(id: $id) { nodeId } }', (w) => ({
    id: Buffer.from(`Dataset:${w.dataset}`).toString('base64url'),
  })),
  G('Query.nodes', ANY, 'query($ids: [ID!]!) { nodes(ids: $ids) { nodeId } }', (w) => ({
    ids: [Buffer.from(`Dataset:${w.dataset}`).toString('base64url')],
  })),
  G('Query.resourceType', read('dataset'), 'query($id: ID!) { resourceType(id: $id) }', (w) => ({
    id: w.dataset,
  })),
  G('Query.scientificMetadata', read('dataset'), 'query($id: ID!) { scientificMetadata(id: $id) }', (w) => ({
    id: w.dataset,
  })),
  G(
    'Query.metadataVersions',
    read('dataset'),
    'query($id: ID!) { metadataVersions(id: $id) { items { version } } }',
    (w) => ({ id: w.dataset }),
  ),
  G('Query.searchMetadata', ANY, '{ searchMetadata(q: "matrix") { uniqueId } }'),
  G('Query.links', read('dataset'), 'query($id: ID!) { links(id: $id) { uniqueId } }', (w) => ({
    id: w.dataset,
  })),
  G(
    'Query.entityGraph',
    read('dataset'),
    'query($id: ID!) { entityGraph(id: $id) { nodes { id } } }',
    (w) => ({
      id: w.dataset,
    }),
  ),
  G('Query.file', read('dataset'), 'query($id: ID!) { file(id: $id) { uniqueId } }', (w) => ({
    id: w.storedFile,
  })),
  G('Query.files', ANY, '{ files { totalCount } }'),
  G('Query.filePreview', read('dataset'), 'query($id: ID!) { filePreview(file: $id) { kind } }', (w) => ({
    id: w.storedFile,
  })),
  G('Query.ingestors', ANY, '{ ingestors }'),
  G(
    'Query.ingestionRequest',
    read('dataset'),
    'query($id: Int!) { ingestionRequest(id: $id) { id } }',
    (w) => ({
      id: w.ingestionRequest,
    }),
  ),
  G('Query.ingestionRequests', ANY, '{ ingestionRequests { totalCount } }'),
  G(
    'Query.firstThumbnails',
    ANY,
    'query($ids: [ID!]!) { firstThumbnails(datasetIds: $ids) { id } }',
    (w) => ({
      ids: [w.dataset],
    }),
  ),
  G(
    'Query.resourceAccess',
    read('dataset'),
    'query($id: ID!) { resourceAccess(id: $id) { effectiveAccess } }',
    (w) => ({
      id: w.dataset,
    }),
  ),
  G('Query.deletionRequests', ANY, '{ deletionRequests { totalCount } }'),
  G('Query.deletionRequest', PLATFORM_ADMIN, 'query($id: Int!) { deletionRequest(id: $id) { id } }', (w) => ({
    id: w.deletionRequest,
  })),
  G('Query.deletionAudit', PLATFORM_ADMIN, '{ deletionAudit { totalCount } }'),
  G(
    'Query.deletionAuditEntry',
    PLATFORM_ADMIN,
    'query($id: Int!) { deletionAuditEntry(id: $id) { id } }',
    (w) => ({
      id: w.auditEntry,
    }),
  ),

  // === GraphQL mutations
  G(
    'Mutation.updateMyProfile',
    ANY,
    'mutation { updateMyProfile(input: { firstName: "Test" }) { uniqueId } }',
  ),
  G(
    'Mutation.createServiceAccount',
    PLATFORM_ADMIN,
    'mutation($u: String!) { createServiceAccount(username: $u) { apiKey } }',
    () => ({
      u: unique('svc'),
    }),
  ),
  G(
    'Mutation.rotateServiceAccountKey',
    PLATFORM_ADMIN,
    'mutation($id: String!) { rotateServiceAccountKey(id: $id) { apiKey } }',
    (w) => ({
      id: w.serviceAccount,
    }),
  ),
  G(
    'Mutation.createProject',
    PLATFORM_ADMIN,
    'mutation($p: String!) { createProject(input: { projectId: $p }) { uniqueId } }',
    () => ({
      p: unique('mx'),
    }),
  ),
  G(
    'Mutation.updateProject',
    update('project'),
    'mutation($id: String!) { updateProject(id: $id, input: { status: "active" }) { uniqueId } }',
    (w) => ({
      id: w.project,
    }),
  ),
  G(
    'Mutation.setProjectMember',
    manage('project'),
    'mutation($p: String!, $u: String!) { setProjectMember(project: $p, member: { user: $u }) { role } }',
    (w) => ({
      p: w.project,
      u: w.heir.id,
    }),
  ),
  G(
    'Mutation.removeProjectMember',
    manage('project'),
    'mutation($p: String!, $u: String!) { removeProjectMember(project: $p, user: $u) { role } }',
    (w) => ({
      p: w.project,
      u: w.heir.id,
    }),
    { fresh: 'member' },
  ),
  G(
    'Mutation.requestToJoinProject',
    ANY,
    'mutation($p: String!) { requestToJoinProject(project: $p) { id } }',
    (w) => ({
      p: w.projectSlug,
    }),
    { allowed: ['CONFLICT'] },
  ),
  G(
    'Mutation.reviewJoinRequest',
    manage('project'),
    'mutation($id: Int!) { reviewJoinRequest(id: $id, approve: false) { id } }',
    (_w, f) => ({
      id: f.joinRequest,
    }),
    { fresh: 'joinRequest' },
  ),
  G(
    'Mutation.createInstrument',
    PLATFORM_ADMIN,
    'mutation($n: String!) { createInstrument(input: { instrumentName: $n }) { uniqueId } }',
    () => ({
      n: unique('Matrix'),
    }),
  ),
  G(
    'Mutation.bindInstrumentServiceAccount',
    manage('instrument'),
    'mutation($id: String!, $sa: String!) { bindInstrumentServiceAccount(id: $id, serviceAccount: $sa) { role } }',
    (w) => ({ id: w.instrument, sa: w.serviceAccount }),
  ),
  G(
    'Mutation.unbindInstrumentServiceAccount',
    manage('instrument'),
    'mutation($id: String!, $sa: String!) { unbindInstrumentServiceAccount(id: $id, serviceAccount: $sa) { role } }',
    (w) => ({ id: w.instrument, sa: w.serviceAccount }),
    { fresh: 'operator' },
  ),
  G(
    'Mutation.setInstrumentStatus',
    update('instrument'),
    'mutation($id: String!) { setInstrumentStatus(id: $id, status: active) { uniqueId } }',
    (w) => ({
      id: w.instrument,
    }),
  ),
  G(
    'Mutation.updateInstrument',
    update('instrument'),
    'mutation($id: String!) { updateInstrument(id: $id, input: { location: "B1" }) { uniqueId } }',
    (w) => ({
      id: w.instrument,
    }),
  ),
  G(
    'Mutation.createDataset',
    ANY,
    'mutation { createDataset(input: { datasetName: "matrix" }) { uniqueId } }',
  ),
  G(
    'Mutation.setDatasetInstrument',
    manage('dataset'),
    'mutation($id: ID!, $i: ID!) { setDatasetInstrument(id: $id, instrumentMfid: $i) { uniqueId } }',
    (w, f) => ({ id: f.dataset, i: w.instrument }),
    { fresh: 'dataset' },
  ),
  G(
    'Mutation.setDatasetEmbargo',
    manage('dataset'),
    'mutation($id: ID!) { setDatasetEmbargo(id: $id, until: "2001-01-01") { embargoed } }',
    (_w, f) => ({ id: f.dataset }),
    { fresh: 'dataset' },
  ),
  G(
    'Mutation.updateDataset',
    update('dataset'),
    'mutation($id: ID!) { updateDataset(id: $id, input: { sessionName: "matrix" }) { uniqueId } }',
    (w) => ({
      id: w.dataset,
    }),
  ),
  G(
    'Mutation.addDatasetKeyword',
    contribute('dataset'),
    'mutation($id: ID!) { addDatasetKeyword(id: $id, keyword: "matrix") { keyword } }',
    (w) => ({
      id: w.dataset,
    }),
  ),
  G('Mutation.createSample', ANY, 'mutation { createSample(input: { sampleName: "matrix" }) { uniqueId } }'),
  G(
    'Mutation.updateSample',
    update('sample'),
    'mutation($id: ID!) { updateSample(id: $id, input: { description: "matrix" }) { uniqueId } }',
    (w) => ({
      id: w.sample,
    }),
  ),
  G(
    'Mutation.mergeScientificMetadata',
    contribute('dataset'),
    'mutation($id: ID!) { mergeScientificMetadata(id: $id, metadata: { m: 1 }) }',
    (w) => ({
      id: w.dataset,
    }),
  ),
  G(
    'Mutation.replaceScientificMetadata',
    contribute('dataset'),
    'mutation($id: ID!) { replaceScientificMetadata(id: $id, metadata: { m: 1 }) }',
    (w) => ({
      id: w.dataset,
    }),
  ),
  G(
    'Mutation.linkResources',
    contribute('dataset'),
    'mutation($p: ID!, $c: ID!) { linkResources(input: { parentId: $p, childId: $c }) { kind } }',
    (w) => ({
      p: w.dataset,
      c: w.dataset2,
    }),
  ),
  G(
    'Mutation.unlinkResources',
    contribute('dataset'),
    'mutation($a: ID!, $b: ID!) { unlinkResources(a: $a, b: $b) { kind } }',
    (w) => ({
      a: w.dataset,
      b: w.dataset2,
    }),
    { fresh: 'datasetLink' },
  ),
  G(
    'Mutation.requestIngestion',
    contribute('dataset'),
    'mutation($f: ID!) { requestIngestion(fileId: $f) { id } }',
    (w) => ({ f: w.storedFile }),
  ),
  G(
    'Mutation.addRemoteFile',
    contribute('dataset'),
    'mutation($d: ID!) { addRemoteFile(dataset: $d, input: { filename: "m.h5", storageBackend: "tape" }) { uniqueId } }',
    (w) => ({
      d: w.dataset,
    }),
  ),
  G(
    'Mutation.addDatasetFile',
    contribute('dataset'),
    'mutation($d: ID!, $f: Upload!) { addDatasetFile(dataset: $d, file: $f) { created } }',
    (w) => ({
      d: w.dataset,
    }),
    { upload: true },
  ),
  G(
    'Mutation.updateFile',
    update('dataset'),
    'mutation($id: ID!) { updateFile(id: $id, input: { accessNote: "matrix" }) { uniqueId } }',
    (w) => ({
      id: w.remoteFile,
    }),
  ),
  G(
    'Mutation.deleteFile',
    update('dataset'),
    'mutation($id: ID!) { deleteFile(id: $id) }',
    (_w, f) => ({ id: f.file }),
    {
      fresh: 'file',
    },
  ),
  G(
    'Mutation.addDatasetThumbnail',
    contribute('dataset'),
    'mutation($d: ID!, $i: String!) { addDatasetThumbnail(dataset: $d, image: $i) { id } }',
    (w) => ({
      d: w.dataset,
      i: w.image,
    }),
  ),
  G(
    'Mutation.updateThumbnail',
    update('dataset'),
    'mutation($id: Int!) { updateThumbnail(id: $id, name: "matrix.png") { id } }',
    (w) => ({
      id: w.thumbnail,
    }),
  ),
  G(
    'Mutation.deleteThumbnail',
    update('dataset'),
    'mutation($id: Int!) { deleteThumbnail(id: $id) }',
    (_w, f) => ({
      id: f.thumbnail,
    }),
    { fresh: 'thumbnail' },
  ),
  G(
    'Mutation.requestDeletion',
    manage('dataset'),
    'mutation($id: ID!) { requestDeletion(id: $id) { id } }',
    (_w, f) => ({
      id: f.dataset,
    }),
    { fresh: 'dataset' },
  ),
  G(
    'Mutation.withdrawDeletionRequest',
    HOLDER,
    'mutation($id: Int!) { withdrawDeletionRequest(id: $id) }',
    (_w, f) => ({ id: f.deletionRequest }),
    { fresh: 'deletionRequest' },
  ),
  G(
    'Mutation.removeDatasetKeyword',
    update('dataset'),
    'mutation($id: ID!) { removeDatasetKeyword(id: $id, keyword: "matrix") }',
    (w) => ({ id: w.dataset }),
  ),
  G(
    'Mutation.restoreMetadataVersion',
    update('dataset'),
    'mutation($id: ID!) { restoreMetadataVersion(id: $id, version: 1) { version } }',
    (w) => ({ id: w.dataset }),
  ),
  G(
    'Mutation.reviewDeletionRequest',
    PLATFORM_ADMIN,
    'mutation($id: Int!) { reviewDeletionRequest(id: $id, approve: false) { id } }',
    (_w, f) => ({
      id: f.deletionRequest,
    }),
    { fresh: 'deletionRequest' },
  ),
  G(
    'Mutation.deleteResource',
    PLATFORM_ADMIN,
    'mutation($id: ID!) { deleteResource(id: $id, force: true) }',
    (_w, f) => ({
      id: f.dataset,
    }),
    { fresh: 'dataset' },
  ),
  G(
    'Mutation.setAccess',
    manage('dataset'),
    'mutation($id: ID!, $u: String!) { setAccess(id: $id, kind: users, principal: $u, permission: viewer) { permission } }',
    (w) => ({
      id: w.dataset,
      u: w.heir.id,
    }),
  ),
  G(
    'Mutation.revokeAccess',
    manage('dataset'),
    'mutation($id: ID!, $u: String!) { revokeAccess(id: $id, kind: users, principal: $u) }',
    (w) => ({
      id: w.dataset,
      u: w.heir.id,
    }),
    { fresh: 'grant' },
  ),
  G(
    'Mutation.setPublic',
    manage('dataset'),
    'mutation($id: ID!) { setPublic(id: $id, public: true) { __typename } }',
    (_w, f) => ({
      id: f.dataset,
    }),
    { fresh: 'dataset' },
  ),
  G(
    'Mutation.transferOwnership',
    own('dataset'),
    'mutation($id: ID!, $u: String!) { transferOwnership(id: $id, newOwner: $u) { applied } }',
    (w) => ({
      id: w.dataset,
      u: w.heir.id,
    }),
  ),
  G(
    'Mutation.reassignProject',
    own('dataset'),
    'mutation($id: ID!, $p: String!) { reassignProject(id: $id, projectMfid: $p) { applied } }',
    (w) => ({
      id: w.dataset,
      p: w.target,
    }),
  ),

  // --- batch edits (docs/web-app.md, "Edit many at once"): a preview needs the operation's
  // level on every target; a batch is its actor's alone
  R('POST /dataset_batches', contribute('dataset'), (w) =>
    body('/dataset_batches', {
      dataset_ids: [w.dataset],
      operation: { kind: 'add_keyword', keyword: 'matrix' },
    }),
  ),
  R('GET /dataset_batches', ANY, () => '/dataset_batches'),
  R('GET /dataset_batches/:id', HOLDER, (w) => `/dataset_batches/${w.batch}`),
  R('GET /dataset_batches/:id/items', HOLDER, (w) => `/dataset_batches/${w.batch}/items`),
  R(
    'POST /dataset_batches/:id/apply',
    HOLDER,
    (_w, f) => body(`/dataset_batches/${f.batch?.id ?? 'none'}/apply`, { token: f.batch?.token }),
    { fresh: 'batch' },
  ),
  R('POST /dataset_batches/:id/undo', HOLDER, (_w, f) => `/dataset_batches/${f.batch?.id ?? 'none'}/undo`, {
    fresh: 'appliedBatch',
  }),
  G(
    'Mutation.previewDatasetBatch',
    contribute('dataset'),
    'mutation($ids: [ID!]) { previewDatasetBatch(targets: {datasetIds: $ids}, operation: {kind: add_keyword, keyword: "matrix"}) { id } }',
    (w) => ({ ids: [w.dataset] }),
  ),
  G('Query.datasetBatches', ANY, '{ datasetBatches { id } }'),
  G('Query.datasetBatch', HOLDER, 'query($id: ID!) { datasetBatch(id: $id) { id } }', (w) => ({
    id: w.batch,
  })),
  G(
    'Mutation.applyDatasetBatch',
    HOLDER,
    'mutation($id: ID!, $t: String!) { applyDatasetBatch(id: $id, token: $t) { id } }',
    (_w, f) => ({ id: f.batch?.id, t: f.batch?.token }),
    { fresh: 'batch' },
  ),
  G(
    'Mutation.undoDatasetBatch',
    HOLDER,
    'mutation($id: ID!) { undoDatasetBatch(id: $id) { id } }',
    (_w, f) => ({ id: f.batch?.id }),
    { fresh: 'appliedBatch' },
  ),

  // --- events: history, its purge, webhooks (docs/events.md)
  R('GET /resources/:id/history', manage('dataset'), (w) => `/resources/${w.dataset}/history`),
  R('DELETE /events', PLATFORM_ADMIN, () => ({ path: '/events', query: { before: '2000-01-01T00:00:00Z' } })),
  R('POST /webhooks', ANY, () => body('/webhooks', MATRIX_WEBHOOK)),
  R('GET /webhooks', ANY, () => '/webhooks'),
  R('GET /webhooks/:id', HOLDER, (w) => `/webhooks/${w.webhook}`),
  R('PATCH /webhooks/:id', HOLDER, (w) => body(`/webhooks/${w.webhook}`, { description: 'matrix' })),
  R('DELETE /webhooks/:id', HOLDER, (_w, f) => `/webhooks/${f.webhook}`, { fresh: 'webhook' }),
  R('GET /webhooks/:id/deliveries', HOLDER, (w) => `/webhooks/${w.webhook}/deliveries`),
  R(
    'POST /webhooks/:id/deliveries/:did/redeliver',
    HOLDER,
    (w) => `/webhooks/${w.webhook}/deliveries/${w.webhookDelivery}/redeliver`,
  ),
  G(
    'Query.resourceHistory',
    manage('dataset'),
    'query($id: ID!) { resourceHistory(id: $id) { totalCount } }',
    (w) => ({ id: w.dataset }),
  ),
  G('Query.webhooks', ANY, '{ webhooks { uniqueId } }'),
  G('Query.webhookDeliveries', HOLDER, 'query($id: ID!) { webhookDeliveries(id: $id) { id } }', (w) => ({
    id: w.webhook,
  })),
  G(
    'Mutation.createWebhook',
    ANY,
    'mutation($i: CreateWebhookInput!) { createWebhook(input: $i) { secret } }',
    () => ({ i: { url: MATRIX_WEBHOOK.url, eventTypes: MATRIX_WEBHOOK.event_types } }),
  ),
  G(
    'Mutation.updateWebhook',
    HOLDER,
    'mutation($id: ID!) { updateWebhook(id: $id, input: { description: "matrix" }) { uniqueId } }',
    (w) => ({ id: w.webhook }),
  ),
  G(
    'Mutation.deleteWebhook',
    HOLDER,
    'mutation($id: ID!) { deleteWebhook(id: $id) }',
    (_w, f) => ({ id: f.webhook }),
    { fresh: 'webhook' },
  ),
  // --- publications (docs/publications.md)
  R('POST /publications', manage('dataset'), (w) =>
    body('/publications', { dataset_ids: [w.dataset2], ...MATRIX_PUBLICATION }),
  ),
  // the landing pages (outside /api: their `/publications/:id` and `…/export/:format` share the API rows' names)
  R('GET /publications/:id/linkset', OPEN, (w) => `/publications/${w.publication}/linkset`, { root: true }),
  R('GET /landing/copy-citation.js', OPEN, () => '/landing/copy-citation.js', { root: true }),
  R('GET /landing/landing.css', OPEN, () => '/landing/landing.css', { root: true }),
  // harvesting (docs/publications.md, "Harvesting"): open XML doors outside /api
  R('GET /oai', OPEN, () => ({ path: '/oai', query: { verb: 'Identify' } }), { root: true }),
  // the matrix sends JSON bodies: a POST that is not a form is refused alike for everyone (415);
  // the form itself is test/integration/oai-pmh.test.ts's
  R('POST /oai', OPEN, () => ({ path: '/oai', body: {} }), { root: true, allowed: [415] }),
  R('GET /sitemap.xml', OPEN, () => '/sitemap.xml', { root: true }),
  R('GET /sitemaps/:file', OPEN, () => '/sitemaps/1.xml', { root: true }),
  R('GET /publications', orAnonymous(ANY), () => '/publications'),
  R('GET /publications/:id', orAnonymous(PUBLISHER_DRAFT), (w) => `/publications/${w.draft}`),
  R(
    'GET /publications/:id/export/:format',
    orAnonymous(ANY),
    (w) => `/publications/${w.publication}/export/bibtex`,
  ),
  R('PATCH /publications/:id', PUBLISHER_DRAFT, (w) => body(`/publications/${w.draft}`, { title: 'matrix' })),
  R('POST /publications/:id/publish', PUBLISHER_DRAFT, (_w, f) => `/publications/${f.draft}/publish`, {
    fresh: 'draft',
  }),
  R('POST /publications/:id/versions', PUBLISHER, (_w, f) => `/publications/${f.publication}/versions`, {
    fresh: 'publication',
  }),
  R(
    'POST /publications/:id/withdraw',
    PUBLISHER,
    (_w, f) => body(`/publications/${f.publication}/withdraw`, { reason: 'matrix' }),
    { fresh: 'publication' },
  ),
  G('Query.publication', PUBLISHER_DRAFT, 'query($id: ID!) { publication(id: $id) { id } }', (w) => ({
    id: w.draft,
  })),
  G('Query.publications', ANY, '{ publications { total } }'),
  G(
    'Mutation.createPublication',
    manage('dataset'),
    'mutation($d: [ID!]!, $i: PublicationMetadataInput!) { createPublication(datasetIds: $d, input: $i) { id } }',
    (w) => ({ d: [w.dataset2], i: MATRIX_PUBLICATION }),
  ),
  G(
    'Mutation.updatePublication',
    PUBLISHER_DRAFT,
    'mutation($id: ID!) { updatePublication(id: $id, input: { title: "matrix" }) { id } }',
    (w) => ({ id: w.draft }),
  ),
  G(
    'Mutation.publishPublication',
    PUBLISHER_DRAFT,
    'mutation($id: ID!) { publishPublication(id: $id) { id } }',
    (_w, f) => ({ id: f.draft }),
    { fresh: 'draft' },
  ),
  G(
    'Mutation.newPublicationVersion',
    PUBLISHER,
    'mutation($id: ID!) { newPublicationVersion(id: $id) { id } }',
    (_w, f) => ({ id: f.publication }),
    { fresh: 'publication' },
  ),
  G(
    'Mutation.withdrawPublication',
    PUBLISHER,
    'mutation($id: ID!) { withdrawPublication(id: $id, reason: "matrix") { id } }',
    (_w, f) => ({ id: f.publication }),
    { fresh: 'publication' },
  ),
  G(
    'Mutation.redeliverWebhook',
    HOLDER,
    'mutation($id: ID!, $d: ID!) { redeliverWebhook(id: $id, delivery: $d) { id } }',
    (w) => ({ id: w.webhook, d: String(w.webhookDelivery) }),
  ),
];
