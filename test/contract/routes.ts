import { rest } from '../support/http';
import type { Reply } from '../support/http';
import { formUpload } from '../support/files';
import type { World } from './world';
import { PIXEL_PNG } from './world';
import {
  anything,
  DATASET,
  DELETION_AUDIT,
  DELETION_REQUEST,
  envK,
  envO,
  FILE,
  GRAPH,
  INSTRUMENT,
  KEY_STATUS,
  KEYWORD,
  LINK,
  list,
  listOrItems,
  MESSAGE,
  METADATA,
  nullOr,
  obj,
  PROJECT,
  PUBLIC_USER,
  SAMPLE,
  SEARCH_HIT,
  THUMBNAIL,
  USER,
  type Check,
  ANALYSIS_REQUEST,
  INGESTION_REQUEST,
  JOIN_REQUEST,
  MEMBER,
} from './shapes';

/**
 * The legacy REST contract, one row per method + path pair the Python client (nano-crucible
 * 3.1) sends (reference §5.16), with the call the client makes, the status it gets and the shape
 * it parses. This table is also the compatibility documentation: `ref` is the row of the
 * reference's endpoint tables.
 */
export interface ContractRow {
  /** method and path exactly as reference §5.16 spells them */
  route: string;
  ref: string;
  call: (w: World) => Promise<Reply>;
  status: number | number[];
  check: Check;
  note?: string;
}

const q = (limit = 1000) => ({ limit });

export const CONTRACT: ContractRow[] = [
  // health / generic / account
  {
    route: 'GET /health/live',
    ref: '#1',
    status: 200,
    check: obj({ status: 'string' }),
    call: (w) => w.as('GET', '/health/live', { key: null }),
  },
  {
    route: 'GET /health/ready',
    ref: '#2',
    status: 200,
    check: obj({ status: 'string', db: 'string', db_ms: 'number', version: 'string' }),
    call: (w) => w.as('GET', '/health/ready', { key: null }),
  },
  {
    route: 'GET /resources/{id}',
    ref: '#3',
    status: 200,
    check: obj({
      resource_type: 'string',
      unique_id: 'string',
      project_id: 'string?',
      links: 'array',
      scientific_metadata: 'object',
    }),
    call: (w) =>
      w.as('GET', `/resources/${w.dataset}`, {
        query: { include_links: 'True', include_metadata: 'True', include_owner: 'True' },
      }),
  },
  {
    route: 'GET /resources/{id}/links',
    ref: '#4',
    status: 200,
    check: list(LINK, { nonEmpty: true }),
    call: (w) => w.as('GET', `/resources/${w.dataset}/links`),
  },
  {
    route: 'GET /account',
    ref: '#5',
    status: 200,
    check: obj({ user_unique_id: 'string', access_group_ids: 'array', user_info: 'object' }),
    call: (w) => w.as('GET', '/account'),
  },
  {
    route: 'GET /account/profile',
    ref: '#6',
    status: 200,
    check: USER,
    call: (w) => w.as('GET', '/account/profile'),
  },
  {
    route: 'PATCH /account/profile',
    ref: '#7',
    status: 200,
    check: USER,
    call: (w) => w.as('PATCH', '/account/profile', { body: { first_name: 'Contract', last_name: 'Tester' } }),
  },
  {
    route: 'GET /account/apikey',
    ref: '#8',
    status: 200,
    check: obj({ api_key: 'string' }),
    call: (w) => w.as('GET', '/account/apikey'),
  },
  {
    route: 'GET /account/verify',
    ref: '#9',
    status: 200,
    check: KEY_STATUS,
    call: (w) => w.as('GET', '/account/verify'),
  },

  // datasets
  {
    route: 'GET /datasets',
    ref: '#11/#12',
    status: 200,
    check: envK(DATASET),
    call: (w) => w.as('GET', '/datasets', { query: { project_id: w.projectId, ...q() } }),
  },
  {
    route: 'POST /datasets',
    ref: '#13',
    status: [200, 201],
    check: DATASET,
    call: (w) =>
      w.as('POST', '/datasets', {
        body: { dataset_name: 'contract', project_id: w.projectId, measurement: 'test', public: false },
      }),
  },
  {
    route: 'GET /datasets/search',
    ref: '#16',
    status: 200,
    check: listOrItems(DATASET),
    call: (w) => w.as('GET', '/datasets/search', { query: { q: w.tag, limit: 20, project_id: w.projectId } }),
  },
  {
    route: 'GET /datasets/{id}',
    ref: '#14',
    status: 200,
    check: DATASET,
    call: (w) =>
      w.as('GET', `/datasets/${w.dataset}`, {
        query: { include_metadata: 'True', include_links: 'True', include_owner: 'True' },
      }),
  },
  {
    route: 'PATCH /datasets/{id}',
    ref: '#15',
    status: 200,
    check: DATASET,
    call: (w) => w.as('PATCH', `/datasets/${w.dataset}`, { body: { session_name: 's1' } }),
  },
  {
    route: 'GET /datasets/{id}/files',
    ref: '#17',
    status: 200,
    check: list(FILE, { nonEmpty: true }),
    call: (w) => w.as('GET', `/datasets/${w.dataset}/files`),
  },
  {
    route: 'GET /datasets/{id}/download_links',
    ref: '#18',
    status: 200,
    check: (v) => {
      const problems = obj({})(v);
      return problems.length
        ? problems
        : Object.values(v as object).every((u) => typeof u === 'string')
          ? []
          : ['values are not URLs'];
    },
    call: (w) => w.as('GET', `/datasets/${w.dataset}/download_links`),
  },
  {
    route: 'GET /datasets/{id}/keywords',
    ref: '#19',
    status: 200,
    check: list(KEYWORD, { nonEmpty: true }),
    call: (w) => w.as('GET', `/datasets/${w.dataset}/keywords`),
  },
  {
    route: 'POST /datasets/{id}/keywords',
    ref: '#20',
    status: [200, 201],
    check: KEYWORD,
    call: (w) => w.as('POST', `/datasets/${w.dataset}/keywords`, { query: { keyword: 'pytest-keyword' } }),
  },
  {
    route: 'GET /datasets/{id}/samples',
    ref: '#44',
    status: 200,
    check: envO(SAMPLE),
    call: (w) => w.as('GET', `/datasets/${w.dataset}/samples`, { query: q() }),
  },

  // dataset links
  {
    route: 'POST /datasets/{id}/samples/{sid}',
    ref: '#42',
    status: [200, 201],
    check: anything,
    call: async (w) => w.as('POST', `/datasets/${w.dataset}/samples/${await w.newSample()}`),
  },
  {
    route: 'DELETE /datasets/{id}/samples/{sid}',
    ref: '#43',
    status: 200,
    check: anything,
    call: async (w) => {
      const s = await w.newSample();
      await w.as('POST', `/datasets/${w.dataset}/samples/${s}`);
      return w.as('DELETE', `/datasets/${w.dataset}/samples/${s}`);
    },
  },
  {
    route: 'POST /datasets/{p}/children/{c}',
    ref: '#45',
    status: [200, 201],
    check: anything,
    call: async (w) => w.as('POST', `/datasets/${w.parent}/children/${await w.newDataset()}`),
  },
  {
    route: 'DELETE /datasets/{p}/children/{c}',
    ref: '#45b',
    status: 200,
    check: anything,
    call: async (w) => {
      const c = await w.newDataset();
      await w.as('POST', `/datasets/${w.parent}/children/${c}`);
      return w.as('DELETE', `/datasets/${w.parent}/children/${c}`);
    },
  },
  {
    route: 'GET /datasets/{id}/children',
    ref: '#45c',
    status: 200,
    check: envO(obj({ unique_id: 'string' })),
    call: (w) => w.as('GET', `/datasets/${w.parent}/children`, { query: q() }),
  },
  {
    route: 'GET /datasets/{id}/parents',
    ref: '#45d',
    status: 200,
    check: envO(obj({ unique_id: 'string' })),
    call: (w) => w.as('GET', `/datasets/${w.child}/parents`, { query: q() }),
  },

  // thumbnails
  {
    route: 'GET /datasets/{id}/thumbnails',
    ref: '#25',
    status: 200,
    check: list(THUMBNAIL, { nonEmpty: true }),
    call: (w) => w.as('GET', `/datasets/${w.dataset}/thumbnails`),
  },
  {
    route: 'POST /datasets/{id}/thumbnails',
    ref: '#26',
    status: [200, 201],
    check: THUMBNAIL,
    call: (w) =>
      w.as('POST', `/datasets/${w.dataset}/thumbnails`, {
        body: { thumbnail_name: `${w.dataset}_thumbnail`, thumbnail_b64str: PIXEL_PNG },
      }),
  },
  {
    route: 'DELETE /datasets/{id}/thumbnails/{tid}',
    ref: '#27',
    status: [200, 204],
    check: anything,
    call: async (w) => {
      const t = await w.as('POST', `/datasets/${w.dataset}/thumbnails`, {
        body: { thumbnail_name: 'x.png', thumbnail_b64str: PIXEL_PNG },
      });
      return w.as('DELETE', `/datasets/${w.dataset}/thumbnails/${t.body.id}`);
    },
  },

  // uploads
  {
    route: 'POST /datasets/{id}/upload/initiate',
    ref: '#28',
    status: [200, 201],
    check: obj({
      upload_id: 'string',
      resumable_uri: 'string',
      chunk_size_hint: 'integer?',
      existing_file: 'object?',
    }),
    call: (w) =>
      w.as('POST', `/datasets/${w.dataset}/upload/initiate`, {
        body: { filename: 'new.bin', size: 4, sha256_hash: 'a'.repeat(64) },
      }),
  },
  {
    route: 'POST /datasets/{id}/upload/initiate/multipart',
    ref: '#29',
    status: 501,
    check: MESSAGE,
    note: 'the GCS XML multipart path: 501, use the resumable path',
    call: (w) =>
      w.as('POST', `/datasets/${w.dataset}/upload/initiate/multipart`, {
        body: { filename: 'new.bin', size: 4, sha256_hash: 'a'.repeat(64) },
      }),
  },
  {
    route: 'POST /datasets/{id}/upload/complete',
    ref: '#30',
    status: [200, 201],
    check: FILE,
    call: async (w) => {
      const empty = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
      const init = await w.as('POST', `/datasets/${w.dataset}/upload/initiate`, {
        body: { filename: 'empty.dat', size: 0, sha256_hash: empty },
      });
      return w.as('POST', `/datasets/${w.dataset}/upload/complete`, {
        body: { upload_id: init.body.upload_id, sha256_hash: empty },
      });
    },
  },

  // samples
  {
    route: 'GET /samples',
    ref: '#32/#33',
    status: 200,
    check: envK(SAMPLE),
    call: (w) => w.as('GET', '/samples', { query: { project_id: w.projectId, ...q() } }),
  },
  {
    route: 'POST /samples',
    ref: '#34',
    status: [200, 201],
    check: SAMPLE,
    call: (w) =>
      w.as('POST', '/samples', {
        body: { sample_name: 'contract', project_id: w.projectId, sample_type: 'test', public: false },
      }),
  },
  {
    route: 'GET /samples/search',
    ref: '#36',
    status: 200,
    check: listOrItems(SAMPLE),
    call: (w) => w.as('GET', '/samples/search', { query: { q: w.tag, limit: 20 } }),
  },
  {
    route: 'GET /samples/{id}',
    ref: '#35',
    status: 200,
    check: SAMPLE,
    call: (w) =>
      w.as('GET', `/samples/${w.sample}`, {
        query: { include_metadata: 'True', include_links: 'True', include_owner: 'True' },
      }),
  },
  {
    route: 'PATCH /samples/{id}',
    ref: '#31',
    status: 200,
    check: SAMPLE,
    call: (w) => w.as('PATCH', `/samples/${w.sample}`, { body: { description: 'updated' } }),
  },
  {
    route: 'GET /samples/{id}/datasets',
    ref: '#41',
    status: 200,
    check: list(DATASET, { nonEmpty: true }),
    call: (w) => w.as('GET', `/samples/${w.sample}/datasets`, { query: { limit: 100 } }),
  },
  {
    route: 'GET /samples/{id}/children',
    ref: '#37',
    status: 200,
    check: envO(obj({ unique_id: 'string' })),
    call: (w) => w.as('GET', `/samples/${w.sampleParent}/children`, { query: q() }),
  },
  {
    route: 'GET /samples/{id}/parents',
    ref: '#38',
    status: 200,
    check: envO(obj({ unique_id: 'string' })),
    call: (w) => w.as('GET', `/samples/${w.sampleChild}/parents`, { query: q() }),
  },
  {
    route: 'POST /samples/{p}/children/{c}',
    ref: '#39',
    status: [200, 201],
    check: anything,
    call: async (w) => w.as('POST', `/samples/${w.sampleParent}/children/${await w.newSample()}`),
  },
  {
    route: 'DELETE /samples/{p}/children/{c}',
    ref: '#40',
    status: 200,
    check: anything,
    call: async (w) => {
      const c = await w.newSample();
      await w.as('POST', `/samples/${w.sampleParent}/children/${c}`);
      return w.as('DELETE', `/samples/${w.sampleParent}/children/${c}`);
    },
  },

  // files
  {
    route: 'GET /files',
    ref: '#48',
    status: 200,
    check: envO(FILE),
    call: (w) => w.as('GET', '/files', { query: q() }),
  },
  {
    route: 'GET /files/{id}',
    ref: '#47',
    status: 200,
    check: FILE,
    call: (w) => w.as('GET', `/files/${w.file}`),
  },
  {
    route: 'DELETE /files/{id}',
    ref: '#49',
    status: [200, 204],
    check: anything,
    call: async (w) => {
      const up = await formUpload(w.url, w.user.key, w.dataset, [
        { name: 'gone.txt', data: Buffer.from(`${Date.now()} delete me`) },
      ]);
      return w.as('DELETE', `/files/${(up.body as { mfid: string }).mfid}`);
    },
  },
  {
    route: 'GET /files/{id}/download_link',
    ref: '#50',
    status: 200,
    check: obj({ url: 'string' }),
    call: (w) => w.as('GET', `/files/${w.file}/download_link`),
  },

  // metadata
  {
    route: 'GET /resources/{id}/metadata',
    ref: '#55',
    status: 200,
    check: nullOr(METADATA),
    call: (w) => w.as('GET', `/resources/${w.dataset}/metadata`),
  },
  {
    route: 'PATCH /resources/{id}/metadata',
    ref: '#59',
    status: 200,
    check: METADATA,
    call: (w) => w.as('PATCH', `/resources/${w.dataset}/metadata`, { body: { extra: 1 } }),
  },
  {
    route: 'POST /resources/{id}/metadata',
    ref: '#57/#58',
    status: 200,
    check: METADATA,
    note: 'replaces all existing metadata, with or without overwrite (spec 4.1, 4.2)',
    call: (w) =>
      w.as('POST', `/resources/${w.sample}/metadata`, {
        query: { overwrite: 'True' },
        body: { replaced: true },
      }),
  },
  {
    route: 'GET /resources/metadata/search',
    ref: '#56',
    status: 200,
    check: listOrItems(SEARCH_HIT),
    call: (w) => w.as('GET', '/resources/metadata/search', { query: { q: 'temperature', limit: 5 } }),
  },

  // graphs
  {
    route: 'GET /entity_graph_cte/{id}',
    ref: '#62',
    status: 200,
    check: GRAPH,
    call: (w) => w.as('GET', `/entity_graph_cte/${w.dataset}`, { query: { recursive: 'True' } }),
  },
  {
    route: 'GET /project_graph/{pid}',
    ref: '#63',
    status: 200,
    check: GRAPH,
    call: (w) => w.as('GET', `/project_graph/${w.projectId}`),
  },

  // projects
  {
    route: 'GET /projects',
    ref: '#65',
    status: 200,
    check: envO(PROJECT),
    call: (w) => w.as('GET', '/projects', { query: q() }),
  },
  {
    route: 'POST /projects',
    ref: '#67',
    status: [200, 201],
    check: PROJECT,
    call: (w) =>
      w.asAdmin('POST', '/projects', {
        body: { project_id: `${w.tag}-new`, organization: 'Test', project_lead_orcid: w.user.user.uniqueId },
      }),
  },
  {
    route: 'GET /projects/search',
    ref: '#69',
    status: 200,
    check: listOrItems(PROJECT),
    call: (w) => w.as('GET', '/projects/search', { query: { q: 'contract', limit: 5 } }),
  },
  {
    route: 'GET /projects/{pid}',
    ref: '#64',
    status: 200,
    check: PROJECT,
    call: (w) => w.as('GET', `/projects/${w.projectId}`, { query: { include_metadata: 'True' } }),
  },
  {
    route: 'PATCH /projects/{pid}',
    ref: '#68',
    status: 200,
    check: PROJECT,
    call: (w) => w.asAdmin('PATCH', `/projects/${w.projectId}`, { body: { title: 'Contract project' } }),
  },
  {
    route: 'GET /users/{orcid}/projects',
    ref: '#66',
    status: 200,
    check: envO(PROJECT),
    call: (w) => w.as('GET', `/users/${w.user.user.uniqueId}/projects`, { query: q() }),
  },

  // instruments
  {
    route: 'GET /instruments',
    ref: '#78/#79',
    status: 200,
    check: envO(INSTRUMENT),
    call: (w) => w.as('GET', '/instruments', { query: { instrument_name: w.instrumentName, ...q() } }),
  },
  {
    route: 'POST /instruments',
    ref: '#81',
    status: [200, 201],
    check: INSTRUMENT,
    call: (w) =>
      w.asAdmin('POST', '/instruments', {
        body: { instrument_name: `${w.tag} second`, location: 'Lab', public: false },
      }),
  },
  {
    route: 'GET /instruments/search',
    ref: '#83',
    status: 200,
    check: listOrItems(INSTRUMENT),
    call: (w) => w.as('GET', '/instruments/search', { query: { q: 'micro', limit: 5 } }),
  },
  {
    route: 'GET /instruments/{id}',
    ref: '#80',
    status: 200,
    check: INSTRUMENT,
    call: (w) => w.as('GET', `/instruments/${w.instrumentId}`),
  },
  {
    route: 'PATCH /instruments/{id}',
    ref: '#82',
    status: 200,
    check: INSTRUMENT,
    call: (w) => w.as('PATCH', `/instruments/${w.instrumentId}`, { body: { location: 'Lab 2' } }),
  },

  // users
  {
    route: 'GET /users',
    ref: '#86/#87',
    status: 200,
    check: envO(USER),
    call: (w) =>
      w.asAdmin('GET', '/users', { query: { email: w.user.user.email!, permissive: 'False', ...q() } }),
  },
  {
    route: 'POST /users',
    ref: '#88',
    status: [200, 201],
    check: USER,
    call: (w) =>
      w.asAdmin('POST', '/users', {
        body: {
          user_info: { orcid: '0000-0001-5109-3700', first_name: 'A', last_name: 'B' },
          project_ids: [w.projectId],
        },
      }),
  },
  {
    route: 'GET /users/search',
    ref: '#89',
    status: 200,
    check: listOrItems(PUBLIC_USER),
    call: (w) => w.as('GET', '/users/search', { query: { q: 'Test', limit: 5 } }),
  },
  {
    route: 'POST /users/resolve',
    ref: '#90',
    status: 200,
    check: obj({}),
    call: (w) => w.as('POST', '/users/resolve', { body: { orcids: [w.user.user.uniqueId] } }),
  },
  {
    route: 'GET /users/by-username/{u}',
    ref: '#85',
    status: 200,
    check: PUBLIC_USER,
    call: (w) => w.as('GET', `/users/by-username/${w.user.user.username}`),
  },
  {
    route: 'GET /users/{orcid}',
    ref: '#84',
    status: 200,
    check: USER,
    call: (w) => w.as('GET', `/users/${w.user.user.uniqueId}`),
  },
  {
    route: 'PATCH /users/{orcid}',
    ref: '#92',
    status: 200,
    check: USER,
    call: (w) => w.asAdmin('PATCH', `/users/${w.user.user.uniqueId}`, { body: { first_name: 'Test' } }),
  },
  {
    route: 'GET /users/{orcid}/apikey/verify',
    ref: '#91',
    status: 200,
    check: KEY_STATUS,
    call: (w) => w.asAdmin('GET', `/users/${w.user.user.uniqueId}/apikey/verify`),
  },
  {
    route: 'GET /users/{orcid}/datasets',
    ref: '#93',
    status: 200,
    check: (v) =>
      Array.isArray(v) && v.every((x) => typeof x === 'string') ? [] : ['not a list of dataset ids'],
    call: (w) => w.asAdmin('GET', `/users/${w.user.user.uniqueId}/datasets`),
  },
  {
    route: 'GET /users/{orcid}/datasets/{dsid}',
    ref: '#94',
    status: 200,
    check: obj({ read: 'boolean', write: 'boolean' }),
    call: (w) => w.asAdmin('GET', `/users/${w.user.user.uniqueId}/datasets/${w.dataset}`),
  },

  // deletion
  {
    route: 'POST /resources/{id}/delete',
    ref: '#98',
    status: [200, 201],
    check: DELETION_REQUEST,
    call: async (w) =>
      w.as('POST', `/resources/${await w.newDataset()}/delete`, { query: { reason: 'why' } }),
  },
  {
    route: 'DELETE /resources/{id}',
    ref: '#104',
    status: 200,
    check: MESSAGE,
    call: async (w) =>
      w.asAdmin('DELETE', `/resources/${await w.newDataset()}`, { query: { force: 'True' } }),
  },
  {
    route: 'GET /deletion_requests',
    ref: '#99',
    status: 200,
    check: envO(DELETION_REQUEST),
    call: (w) => w.asAdmin('GET', '/deletion_requests', { query: { status: 'pending', ...q() } }),
  },
  {
    route: 'GET /deletion_requests/{id}',
    ref: '#100',
    status: 200,
    check: DELETION_REQUEST,
    call: (w) => w.asAdmin('GET', `/deletion_requests/${w.deletionRequest}`),
  },
  {
    route: 'PATCH /deletion_requests/{id}',
    ref: '#101',
    status: 200,
    check: DELETION_REQUEST,
    call: async (w) => {
      const r = await w.as('POST', `/resources/${await w.newDataset()}/delete`);
      return w.asAdmin('PATCH', `/deletion_requests/${r.body.id}`, {
        query: { status: 'rejected', reviewer_notes: 'keep it' },
      });
    },
  },
  {
    route: 'GET /deletion_audit',
    ref: '#102',
    status: 200,
    check: envO(DELETION_AUDIT),
    call: (w) => w.asAdmin('GET', '/deletion_audit', { query: q() }),
  },
  {
    route: 'GET /deletion_audit/{id}',
    ref: '#103',
    status: 200,
    check: DELETION_AUDIT,
    call: (w) => w.asAdmin('GET', `/deletion_audit/${w.audit}`),
  },

  // service accounts
  {
    route: 'POST /service_accounts',
    ref: '#105',
    status: [200, 201],
    check: obj({ unique_id: 'string', username: 'string', is_service_account: 'boolean', api_key: 'string' }),
    call: (w) => w.asAdmin('POST', '/service_accounts', { body: { username: `${w.tag}-second-bot` } }),
  },
  {
    route: 'POST /service_accounts/{id}/rotate_key',
    ref: '#106',
    status: 200,
    check: obj({ unique_id: 'string', api_key: 'string' }),
    call: (w) => w.asAdmin('POST', `/service_accounts/${w.serviceAccount}/rotate_key`),
  },

  // join requests (the caller's own, a group's, review)
  {
    route: 'GET /account/join_requests',
    ref: '#10',
    status: 200,
    check: envO(JOIN_REQUEST),
    call: (w) => w.as('GET', '/account/join_requests', { query: { status: 'pending', ...q() } }),
  },
  {
    route: 'POST /access_groups/{group}/join',
    ref: '#75',
    status: [200, 201],
    check: JOIN_REQUEST,
    call: async (w) => {
      const asker = await w.newUser();
      return rest(w.url, 'POST', `/access_groups/${w.projectId}/join`, {
        key: asker.key,
        body: { reason: null },
      });
    },
  },
  {
    route: 'GET /join_requests',
    ref: '#76',
    status: 200,
    check: envO(JOIN_REQUEST),
    call: (w) => w.asAdmin('GET', '/join_requests', { query: { group_name: w.otherProject, ...q() } }),
  },
  {
    route: 'PATCH /join_requests/{id}',
    ref: '#77',
    status: 200,
    check: JOIN_REQUEST,
    call: async (w) => {
      const asker = await w.newUser();
      const asked = await rest(w.url, 'POST', `/access_groups/${w.otherProject}/join`, {
        key: asker.key,
        body: { reason: 'contract' },
      });
      return w.asAdmin('PATCH', `/join_requests/${asked.body.id}`, {
        body: { status: 'approved', reviewer_notes: 'welcome' },
      });
    },
  },

  // analysis requests
  ...(['carrier_segmentation', 'insitu_spec_aggregation', 'rga_analysis', 'mosaic_stitch'] as const).map(
    (analysis, i): ContractRow => ({
      route: `POST /datasets/{id}/${analysis}`,
      ref: `#${21 + i}`,
      status: [200, 201],
      check: ANALYSIS_REQUEST,
      call: (w) => w.as('POST', `/datasets/${w.dataset}/${analysis}`),
    }),
  ),

  // ingestion
  {
    route: 'POST /files/{id}/ingest',
    ref: '#46',
    status: [200, 201],
    check: INGESTION_REQUEST,
    call: (w) => w.as('POST', `/files/${w.file}/ingest`),
  },
  {
    route: 'GET /ingestion_requests',
    ref: '#51',
    status: 200,
    check: envO(INGESTION_REQUEST),
    call: (w) =>
      w.as('GET', '/ingestion_requests', { query: { dataset_id: w.dataset, file_id: w.file, ...q() } }),
  },
  {
    route: 'GET /ingestion_requests/{id}',
    ref: '#53',
    status: 200,
    check: INGESTION_REQUEST,
    call: (w) => w.as('GET', `/ingestion_requests/${w.ingestionRequest}`),
  },
  {
    route: 'PATCH /ingestion_requests/{id}',
    ref: '#52',
    status: 200,
    check: INGESTION_REQUEST,
    note: 'the client sends time_completed with a timezone offset, and nulls for absent fields',
    call: async (w) => {
      const asked = await w.as('POST', `/files/${w.file}/ingest`);
      return w.asAdmin('PATCH', `/ingestion_requests/${asked.body.id}`, {
        body: {
          id: asked.body.id,
          status: 'complete',
          ingestion_githash: null,
          ingestion_class: null,
          time_completed: '2026-01-02T03:04:05.000000-08:00',
        },
      });
    },
  },
  {
    route: 'GET /ingestors',
    ref: '#54',
    status: 200,
    check: (value, where = 'body') =>
      Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string')
        ? []
        : [`${where} is not a non-empty list of strings`],
    call: (w) => w.as('GET', '/ingestors'),
  },

  // resource access groups
  {
    route: 'GET /resources/{id}/access_groups',
    ref: '#60',
    status: 200,
    check: list(obj({ group_name: 'string' })),
    call: async (w) => {
      await w.as('POST', `/resources/${w.dataset}/access_groups`, {
        query: { group_name: w.group, read: 'True', write: 'False' },
      });
      return w.as('GET', `/resources/${w.dataset}/access_groups`);
    },
  },
  {
    route: 'POST /resources/{id}/access_groups',
    ref: '#61',
    status: [200, 201],
    check: obj({ group_name: 'string' }),
    call: (w) =>
      w.as('POST', `/resources/${w.parent}/access_groups`, {
        query: { group_name: w.group, read: 'True', write: 'False' },
      }),
  },

  // project members
  {
    route: 'GET /projects/{pid}/users',
    ref: '#70',
    status: 200,
    check: envO(MEMBER),
    call: (w) => w.asAdmin('GET', `/projects/${w.projectId}/users`, { query: q() }),
  },
  {
    route: 'POST /projects/{pid}/users/{orcid}',
    ref: '#71',
    status: [200, 201],
    check: list(MEMBER, { nonEmpty: true }),
    call: async (w) => {
      const joiner = await w.newUser();
      return w.asAdmin('POST', `/projects/${w.projectId}/users/${joiner.user.uniqueId}`);
    },
  },
  {
    route: 'POST /projects/{pid}/users/me',
    ref: '#72',
    status: [200, 201],
    check: list(MEMBER, { nonEmpty: true }),
    call: async (w) => {
      const joiner = await w.newUser();
      return w.asAdmin('POST', `/projects/${w.projectId}/users/me`, { query: { email: joiner.user.email! } });
    },
  },
  {
    route: 'DELETE /projects/{pid}/users/{orcid}',
    ref: '#73',
    status: 200,
    check: list(MEMBER),
    note: 'spec §4.1: removal returns the complete member list (the reference shows a message; the client passes either through)',
    call: async (w) => {
      const leaver = await w.newUser();
      await w.asAdmin('POST', `/projects/${w.projectId}/users/${leaver.user.uniqueId}`);
      return w.asAdmin('DELETE', `/projects/${w.projectId}/users/${leaver.user.uniqueId}`);
    },
  },
  {
    route: 'DELETE /projects/{pid}/users/me',
    ref: '#74',
    status: 200,
    check: list(MEMBER),
    note: 'spec §4.1: removal returns the complete member list (the reference shows a message; the client passes either through)',
    call: async (w) => {
      const leaver = await w.newUser();
      await w.asAdmin('POST', `/projects/${w.projectId}/users/${leaver.user.uniqueId}`);
      return w.asAdmin('DELETE', `/projects/${w.projectId}/users/me`, {
        query: { username: leaver.user.username! },
      });
    },
  },

  // a user's access groups
  {
    route: 'GET /users/{orcid}/access_groups',
    ref: '#95',
    status: 200,
    check: (value, where = 'body') =>
      Array.isArray(value) && value.every((v) => typeof v === 'string')
        ? []
        : [`${where} is not a list of group names`],
    call: (w) => w.as('GET', `/users/${w.user.user.uniqueId}/access_groups`),
  },
  {
    route: 'POST /users/{orcid}/access_groups/{group}',
    ref: '#96',
    status: [200, 201],
    check: obj({}),
    call: async (w) => {
      const joiner = await w.newUser();
      return w.asAdmin('POST', `/users/${joiner.user.uniqueId}/access_groups/${w.group}`);
    },
  },
  {
    route: 'DELETE /users/{orcid}/access_groups/{group}',
    ref: '#97',
    status: 200,
    check: MESSAGE,
    call: async (w) => {
      const leaver = await w.newUser();
      await w.asAdmin('POST', `/users/${leaver.user.uniqueId}/access_groups/${w.group}`);
      return w.asAdmin('DELETE', `/users/${leaver.user.uniqueId}/access_groups/${w.group}`);
    },
  },
];

/** Every method + path pair of reference §5.16 (104). */
export const REFERENCE_ROUTES: string[] = [
  'GET /health/live',
  'GET /health/ready',
  'GET /resources/{id}',
  'GET /resources/{id}/links',
  'GET /account',
  'GET /account/profile',
  'PATCH /account/profile',
  'GET /account/apikey',
  'GET /account/verify',
  'GET /account/join_requests',
  'GET /datasets',
  'POST /datasets',
  'GET /datasets/search',
  'GET /datasets/{id}',
  'PATCH /datasets/{id}',
  'GET /datasets/{id}/files',
  'GET /datasets/{id}/download_links',
  'GET /datasets/{id}/keywords',
  'POST /datasets/{id}/keywords',
  'POST /datasets/{id}/carrier_segmentation',
  'POST /datasets/{id}/insitu_spec_aggregation',
  'POST /datasets/{id}/rga_analysis',
  'POST /datasets/{id}/mosaic_stitch',
  'GET /datasets/{id}/samples',
  'POST /datasets/{id}/samples/{sid}',
  'DELETE /datasets/{id}/samples/{sid}',
  'POST /datasets/{p}/children/{c}',
  'DELETE /datasets/{p}/children/{c}',
  'GET /datasets/{id}/children',
  'GET /datasets/{id}/parents',
  'GET /datasets/{id}/thumbnails',
  'POST /datasets/{id}/thumbnails',
  'DELETE /datasets/{id}/thumbnails/{tid}',
  'POST /datasets/{id}/upload/initiate',
  'POST /datasets/{id}/upload/initiate/multipart',
  'POST /datasets/{id}/upload/complete',
  'GET /samples',
  'POST /samples',
  'GET /samples/search',
  'GET /samples/{id}',
  'PATCH /samples/{id}',
  'GET /samples/{id}/datasets',
  'GET /samples/{id}/children',
  'GET /samples/{id}/parents',
  'POST /samples/{p}/children/{c}',
  'DELETE /samples/{p}/children/{c}',
  'GET /files',
  'GET /files/{id}',
  'DELETE /files/{id}',
  'GET /files/{id}/download_link',
  'POST /files/{id}/ingest',
  'GET /ingestion_requests',
  'GET /ingestion_requests/{id}',
  'PATCH /ingestion_requests/{id}',
  'GET /ingestors',
  'GET /resources/{id}/metadata',
  'PATCH /resources/{id}/metadata',
  'POST /resources/{id}/metadata',
  'GET /resources/metadata/search',
  'GET /resources/{id}/access_groups',
  'POST /resources/{id}/access_groups',
  'GET /entity_graph_cte/{id}',
  'GET /project_graph/{pid}',
  'GET /projects',
  'POST /projects',
  'GET /projects/search',
  'GET /projects/{pid}',
  'PATCH /projects/{pid}',
  'GET /projects/{pid}/users',
  'POST /projects/{pid}/users/{orcid}',
  'DELETE /projects/{pid}/users/{orcid}',
  'POST /projects/{pid}/users/me',
  'DELETE /projects/{pid}/users/me',
  'GET /users/{orcid}/projects',
  'POST /access_groups/{group}/join',
  'GET /join_requests',
  'PATCH /join_requests/{id}',
  'GET /instruments',
  'POST /instruments',
  'GET /instruments/search',
  'GET /instruments/{id}',
  'PATCH /instruments/{id}',
  'GET /users',
  'POST /users',
  'GET /users/search',
  'POST /users/resolve',
  'GET /users/by-username/{u}',
  'GET /users/{orcid}',
  'PATCH /users/{orcid}',
  'GET /users/{orcid}/apikey/verify',
  'GET /users/{orcid}/datasets',
  'GET /users/{orcid}/datasets/{dsid}',
  'GET /users/{orcid}/access_groups',
  'POST /users/{orcid}/access_groups/{group}',
  'DELETE /users/{orcid}/access_groups/{group}',
  'POST /resources/{id}/delete',
  'DELETE /resources/{id}',
  'GET /deletion_requests',
  'GET /deletion_requests/{id}',
  'PATCH /deletion_requests/{id}',
  'GET /deletion_audit',
  'GET /deletion_audit/{id}',
  'POST /service_accounts',
  'POST /service_accounts/{id}/rotate_key',
];
