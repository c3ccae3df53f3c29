import { startTestApp, type TestApp } from '../support/app';
import { gql, rest } from '../support/http';
import { addMember, makeProject, makeUser, unique, type TestUser } from '../support/factories';
import { newDataset, newSample } from '../support/catalog';
import { newMfid } from '../../src/core/ids';

let t: TestApp;
let owner: TestUser;
let stranger: TestUser;
let admin: TestUser;
beforeAll(async () => {
  t = await startTestApp();
  [owner, stranger, admin] = await Promise.all([
    makeUser(t.app),
    makeUser(t.app),
    makeUser(t.app, { admin: true }),
  ]);
});
afterAll(() => t.close());

describe('samples', () => {
  test('create with a client MFID and a flexible owner, read with embedded datasets, update', async () => {
    const project = await makeProject(t.app, owner.user);
    const id = newMfid();
    const created = await rest(t.url, 'POST', '/samples', {
      key: admin.key,
      body: {
        unique_id: id,
        sample_name: 'TF-1',
        sample_type: 'thin film',
        description: 'first',
        project_id: project.projectId,
        owner: owner.user.username,
        public: false,
        scientific_metadata: { thickness_nm: 40 },
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      unique_id: id,
      sample_name: 'TF-1',
      sample_type: 'thin film',
      owner_orcid: owner.user.uniqueId,
      project_id: project.projectId,
      resource_type: 'sample',
    });
    const ds = await newDataset(t.url, owner.key, { dataset_name: 'on TF-1', measurement: 'xrd' });
    expect((await rest(t.url, 'POST', `/datasets/${ds}/samples/${id}`, { key: owner.key })).status).toBe(201);

    const read = await rest(t.url, 'GET', `/samples/${id}`, {
      key: owner.key,
      query: { include_metadata: 'True' },
    });
    expect(read.status).toBe(200);
    expect(read.body.datasets).toEqual([{ unique_id: ds, dataset_name: 'on TF-1', measurement: 'xrd' }]);
    expect(read.body.scientific_metadata).toEqual({ thickness_nm: 40 });
    expect(read.body.owner).toMatchObject({ unique_id: owner.user.uniqueId, email: owner.user.email });
    expect(read.body.capabilities).toMatchObject({ can_update: true, can_delete: false });
    expect(read.body.deletion_request).toBeNull();
    const noDatasets = await rest(t.url, 'GET', `/samples/${id}`, {
      key: owner.key,
      query: { include_datasets: 'False' },
    });
    expect(noDatasets.body.datasets).toBeUndefined();

    const patched = await rest(t.url, 'PATCH', `/samples/${id}`, {
      key: owner.key,
      body: { description: 'second' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.description).toBe('second');
    const pub = await rest(t.url, 'PATCH', `/samples/${id}`, { key: owner.key, body: { public: true } });
    expect(pub.body.public).toBe(true);
  });

  test('bad input is rejected naming the field and changes nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ sample_name: 'x', timestamp: 'yesterday' }, 'timestamp'],
      [{ sample_name: 'x', unique_id: 'nope' }, 'unique_id'],
      [{ sample_name: 'x', colour: 'red' }, 'colour'],
      [{ sample_name: 'x', owner: 'a', owner_orcid: 'b' }, 'owner'],
      [{ sample_name: 'x', scientific_metadata: [1, 2] }, 'scientific_metadata'],
      [{ sample_name: 'x', project_id: unique('nope') }, 'project_id'],
    ];
    for (const [body, field] of cases) {
      const res = await rest(t.url, 'POST', '/samples', { key: owner.key, body });
      expect(res.status).toBe(422);
      expect(res.body.fields.map((f: { field: string }) => f.field)).toContain(field);
    }
    const id = await newSample(t.url, owner.key);
    const bad = await rest(t.url, 'PATCH', `/samples/${id}`, { key: owner.key, body: { owner_orcid: 'x' } });
    expect(bad.status).toBe(422);
    const dup = await rest(t.url, 'POST', '/samples', { key: owner.key, body: { unique_id: id } });
    expect(dup.status).toBe(409);
  });

  test('visibility works like datasets: strangers see nothing, members see project samples', async () => {
    const project = await makeProject(t.app, owner.user);
    const member = await makeUser(t.app);
    await addMember(t.app, project, member.user, 'viewer');
    const tag = unique('vis');
    const id = await newSample(t.url, owner.key, { sample_name: tag, project_id: project.projectId });
    expect((await rest(t.url, 'GET', `/samples/${id}`, { key: stranger.key })).status).toBe(404);
    expect(
      (await rest(t.url, 'PATCH', `/samples/${id}`, { key: stranger.key, body: { description: 'x' } }))
        .status,
    ).toBe(404);
    const strangerList = await rest(t.url, 'GET', '/samples', {
      key: stranger.key,
      query: { sample_name: tag },
    });
    expect(strangerList.body).toEqual({ items: [], next_cursor: null, total: 0, total_exact: true });
    const memberRead = await rest(t.url, 'GET', `/samples/${id}`, { key: member.key });
    expect(memberRead.status).toBe(200);
    expect(memberRead.body.capabilities.can_update).toBe(false);
    const viewerPatch = await rest(t.url, 'PATCH', `/samples/${id}`, {
      key: member.key,
      body: { description: 'x' },
    });
    expect(viewerPatch.status).toBe(403);
    const memberList = await rest(t.url, 'GET', '/samples', {
      key: member.key,
      query: { project_id: project.projectId },
    });
    expect(memberList.body.items.map((s: { unique_id: string }) => s.unique_id)).toEqual([id]);
  });

  test('list: keyset envelope newest first, filters, count with limit=1', async () => {
    const project = await makeProject(t.app, owner.user);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push(
        await newSample(t.url, owner.key, { project_id: project.projectId, sample_type: i < 2 ? 'A' : 'B' }),
      );
    }
    const page1 = await rest(t.url, 'GET', '/samples', {
      key: owner.key,
      query: { project_id: project.projectId, limit: 2 },
    });
    expect(page1.body.items.map((s: { unique_id: string }) => s.unique_id)).toEqual([ids[2], ids[1]]);
    expect(page1.body.total).toBe(3);
    const page2 = await rest(t.url, 'GET', '/samples', {
      key: owner.key,
      query: { project_id: project.projectId, limit: 2, cursor: page1.body.next_cursor },
    });
    expect(page2.body.items.map((s: { unique_id: string }) => s.unique_id)).toEqual([ids[0]]);
    expect(page2.body.next_cursor).toBeNull();
    const count = await rest(t.url, 'GET', '/samples', {
      key: owner.key,
      query: { project_id: project.projectId, sample_type: 'A', limit: 1 },
    });
    expect(count.body.total).toBe(2);
    const withLinks = await rest(t.url, 'GET', '/samples', {
      key: owner.key,
      query: { project_id: project.projectId, include_links: 'True', include_metadata: 'True' },
    });
    expect(withLinks.body.items[0]).toMatchObject({ links: [], scientific_metadata: null });
  });

  test('GraphQL: create, read with fields, list in a project', async () => {
    const project = await makeProject(t.app, owner.user);
    const created = await gql(
      t.url,
      owner.key,
      `mutation($input: CreateSampleInput!) { createSample(input: $input) { uniqueId sampleName ownerOrcid project { projectId } } }`,
      { input: { sampleName: 'G1', projectId: project.projectId, scientificMetadata: { a: { b: 1 } } } },
    );
    expect(created.errors).toBeUndefined();
    const id = created.data.createSample.uniqueId;
    const read = await gql(
      t.url,
      owner.key,
      `query($id: ID!, $p: String!) {
        sample(id: $id) { sampleName scientificMetadata b: scientificMetadata(path: "a.b") capabilities { canUpdate } }
        project(id: $p) {
          samples(first: 5) { totalCount nodes { uniqueId } }
          hit: samples(filter: { metadata: [{ path: "a.b", op: eq, value: 1 }] }) { totalCount }
          miss: samples(filter: { metadata: [{ path: "a.b", op: gt, value: 1 }] }) { totalCount }
        }
      }`,
      { id, p: project.projectId },
    );
    expect(read.errors).toBeUndefined();
    expect(read.data.sample).toEqual({
      sampleName: 'G1',
      scientificMetadata: { a: { b: 1 } },
      b: 1,
      capabilities: { canUpdate: true },
    });
    expect(read.data.project.samples).toEqual({ totalCount: 1, nodes: [{ uniqueId: id }] });
    expect(read.data.project.hit.totalCount).toBe(1);
    expect(read.data.project.miss.totalCount).toBe(0);
    const hidden = await gql(t.url, stranger.key, `query($id: ID!) { sample(id: $id) { uniqueId } }`, { id });
    expect(hidden.errors?.[0].extensions?.code).toBe('NOT_FOUND');
  });
});
