import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestApp, type TestApp } from '../support/app';
import { gql } from '../support/http';
import { makeProject, makeUser, unique, type TestUser } from '../support/factories';
import { newDataset, newSample } from '../support/catalog';
import { formUpload } from '../support/files';
import { png } from '../support/fixtures';
import { newMfid } from '../../src/core/ids';
import { fromGlobalId, toGlobalId } from '../../src/core/graphql/node';

/**
 * Global object identification (docs/api.md, "Global ids"): every type implementing `Node` is
 * fetched again by its `nodeId` through `node` and `nodes`, as its own single-record query sees
 * it; an unreadable record is null exactly like a missing one; malformed ids and too many ids
 * are input errors; `nodes` costs one statement per type, whatever the number of ids.
 */
let t: TestApp;
let admin: TestUser;
let bob: TestUser;
let carol: TestUser;
let receiver: http.Server;
/** every Node type's record, by type: its global id as its owner reads it, and whether bob may read it */
const records = new Map<string, { id: string; bobReads: boolean }>();
const datasets: string[] = [];

const NODE = 'query($id: ID!) { node(id: $id) { __typename nodeId } }';
const NODES = 'query($ids: [ID!]!) { nodes(ids: $ids) { __typename nodeId } }';

/** The `nodeId` a query's answer holds at `path` (dots), asked by `key`. */
async function nodeIdOf(
  key: string,
  query: string,
  path: string,
  variables: Record<string, unknown> = {},
): Promise<string> {
  const res = await gql(t.url, key, query, variables);
  expect(res.errors).toBeUndefined();
  let value: any = res.data;
  for (const part of path.split('.')) value = value[part];
  expect(typeof value).toBe('string');
  return value as string;
}

beforeAll(async () => {
  t = await startTestApp({ AUTH_CACHE_TTL_MS: '60000', WEBHOOK_RETRY_BASE_MS: '0' });
  receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  admin = await makeUser(t.app, { admin: true });
  bob = await makeUser(t.app);
  carol = await makeUser(t.app);
  const project = await makeProject(t.app, carol.user, unique('node'));

  const hook = await gql(
    t.url,
    carol.key,
    'mutation($url: String!) { createWebhook(input: { url: $url }) { webhook { nodeId } } }',
    { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook` },
  );
  expect(hook.errors).toBeUndefined();
  records.set('Webhook', { id: hook.data.createWebhook.webhook.nodeId, bobReads: false });

  const dataset = await newDataset(t.url, carol.key, { dataset_name: 'node private' });
  for (let i = 0; i < 6; i++)
    datasets.push(await newDataset(t.url, carol.key, { dataset_name: `n${i}`, public: true }));
  const sample = await newSample(t.url, carol.key, { sample_name: 'node private' });
  const upload = await formUpload(t.url, carol.key, dataset, [{ name: 'a.txt', data: Buffer.from('node') }]);
  expect(upload.status).toBe(201);
  const thumb = await gql(
    t.url,
    carol.key,
    'mutation($d: ID!, $i: String!) { addDatasetThumbnail(dataset: $d, image: $i) { nodeId id } }',
    { d: dataset, i: (await png()).toString('base64') },
  );
  expect(thumb.errors).toBeUndefined();
  const instrument = await gql(
    t.url,
    admin.key,
    'mutation($n: String!) { createInstrument(input: { instrumentName: $n }) { nodeId } }',
    { n: unique('node instrument') },
  );
  expect(instrument.errors).toBeUndefined();
  const join = await gql(
    t.url,
    bob.key,
    'mutation($p: String!) { requestToJoinProject(project: $p) { nodeId } }',
    { p: project.projectId },
  );
  expect(join.errors).toBeUndefined();
  const deletion = await gql(
    t.url,
    carol.key,
    'mutation($id: ID!) { requestDeletion(id: $id, reason: "node") { nodeId } }',
    { id: sample },
  );
  expect(deletion.errors).toBeUndefined();
  const gone = await newDataset(t.url, carol.key, { dataset_name: 'node gone' });
  const removed = await gql(t.url, admin.key, 'mutation($id: ID!) { deleteResource(id: $id, force: true) }', {
    id: gone,
  });
  expect(removed.errors).toBeUndefined();
  await t.app.webhooks.drain();

  records.set('Dataset', {
    id: await nodeIdOf(carol.key, 'query($id: ID!) { dataset(id: $id) { nodeId } }', 'dataset.nodeId', {
      id: dataset,
    }),
    bobReads: false,
  });
  records.set('Sample', {
    id: await nodeIdOf(carol.key, 'query($id: ID!) { sample(id: $id) { nodeId } }', 'sample.nodeId', {
      id: sample,
    }),
    bobReads: false,
  });
  records.set('Project', {
    id: await nodeIdOf(bob.key, 'query($id: String!) { project(id: $id) { nodeId } }', 'project.nodeId', {
      id: project.uniqueId,
    }),
    bobReads: true,
  });
  records.set('Instrument', { id: instrument.data.createInstrument.nodeId, bobReads: true });
  records.set('User', {
    id: await nodeIdOf(bob.key, 'query($id: String!) { user(id: $id) { nodeId } }', 'user.nodeId', {
      id: carol.user.uniqueId,
    }),
    bobReads: true,
  });
  records.set('File', {
    id: await nodeIdOf(carol.key, 'query($id: ID!) { file(id: $id) { nodeId } }', 'file.nodeId', {
      id: upload.body.mfid,
    }),
    bobReads: false,
  });
  records.set('Thumbnail', { id: thumb.data.addDatasetThumbnail.nodeId, bobReads: false });
  records.set('IngestionRequest', {
    id: await nodeIdOf(
      carol.key,
      'query($id: ID) { ingestionRequests(datasetId: $id) { nodes { nodeId } } }',
      'ingestionRequests.nodes.0.nodeId',
      { id: dataset },
    ),
    bobReads: false,
  });
  records.set('JoinRequest', { id: join.data.requestToJoinProject.nodeId, bobReads: true });
  records.set('DeletionRequest', { id: deletion.data.requestDeletion.nodeId, bobReads: false });
  records.set('DeletionAuditEntry', {
    id: await nodeIdOf(
      admin.key,
      'query($id: String) { deletionAudit(resourceId: $id) { nodes { nodeId } } }',
      'deletionAudit.nodes.0.nodeId',
      { id: gone },
    ),
    bobReads: false,
  });
  records.set('ResourceEvent', {
    id: await nodeIdOf(
      carol.key,
      'query($id: ID!) { dataset(id: $id) { history(first: 1) { nodes { nodeId } } } }',
      'dataset.history.nodes.0.nodeId',
      { id: dataset },
    ),
    bobReads: false,
  });
  // a draft publication of carol's private dataset: hers to read, not bob's
  records.set('Publication', {
    id: await nodeIdOf(
      carol.key,
      'mutation($ids: [ID!]!, $input: PublicationMetadataInput!) { createPublication(datasetIds: $ids, input: $input) { nodeId } }',
      'createPublication.nodeId',
      {
        ids: [dataset],
        input: {
          title: 'node draft',
          description: 'A draft publication the Node test makes, with a description long enough.',
          creators: [{ name: 'Node, Carol' }],
          license: 'CC0-1.0',
        },
      },
    ),
    bobReads: false,
  });
  records.set('ApiKeyInfo', {
    id: await nodeIdOf(carol.key, '{ me { apiKey { nodeId } } }', 'me.apiKey.nodeId'),
    bobReads: false,
  });
  records.set('WebhookDelivery', {
    id: await nodeIdOf(
      carol.key,
      'query($id: ID!) { webhookDeliveries(id: $id) { nodeId } }',
      'webhookDeliveries.0.nodeId',
      { id: fromGlobalId(records.get('Webhook')!.id)!.key },
    ),
    bobReads: false,
  });
});

afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve));
  await t.close();
});

/** Who may read each record besides bob where he may: its owner carol, or an admin. */
const reader = (type: string) => (['DeletionRequest', 'DeletionAuditEntry'].includes(type) ? admin : carol);

test('every type implementing Node is covered here, and refetches by its nodeId as its reader sees it', async () => {
  const node = await gql(t.url, bob.key, '{ __type(name: "Node") { kind possibleTypes { name } } }');
  expect(node.data.__type.kind).toBe('INTERFACE');
  expect(node.data.__type.possibleTypes.map((p: { name: string }) => p.name).sort()).toEqual(
    [...records.keys()].sort(),
  );
  for (const [type, { id }] of records) {
    expect(fromGlobalId(id)?.type).toBe(type);
    const res = await gql(t.url, reader(type).key, NODE, { id });
    expect(res.errors).toBeUndefined();
    expect(res.data.node).toEqual({ __typename: type, nodeId: id });
  }
  // the single read's fields answer as on the type's own query, capabilities included
  const ds = await gql(
    t.url,
    carol.key,
    'query($id: ID!) { node(id: $id) { ... on Dataset { uniqueId datasetName owner { uniqueId } capabilities { canUpdate } } } }',
    { id: records.get('Dataset')!.id },
  );
  expect(ds.data.node).toEqual({
    uniqueId: fromGlobalId(records.get('Dataset')!.id)!.key,
    datasetName: 'node private',
    owner: { uniqueId: carol.user.uniqueId },
    capabilities: { canUpdate: true },
  });
});

test('what bob may not read is null, exactly like a never-issued id of the same type; what he may read is there', async () => {
  for (const [type, { id, bobReads }] of records) {
    const res = await gql(t.url, bob.key, NODE, { id });
    expect(res.errors).toBeUndefined();
    if (bobReads) {
      expect(res.data.node).toEqual({ __typename: type, nodeId: id });
      continue;
    }
    expect(res).toMatchObject({ status: 200, data: { node: null } });
    const key = fromGlobalId(id)!.key;
    const fresh = toGlobalId(type, /^\d+$/.test(key) ? '2147483000' : newMfid());
    const missing = await gql(t.url, bob.key, NODE, { id: fresh });
    expect(JSON.stringify(missing.data)).toBe(JSON.stringify(res.data));
    expect(missing.errors).toBeUndefined();
  }
  // in a list: nulls in place, in order
  const ids = [...records.values()].map((r) => r.id);
  const many = await gql(t.url, bob.key, NODES, { ids });
  expect(many.errors).toBeUndefined();
  expect(many.data.nodes.map((n: { nodeId: string } | null) => n?.nodeId ?? null)).toEqual(
    [...records.values()].map((r) => (r.bobReads ? r.id : null)),
  );
});

test('a well-formed id of the wrong type is null; malformed ids and too many ids are BAD_USER_INPUT', async () => {
  const dataset = fromGlobalId(records.get('Dataset')!.id)!.key;
  // a dataset's MFID under another MFID-keyed type: no such record
  for (const type of ['Sample', 'Project', 'File', 'Webhook']) {
    const res = await gql(t.url, carol.key, NODE, { id: toGlobalId(type, dataset) });
    expect(res.errors).toBeUndefined();
    expect(res.data.node).toBeNull();
  }
  const malformed = [
    dataset, // an MFID is not a global id
    toGlobalId('Nothing', dataset), // no such type
    toGlobalId('Thumbnail', dataset), // a key of another form than the type's
    toGlobalId('Dataset', dataset.toUpperCase()),
    toGlobalId('Thumbnail', '0'),
    toGlobalId('Thumbnail', '2147483648'),
    toGlobalId('Dataset', ''),
    `${toGlobalId('Dataset', dataset)}=`, // padding
    toGlobalId('Dataset', dataset).replace(/-/g, '+').replace(/_/g, '/') + '+',
    Buffer.from(`Dataset:${dataset}`).toString('base64url').slice(0, -1), // stray bits
    Buffer.from([0x44, 0xff, 0x3a, 0x31]).toString('base64url'), // not UTF-8
    'x'.repeat(300),
    '',
  ];
  for (const id of malformed) {
    const res = await gql(t.url, carol.key, NODE, { id });
    expect(res.status).toBe(200);
    expect(res.data?.node ?? null).toBeNull();
    expect(res.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  }
  const mixed = await gql(t.url, carol.key, NODES, { ids: [records.get('Dataset')!.id, 'nope'] });
  expect(mixed.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  expect(mixed.errors?.[0]?.message).toMatch(/ids\[1\]/);

  const max = t.app.config.limits.graphqlListMax;
  const ids = Array.from({ length: max + 1 }, () => toGlobalId('Dataset', newMfid()));
  const tooMany = await gql(t.url, carol.key, NODES, { ids });
  expect(tooMany.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  expect(tooMany.errors?.[0]?.message).toMatch(new RegExp(`at most ${max}`));
  const atMax = await gql(t.url, carol.key, NODES, { ids: ids.slice(0, max) });
  expect(atMax.errors).toBeUndefined();
  expect(atMax.data.nodes).toEqual(Array(max).fill(null));
});

test('nodes of a page of datasets (with their owners) and of every other type cost one statement per type', async () => {
  const ids = datasets.map((d) => toGlobalId('Dataset', d));
  const doc =
    'query($ids: [ID!]!) { nodes(ids: $ids) { nodeId ... on Dataset { datasetName owner { username } project { projectId } } } }';
  const counts: number[] = [];
  for (const n of [2, 6]) {
    await gql(t.url, bob.key, doc, { ids: ids.slice(0, n) });
    t.queries.length = 0;
    const res = await gql(t.url, bob.key, doc, { ids: ids.slice(0, n) });
    expect(res.errors).toBeUndefined();
    expect(res.data.nodes).toHaveLength(n);
    expect(res.data.nodes.every((x: unknown) => x !== null)).toBe(true);
    counts.push(t.queries.filter((q) => /\bfrom dataset\b/.test(q)).length);
    // the page's rows with their owners and projects: one statement, the visibility in it
    expect(t.queries.filter((q) => /\bfrom dataset d\b/.test(q))).toHaveLength(1);
  }
  expect(counts[0]).toBe(counts[1]);

  // every type at once, as the admin (who reads them all, and has API keys of their own): one statement each
  const all = [...records].map(([type, r]) => (type === 'ApiKeyInfo' ? '' : r.id));
  all[all.indexOf('')] = await nodeIdOf(admin.key, '{ me { apiKey { nodeId } } }', 'me.apiKey.nodeId');
  await gql(t.url, admin.key, NODES, { ids: all });
  t.queries.length = 0;
  const res = await gql(t.url, admin.key, NODES, { ids: all });
  expect(res.errors).toBeUndefined();
  expect(res.data.nodes.every((x: unknown) => x !== null)).toBe(true);
  expect(t.queries.length).toBeLessThanOrEqual(records.size);
});
