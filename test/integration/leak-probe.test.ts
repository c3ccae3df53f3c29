import sharp from 'sharp';
import { startTestApp, type TestApp } from '../support/app';
import { gql, rest } from '../support/http';
import { addMember, grant, makeProject, makeUser, unique, type TestUser } from '../support/factories';
import { newDataset, newSample } from '../support/catalog';
import { formUpload } from '../support/files';
import type { Project } from '../../src/modules/project/project.entity';

/**
 * The leak probe: two users with mixed private, public and shared records, plus a third who
 * reaches one record through a named group. Every list, count, search, metadata search, graph,
 * link, file, thumbnail and download-link result each of them can ask for is scanned for the
 * MFIDs of the records made here: each one found must be readable by the caller (a file: its
 * dataset). User objects must carry no email but the caller's own. Totals must count readable
 * records only.
 */
let t: TestApp;
let admin: TestUser;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let project: Project;
let token: string;
const ds: Record<string, string> = {};
const samples: Record<string, string> = {};
/** record MFID -> the dataset MFID whose readability decides it (files), or itself */
const decidedBy = new Map<string, string>();
const readable: Record<string, Set<string>> = {};
const emails: string[] = [];

const MFID = /[0-9a-hjkmnp-tv-z]{25}[048cgmrw]/g;

/** Every problem in one response: unreadable records and other users' emails. */
function leaks(caller: TestUser, name: string, body: unknown): string[] {
  const problems: string[] = [];
  const canRead = readable[caller.user.uniqueId];
  const visit = (value: unknown, path: string) => {
    if (typeof value === 'string') {
      for (const id of value.match(MFID) ?? []) {
        const decider = decidedBy.get(id);
        if (decider && !canRead.has(decider)) problems.push(`${name}: ${path} holds ${id}`);
      }
      for (const email of emails) {
        if (email !== caller.user.email && value.toLowerCase().includes(email.toLowerCase())) {
          problems.push(`${name}: ${path} shows the email ${email}`);
        }
      }
    } else if (Array.isArray(value)) {
      value.forEach((v, i) => visit(v, `${path}[${i}]`));
    } else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) {
        visit(k, `${path}.<key>`);
        visit(v, `${path}.${k}`);
      }
    }
  };
  visit(body, '$');
  return problems;
}

beforeAll(async () => {
  t = await startTestApp();
  admin = await makeUser(t.app, { admin: true });
  alice = await makeUser(t.app);
  bob = await makeUser(t.app);
  carol = await makeUser(t.app);
  emails.push(alice.user.email!, bob.user.email!, carol.user.email!, admin.user.email!);
  project = await makeProject(t.app, admin.user);
  await addMember(t.app, project, alice.user, 'contributor');
  token = unique('leakprobe').replace('-', '');
  const group = unique('probe-group');
  await rest(t.url, 'POST', `/users/${carol.user.uniqueId}/access_groups/${group}`, { key: admin.key });

  const body = (extra: Record<string, unknown> = {}) => ({
    dataset_name: `${token} dataset`,
    session_name: token,
    measurement: token,
    scientific_metadata: { probe: token },
    ...extra,
  });
  ds.aPriv = await newDataset(t.url, alice.key, body());
  ds.aPub = await newDataset(t.url, alice.key, body({ public: true }));
  ds.aShared = await newDataset(t.url, alice.key, body());
  await grant(t.app, ds.aShared, 'dataset', 'user', bob.user.uniqueId, 'viewer');
  ds.aProj = await newDataset(t.url, alice.key, body({ project_id: project.projectId }));
  ds.aGroup = await newDataset(t.url, alice.key, body());
  await rest(t.url, 'PUT', `/resources/${ds.aGroup}/access/groups/${group}`, {
    key: alice.key,
    body: { permission: 'viewer' },
  });
  ds.bPriv = await newDataset(t.url, bob.key, body());
  ds.bPub = await newDataset(t.url, bob.key, body({ public: true }));

  const sampleBody = (extra: Record<string, unknown> = {}) => ({
    sample_name: `${token} sample`,
    scientific_metadata: { probe: token },
    ...extra,
  });
  samples.saPriv = await newSample(t.url, alice.key, sampleBody());
  samples.sShared = await newSample(t.url, alice.key, sampleBody());
  await grant(t.app, samples.sShared, 'sample', 'user', bob.user.uniqueId, 'viewer');
  samples.sbPub = await newSample(t.url, bob.key, sampleBody({ public: true }));
  samples.sbPriv = await newSample(t.url, bob.key, sampleBody());

  const link = (key: string, parent: string, child: string) =>
    rest(t.url, 'POST', '/resources/links', { key, body: { parent_mfid: parent, child_mfid: child } });
  await link(alice.key, ds.bPub, ds.aPriv);
  await link(alice.key, ds.aShared, ds.aPriv);
  await link(alice.key, ds.aPub, ds.aShared);
  await link(bob.key, ds.aPub, ds.bPriv);
  await link(bob.key, ds.bPriv, ds.bPub);
  await link(alice.key, samples.saPriv, ds.aPub);
  await link(alice.key, samples.sbPub, ds.aPriv);
  await link(bob.key, samples.sbPub, ds.bPriv);
  await link(alice.key, samples.sbPub, samples.saPriv);
  await link(bob.key, samples.sbPriv, samples.sbPub);

  const image = (
    await sharp({ create: { width: 8, height: 8, channels: 3, background: { r: 9, g: 9, b: 9 } } })
      .png()
      .toBuffer()
  ).toString('base64');
  for (const [name, id] of Object.entries(ds)) {
    const owner = name.startsWith('a') ? alice : bob;
    decidedBy.set(id, id);
    await rest(t.url, 'POST', `/datasets/${id}/keywords`, { key: owner.key, query: { keyword: token } });
    await rest(t.url, 'POST', `/datasets/${id}/thumbnails`, {
      key: owner.key,
      body: { thumbnail_name: `${token}.png`, thumbnail_b64str: image },
    });
    const stored = await formUpload(t.url, owner.key, id, [{ name: `${token}.bin`, data: Buffer.from(id) }]);
    decidedBy.set(stored.body.mfid as string, id);
    const remote = await rest(t.url, 'POST', `/datasets/${id}/files`, {
      key: owner.key,
      body: { filename: `${token}.remote`, storage_backend: 'tape', sha256_hash: 'a'.repeat(64) },
    });
    decidedBy.set(remote.body.mfid as string, id);
  }
  for (const id of Object.values(samples)) decidedBy.set(id, id);

  readable[alice.user.uniqueId] = new Set([
    ds.aPriv,
    ds.aPub,
    ds.aShared,
    ds.aProj,
    ds.aGroup,
    ds.bPub,
    samples.saPriv,
    samples.sShared,
    samples.sbPub,
  ]);
  readable[bob.user.uniqueId] = new Set([
    ds.aPub,
    ds.aShared,
    ds.bPriv,
    ds.bPub,
    samples.sShared,
    samples.sbPub,
    samples.sbPriv,
  ]);
  readable[carol.user.uniqueId] = new Set([ds.aPub, ds.aGroup, ds.bPub, samples.sbPub]);
});
afterAll(() => t.close());

const callers = () => [alice, bob, carol];
const readableOf = (caller: TestUser, kind: Record<string, string>) =>
  Object.values(kind).filter((id) => readable[caller.user.uniqueId].has(id));

test.each(['alice', 'bob', 'carol'])('REST results never show %s a record they cannot read', async (who) => {
  const caller = { alice, bob, carol }[who as 'alice' | 'bob' | 'carol'];
  const problems: string[] = [];
  const probe = async (
    path: string,
    query: Record<string, string | string[]> = {},
    method = 'GET',
    body?: unknown,
  ) => {
    const res = await rest(t.url, method, path, { key: caller.key, query, body });
    const name = `${method} ${path}?${new URLSearchParams(query as never).toString()}`;
    if (res.status !== 200) problems.push(`${name}: status ${res.status}`);
    problems.push(...leaks(caller, name, res.body));
    return res;
  };
  const myDatasets = readableOf(caller, ds);
  const mySamples = readableOf(caller, samples);

  const list = await probe('/datasets', {
    session_name: token,
    include_owner: 'true',
    include_links: 'true',
  });
  expect(list.body.total).toBe(myDatasets.length);
  expect(list.body.items.map((d: { unique_id: string }) => d.unique_id).sort()).toEqual(
    [...myDatasets].sort(),
  );
  expect((await probe('/datasets', { session_name: token, limit: '1' })).body.total).toBe(myDatasets.length);
  await probe('/datasets', { keyword: token });
  await probe('/datasets', { measurement: token, include_metadata: 'true' });
  await probe('/datasets', { project_id: project.projectId, project_scope: 'all' });
  for (const id of Object.values(samples)) await probe('/datasets', { sample_mfid: id });
  await probe('/datasets/search', { q: token });
  const sampleList = await probe('/samples', { sample_name: `${token} sample`, include_datasets: 'true' });
  expect(sampleList.body.total).toBe(mySamples.length);
  for (const id of Object.values(ds)) await probe('/samples', { dataset_mfid: id });
  await probe('/samples/search', { q: token });
  const hits = await probe('/resources/metadata/search', { q: token, limit: '50' });
  expect(hits.body.items).toHaveLength(myDatasets.length + mySamples.length);
  await probe('/files', { limit: '1000' });
  await probe('/files', { sha256_hash: 'a'.repeat(64) });
  for (const id of Object.values(ds)) await probe('/files', { dataset_id: id });
  await probe('/datasets/first_thumbnails', {}, 'POST', Object.values(ds));
  await probe('/ingestion_requests', { limit: '1000' });
  for (const id of Object.values(ds)) {
    const requests = await probe('/ingestion_requests', { dataset_id: id });
    // one request per stored upload, counted only when the dataset is readable
    expect(requests.body.total).toBe(readable[caller.user.uniqueId].has(id) ? 1 : 0);
  }
  await probe(`/project_graph/${project.projectId}`);
  await probe('/users/search', { q: caller.user.username! });

  for (const id of myDatasets) {
    await probe(`/datasets/${id}`, { include_links: 'true', include_metadata: 'true' });
    await probe(`/resources/${id}/links`);
    await probe(`/entity_graph_cte/${id}`, { recursive: 'True' });
    for (const rel of ['children', 'parents', 'samples']) await probe(`/datasets/${id}/${rel}`);
    await probe(`/datasets/${id}/files`);
    await probe(`/datasets/${id}/download_links`);
    await probe(`/datasets/${id}/thumbnails`);
    const keywords = await probe(`/datasets/${id}/keywords`);
    expect(keywords.body).toEqual([{ keyword: token, num_datasets: myDatasets.length }]);
    await probe(`/resources/${id}/access`);
  }
  for (const id of mySamples) {
    await probe(`/samples/${id}`, { include_links: 'true' });
    await probe(`/resources/${id}/links`);
    await probe(`/entity_graph_cte/${id}`, { recursive: 'True' });
    for (const rel of ['children', 'parents', 'datasets']) await probe(`/samples/${id}/${rel}`);
  }
  // what they may not read is not there at all
  for (const id of [...Object.values(ds), ...Object.values(samples)]) {
    if (readable[caller.user.uniqueId].has(id)) continue;
    for (const path of [`/resources/${id}`, `/resources/${id}/links`, `/entity_graph_cte/${id}`]) {
      expect((await rest(t.url, 'GET', path, { key: caller.key })).status).toBe(404);
    }
  }
  expect(problems).toEqual([]);
});

const NESTED = `
  uniqueId owner { uniqueId email } links { uniqueId } parents { uniqueId } children { uniqueId }
  samples { uniqueId datasets { uniqueId } } files { totalCount nodes { uniqueId downloadUrl } }
  thumbnails { datasetId } firstThumbnail { datasetId } keywords`;

test.each(['alice', 'bob', 'carol'])(
  'GraphQL results never show %s a record they cannot read',
  async (who) => {
    const caller = { alice, bob, carol }[who as 'alice' | 'bob' | 'carol'];
    const problems: string[] = [];
    /** one query; unless it is expected to fail, an error is a problem too */
    const probe = async (
      name: string,
      query: string,
      variables: Record<string, unknown> = {},
      fails = false,
    ) => {
      const res = await gql(t.url, caller.key, query, variables);
      if (!fails && res.errors) problems.push(`${name}: ${res.errors[0].message}`);
      problems.push(...leaks(caller, name, res.data ?? null));
      return res;
    };
    // 20 (not 100): every nested list of NESTED costs what it can hold (GRAPHQL_MAX_COMPLEXITY)
    const all = await probe(
      'datasets',
      `query($s: String!) { datasets(filter: { sessionName: $s }, first: 20) { totalCount nodes { ${NESTED} } } }`,
      { s: token },
    );
    expect(all.data.datasets.totalCount).toBe(readableOf(caller, ds).length);
    const sampleFields =
      'uniqueId owner { email } links { uniqueId } parents { uniqueId } children { uniqueId }';
    await probe(
      'samples',
      `query($n: String!) { samples(filter: { sampleName: $n }) { totalCount nodes { ${sampleFields} datasets { uniqueId } } } }`,
      { n: `${token} sample` },
    );
    await probe(
      'files',
      '{ files(first: 1000) { totalCount nodes { uniqueId datasetId dataset { uniqueId } } } }',
    );
    await probe(
      'ingestionRequests',
      '{ ingestionRequests(first: 1000) { totalCount nodes { fileId datasetId file { uniqueId } } } }',
    );
    const q = { q: token };
    await probe('searchDatasets', 'query($q: String!) { searchDatasets(q: $q) { uniqueId } }', q);
    await probe('searchSamples', 'query($q: String!) { searchSamples(q: $q) { uniqueId } }', q);
    await probe('searchMetadata', 'query($q: String!) { searchMetadata(q: $q, limit: 50) { uniqueId } }', q);
    const ids = { ids: Object.values(ds) };
    await probe(
      'firstThumbnails',
      'query($ids: [ID!]!) { firstThumbnails(datasetIds: $ids) { datasetId } }',
      ids,
    );
    const p = { p: project.projectId };
    await probe(
      'project',
      `query($p: String!) { project(id: $p) { datasets(scope: all) { totalCount nodes { uniqueId } }
       samples { totalCount nodes { uniqueId } } members { user { uniqueId email } } } }`,
      p,
    );
    await probe(
      'projectGraph',
      'query($p: String!) { projectGraph(project: $p) { nodes { id } edges { source } } }',
      p,
    );
    for (const id of [...Object.values(ds), ...Object.values(samples)]) {
      const hidden = !readable[caller.user.uniqueId].has(id);
      const graph = await probe(
        'entityGraph',
        'query($id: ID!) { entityGraph(id: $id) { nodes { id firstThumbnail { datasetId } } edges { source target } } }',
        { id },
        hidden,
      );
      const node = `query($id: ID!) { resource(id: $id) { ... on Dataset { ${NESTED} } ... on Sample { ${sampleFields} } } }`;
      const one = await probe('node', node, { id }, hidden);
      const links = await probe('links', 'query($id: ID!) { links(id: $id) { uniqueId } }', { id }, hidden);
      if (hidden)
        for (const res of [graph, one, links]) expect(res.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    }
    expect(problems).toEqual([]);
  },
);

test('a platform admin sees everything (the probe is not vacuous)', async () => {
  const res = await rest(t.url, 'GET', '/datasets', { key: admin.key, query: { session_name: token } });
  expect(res.body.total).toBe(Object.keys(ds).length);
  expect(callers()).toHaveLength(3);
});
