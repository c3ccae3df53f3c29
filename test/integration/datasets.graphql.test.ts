import { startTestApp, type TestApp } from '../support/app';
import { gql } from '../support/http';
import { addMember, makeProject, makeUser, unique, type TestUser } from '../support/factories';
import type { Project } from '../../src/modules/project/project.entity';

let t: TestApp;
let admin: TestUser;
let alice: TestUser;
let stranger: TestUser;
let project: Project;
let instrumentId: string;

const CREATE = `mutation($input: CreateDatasetInput!) { createDataset(input: $input) { uniqueId datasetName ownerOrcid projectId project { uniqueId projectId } instrument { instrumentName } } }`;
const READ = `query($id: ID!) { dataset(id: $id) { uniqueId datasetName public owner { uniqueId email } capabilities { canUpdate canChangeStatus } keywords } }`;
const UPDATE = `mutation($id: ID!, $input: UpdateDatasetInput!) { updateDataset(id: $id, input: $input) { uniqueId measurement public } }`;

beforeAll(async () => {
  t = await startTestApp();
  admin = await makeUser(t.app, { admin: true });
  alice = await makeUser(t.app);
  stranger = await makeUser(t.app);
  project = await makeProject(t.app, admin.user);
  await addMember(t.app, project, alice.user, 'contributor');
  const inst = await gql(
    t.url,
    admin.key,
    `mutation($n: String!) { createInstrument(input: { instrumentName: $n }) { uniqueId } }`,
    { n: unique('Gql Instrument') },
  );
  instrumentId = inst.data.createInstrument.uniqueId;
});
afterAll(() => t.close());

test('create, read, update through GraphQL', async () => {
  const created = await gql(t.url, alice.key, CREATE, {
    input: {
      datasetName: 'gql one',
      projectId: project.projectId,
      instrumentMfid: instrumentId,
      measurement: 'SEM',
    },
  });
  expect(created.errors).toBeUndefined();
  const ds = created.data.createDataset;
  expect(ds).toMatchObject({
    datasetName: 'gql one',
    ownerOrcid: alice.user.uniqueId,
    projectId: project.projectId,
    project: { uniqueId: project.uniqueId },
  });
  const read = await gql(t.url, alice.key, READ, { id: ds.uniqueId });
  expect(read.data.dataset).toMatchObject({
    public: false,
    owner: { uniqueId: alice.user.uniqueId, email: alice.user.email },
    capabilities: { canUpdate: true, canChangeStatus: false },
  });
  const updated = await gql(t.url, alice.key, UPDATE, { id: ds.uniqueId, input: { measurement: 'TEM' } });
  expect(updated.data.updateDataset.measurement).toBe('TEM');
});

test('errors carry codes and name the field', async () => {
  const conflict = await gql(t.url, alice.key, CREATE, {
    input: { projectId: project.projectId, projectMfid: (await makeProject(t.app, admin.user)).uniqueId },
  });
  expect(conflict.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
  expect(conflict.errors?.[0].extensions?.fields?.map((f) => f.field).sort()).toEqual([
    'project_id',
    'project_mfid',
  ]);
  const badId = await gql(t.url, alice.key, CREATE, { input: { uniqueId: 'nope' } });
  expect(badId.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
  const ds = (await gql(t.url, alice.key, CREATE, { input: { instrumentMfid: instrumentId } })).data
    .createDataset;
  const change = await gql(t.url, alice.key, UPDATE, { id: ds.uniqueId, input: { instrumentName: 'Other' } });
  expect(change.errors?.[0].extensions?.code).toBe('CONFLICT');
  const unknownField = await gql(t.url, alice.key, UPDATE, { id: ds.uniqueId, input: { description: 'x' } });
  expect(unknownField.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
  const hidden = await gql(t.url, stranger.key, READ, { id: ds.uniqueId });
  expect(hidden.errors?.[0].extensions?.code).toBe('NOT_FOUND');
  expect(hidden.data).toBeFalsy();
});

test('the connection pages with cursors and filters; capabilities are null in lists', async () => {
  const session = unique('gsess');
  for (let i = 0; i < 5; i++) {
    await gql(t.url, alice.key, CREATE, {
      input: { datasetName: `n${i}`, sessionName: session, projectId: project.projectId },
    });
  }
  const q = `query($after: String, $f: DatasetFilterInput) { datasets(first: 2, after: $after, filter: $f) { totalCount pageInfo { hasNextPage endCursor } edges { cursor projectRelation node { datasetName capabilities { canRead } } } } }`;
  const names: string[] = [];
  let after: string | null = null;
  let pages = 0;
  do {
    const res: any = await gql(t.url, alice.key, q, {
      after,
      f: { sessionName: session, projectId: project.projectId },
    });
    expect(res.errors).toBeUndefined();
    expect(res.data.datasets.totalCount).toBe(5);
    for (const e of res.data.datasets.edges) {
      names.push(e.node.datasetName);
      expect(e.node.capabilities).toBeNull();
      expect(e.projectRelation).toBe('assigned');
    }
    after = res.data.datasets.pageInfo.hasNextPage ? res.data.datasets.pageInfo.endCursor : null;
    pages++;
  } while (after);
  expect(pages).toBe(3);
  expect(names).toEqual(['n4', 'n3', 'n2', 'n1', 'n0']);
  const strangers = await gql(
    t.url,
    stranger.key,
    `{ datasets(filter: { sessionName: "${session}" }) { totalCount nodes { uniqueId } } }`,
  );
  expect(strangers.data.datasets).toEqual({ totalCount: 0, nodes: [] });
  const tooMany = await gql(t.url, alice.key, '{ datasets(first: 5000) { totalCount } }');
  expect(tooMany.errors?.[0].message).toMatch(/first/);
});

test('a dataset list with nested owner, project and instrument costs the same SQL for 5 or 40 rows', async () => {
  const session = unique('nplus1');
  const owners = [alice, await makeUser(t.app), await makeUser(t.app)];
  for (const o of owners.slice(1)) await addMember(t.app, project, o.user, 'contributor');
  for (let i = 0; i < 40; i++) {
    const o = owners[i % owners.length];
    await gql(t.url, o.key, CREATE, {
      input: {
        datasetName: `q${i}`,
        sessionName: session,
        projectId: project.projectId,
        instrumentMfid: instrumentId,
      },
    });
  }
  const query = `query($n: Int!, $s: String!) { datasets(first: $n, filter: { sessionName: $s }) { totalCount nodes { uniqueId datasetName ownerOrcid owner { username } project { projectId title } projectId instrument { instrumentName } instrumentName keywords } } }`;
  const statements = async (n: number) => {
    await gql(t.url, admin.key, query, { n, s: session }); // warm-up outside the count
    t.queries.length = 0;
    const res = await gql(t.url, admin.key, query, { n, s: session });
    expect(res.errors).toBeUndefined();
    expect(res.data.datasets.nodes).toHaveLength(n);
    return t.queries.length;
  };
  const small = await statements(5);
  const large = await statements(40);
  expect(large).toBe(small);
  expect(large).toBeLessThanOrEqual(10);
});

test('depth and complexity limits reject abusive queries', async () => {
  const shallow = await startTestApp({ GRAPHQL_MAX_DEPTH: '3' });
  try {
    const deep = `{ projects { nodes { datasets { nodes { owner { username } } } } } }`;
    const tooDeep = await gql(shallow.url, alice.key, deep);
    expect(tooDeep.errors?.[0].extensions?.code).toBe('QUERY_TOO_DEEP');
    const fragment = `{ projects { ...P } } fragment P on ProjectConnection { nodes { datasets { nodes { uniqueId } } } }`;
    expect((await gql(shallow.url, alice.key, fragment)).errors?.[0].extensions?.code).toBe('QUERY_TOO_DEEP');
    const introspection = await gql(
      shallow.url,
      null,
      '{ __schema { types { fields { type { ofType { name } } } } } }',
    );
    expect(introspection.errors).toBeUndefined();
  } finally {
    await shallow.close();
  }
  const wide = `{ projects(first: 1000) { nodes { datasets(first: 1000) { nodes { uniqueId owner { username } } } } } }`;
  const tooComplex = await gql(t.url, alice.key, wide);
  expect(tooComplex.errors?.[0].extensions?.code).toBe('QUERY_TOO_COMPLEX');
});
