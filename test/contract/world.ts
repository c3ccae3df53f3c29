import { rest, type Reply } from '../support/http';
import { makeUser, randomOrcid, unique, type TestUser } from '../support/factories';
import { formUpload } from '../support/files';
import type { TestApp } from '../support/app';

/** A 1×1 PNG. */
export const PIXEL_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';

/** The records the contract rows call routes on, created through the API itself. */
export interface World {
  url: string;
  admin: TestUser;
  user: TestUser;
  projectId: string;
  instrumentId: string;
  instrumentName: string;
  dataset: string;
  parent: string;
  child: string;
  sample: string;
  sampleParent: string;
  sampleChild: string;
  file: string;
  thumbnail: number;
  deletionRequest: number;
  audit: number;
  serviceAccount: string;
  tag: string;
  /** a project the user is not in (for join requests), by its slug */
  otherProject: string;
  /** a named access group the user belongs to */
  group: string;
  ingestionRequest: number;
  /** a new user, not in any project */
  newUser: () => Promise<TestUser>;
  /** a call as the test user (the legacy suite runs as an ordinary user) */
  as: (method: string, path: string, opts?: Parameters<typeof rest>[3]) => Promise<Reply>;
  asAdmin: (method: string, path: string, opts?: Parameters<typeof rest>[3]) => Promise<Reply>;
  /** the same calls on `/api/v3`, as the 3.2 client makes them */
  as3: (method: string, path: string, opts?: Parameters<typeof rest>[3]) => Promise<Reply>;
  asAdmin3: (method: string, path: string, opts?: Parameters<typeof rest>[3]) => Promise<Reply>;
  /** a fresh dataset of the test user in the project */
  newDataset: () => Promise<string>;
  newSample: () => Promise<string>;
}

async function ok(reply: Promise<Reply>, what: string): Promise<Reply> {
  const r = await reply;
  if (r.status >= 300) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
  return r;
}

export async function buildWorld(t: TestApp): Promise<World> {
  const admin = await makeUser(t.app, { admin: true });
  const user = await makeUser(t.app, { orcid: randomOrcid() });
  const url = t.url;
  const as: World['as'] = (m, p, o = {}) => rest(url, m, p, { key: user.key, ...o });
  const asAdmin: World['asAdmin'] = (m, p, o = {}) => rest(url, m, p, { key: admin.key, ...o });
  const as3: World['as3'] = (m, p, o = {}) => as(m, p, { version: 3, ...o });
  const asAdmin3: World['asAdmin3'] = (m, p, o = {}) => asAdmin(m, p, { version: 3, ...o });
  const tag = unique('contract');
  const projectId = tag;
  await ok(
    asAdmin('POST', '/projects', {
      body: { project_id: projectId, organization: 'Test', title: 'Contract' },
    }),
    'project',
  );
  await ok(
    asAdmin('POST', '/users', {
      body: { user_info: { orcid: user.user.uniqueId }, project_ids: [projectId] },
    }),
    'member',
  );
  const instrumentName = `${tag} microscope`;
  const instrument = await ok(
    asAdmin('POST', '/instruments', { body: { instrument_name: instrumentName, owner: user.user.uniqueId } }),
    'instrument',
  );
  const newDataset = async () =>
    (
      await ok(
        as('POST', '/datasets', {
          body: { dataset_name: `${tag} dataset`, project_id: projectId, measurement: 'test', public: false },
        }),
        'dataset',
      )
    ).body.unique_id as string;
  const newSample = async () =>
    (
      await ok(
        as('POST', '/samples', {
          body: { sample_name: `${tag} sample`, project_id: projectId, sample_type: 'test', public: false },
        }),
        'sample',
      )
    ).body.unique_id as string;
  const [dataset, parent, child, sample, sampleParent, sampleChild] = [
    await newDataset(),
    await newDataset(),
    await newDataset(),
    await newSample(),
    await newSample(),
    await newSample(),
  ];
  await ok(as('POST', `/datasets/${parent}/children/${child}`), 'dataset link');
  await ok(as('POST', `/samples/${sampleParent}/children/${sampleChild}`), 'sample link');
  await ok(as('POST', `/datasets/${dataset}/samples/${sample}`), 'association');
  await ok(as('PATCH', `/resources/${dataset}/metadata`, { body: { temperature: 300, tag } }), 'metadata');
  await ok(as('POST', `/datasets/${dataset}/keywords`, { query: { keyword: tag } }), 'keyword');
  const upload = await ok(
    formUpload(url, user.key, dataset, [{ name: 'data.csv', data: Buffer.from('a,b\n1,2\n') }]),
    'file',
  );
  const thumb = await ok(
    as('POST', `/datasets/${dataset}/thumbnails`, {
      body: { thumbnail_name: 'preview.png', thumbnail_b64str: PIXEL_PNG },
    }),
    'thumbnail',
  );
  const doomed = await newDataset();
  const request = await ok(
    as('POST', `/resources/${doomed}/delete`, { query: { reason: 'contract test' } }),
    'deletion request',
  );
  const removed = await newDataset();
  const approvedRequest = await ok(
    as('POST', `/resources/${removed}/delete`, { query: { reason: 'contract test' } }),
    'deletion',
  );
  await ok(
    asAdmin('PATCH', `/deletion_requests/${approvedRequest.body.id}`, { query: { status: 'approved' } }),
    'approval',
  );
  const audit = await ok(asAdmin('GET', '/deletion_audit', { query: { resource_id: removed } }), 'audit');
  const otherProject = `${tag}-other`;
  await ok(
    asAdmin('POST', '/projects', {
      body: { project_id: otherProject, organization: 'Test', title: 'Other' },
    }),
    'other project',
  );
  await ok(
    as('POST', `/access_groups/${otherProject}/join`, { body: { reason: 'contract' } }),
    'join request',
  );
  const group = `${tag}-group`;
  await ok(asAdmin('POST', `/users/${user.user.uniqueId}/access_groups/${group}`), 'group member');
  const file = (upload.body as { mfid: string }).mfid;
  const ingestion = await ok(as('GET', '/ingestion_requests', { query: { file_id: file } }), 'ingestion');
  const sa = await ok(
    asAdmin('POST', '/service_accounts', { body: { username: `${tag}-bot` } }),
    'service account',
  );
  return {
    url,
    admin,
    user,
    projectId,
    instrumentId: instrument.body.unique_id,
    instrumentName,
    dataset,
    parent,
    child,
    sample,
    sampleParent,
    sampleChild,
    file,
    otherProject,
    group,
    ingestionRequest: ingestion.body.items[0].id,
    newUser: () => makeUser(t.app),
    thumbnail: thumb.body.id,
    deletionRequest: request.body.id,
    audit: audit.body.items[0].id,
    serviceAccount: sa.body.unique_id,
    tag,
    as,
    asAdmin,
    as3,
    asAdmin3,
    newDataset,
    newSample,
  };
}

/**
 * A value for the path parameter `name` of the documented route `path` that reaches a record of
 * the world, by the route's first segment (`webhook`: the world makes none; bring your own).
 */
export function worldPathValue(w: World, path: string, name: string, webhook = ''): string {
  if (name === 'tid') return String(w.thumbnail);
  if (name === 'dsid') return w.dataset;
  if (name === 'username') return w.user.user.username ?? 'nobody';
  const top = path.split('/')[1];
  const byTop: Record<string, string> = {
    deletion_audit: String(w.audit),
    deletion_requests: String(w.deletionRequest),
    files: w.file,
    ingestion_requests: String(w.ingestionRequest),
    instruments: w.instrumentId,
    project_graph: w.projectId,
    projects: w.projectId,
    samples: w.sample,
    users: w.user.user.uniqueId,
    webhooks: webhook,
  };
  return byTop[top] ?? w.dataset;
}
