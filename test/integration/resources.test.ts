import { startTestApp, type TestApp } from '../support/app';
import { gql, rest } from '../support/http';
import { makeProject, makeUser, unique, type TestUser } from '../support/factories';
import { newDataset, newSample } from '../support/catalog';

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

describe('generic resources', () => {
  test('GET /resources/{mfid} detects the type and honours the include flags', async () => {
    const project = await makeProject(t.app, owner.user);
    const ds = await newDataset(t.url, owner.key, { dataset_name: 'generic', project_id: project.projectId });
    const sample = await newSample(t.url, owner.key, { sample_name: 'gs' });
    await rest(t.url, 'POST', `/datasets/${ds}/samples/${sample}`, { key: owner.key });
    await rest(t.url, 'PATCH', `/resources/${ds}/metadata`, { key: owner.key, body: { k: 'v' } });
    const inst = await rest(t.url, 'POST', '/instruments', {
      key: admin.key,
      body: { instrument_name: unique('Inst') },
    });

    const read = await rest(t.url, 'GET', `/resources/${ds}`, {
      key: owner.key,
      query: { include_metadata: 'True', include_links: 'True' },
    });
    expect(read.body).toMatchObject({
      unique_id: ds,
      resource_type: 'dataset',
      project_id: project.projectId,
      scientific_metadata: { k: 'v' },
      links: [{ unique_id: sample, relationship: 'associated' }],
      owner: { unique_id: owner.user.uniqueId },
    });
    const s = await rest(t.url, 'GET', `/resources/${sample}`, { key: owner.key });
    expect(s.body).toMatchObject({ resource_type: 'sample', datasets: [{ unique_id: ds }] });
    const s2 = await rest(t.url, 'GET', `/resources/${sample}`, {
      key: owner.key,
      query: { include_datasets: 'False' },
    });
    expect(s2.body.datasets).toBeUndefined();
    expect(
      (await rest(t.url, 'GET', `/resources/${project.uniqueId}`, { key: stranger.key })).body.resource_type,
    ).toBe('project');
    expect(
      (await rest(t.url, 'GET', `/resources/${inst.body.unique_id}`, { key: stranger.key })).body
        .resource_type,
    ).toBe('instrument');
    expect((await rest(t.url, 'GET', `/resources/${ds}/type`, { key: owner.key })).body).toBe('dataset');

    // explicit types, unknown ids, unreadable records, unsupported types
    expect(
      (await rest(t.url, 'GET', `/resources/${ds}`, { key: owner.key, query: { resource_type: 'dataset' } }))
        .status,
    ).toBe(200);
    expect(
      (await rest(t.url, 'GET', `/resources/${ds}`, { key: owner.key, query: { resource_type: 'sample' } }))
        .status,
    ).toBe(404);
    const unsupported = await rest(t.url, 'GET', `/resources/${ds}`, {
      key: owner.key,
      query: { resource_type: 'file' },
    });
    expect(unsupported.status).toBe(422);
    expect(unsupported.body.fields[0].field).toBe('resource_type');
    expect(
      (await rest(t.url, 'GET', '/resources/0000000000000000000000000m', { key: owner.key })).status,
    ).toBe(404);
    expect((await rest(t.url, 'GET', `/resources/${ds}`, { key: stranger.key })).status).toBe(404);
    expect((await rest(t.url, 'GET', `/resources/${ds}/type`, { key: stranger.key })).status).toBe(404);
    // projects and instruments cannot be linked
    const link = await rest(t.url, 'POST', '/resources/links', {
      key: owner.key,
      body: { parent_mfid: project.uniqueId, child_mfid: ds },
    });
    expect(link.status).toBe(422);
    expect(
      await (
        await rest(t.url, 'GET', `/resources/${project.uniqueId}/links`, { key: owner.key })
      ).body,
    ).toEqual([]);
  });

  test('GraphQL resource(id) and resourceType(id)', async () => {
    const ds = await newDataset(t.url, owner.key, { dataset_name: 'node' });
    const sample = await newSample(t.url, owner.key, { sample_name: 'node s' });
    const res = await gql(
      t.url,
      owner.key,
      `query($a: ID!, $b: ID!) {
        a: resource(id: $a) { __typename ... on Dataset { datasetName capabilities { canUpdate } } }
        b: resource(id: $b) { __typename ... on Sample { sampleName } }
        t: resourceType(id: $b)
      }`,
      { a: ds, b: sample },
    );
    expect(res.errors).toBeUndefined();
    expect(res.data).toEqual({
      a: { __typename: 'Dataset', datasetName: 'node', capabilities: { canUpdate: true } },
      b: { __typename: 'Sample', sampleName: 'node s' },
      t: 'sample',
    });
    const hidden = await gql(t.url, stranger.key, `query($a: ID!) { resource(id: $a) { __typename } }`, {
      a: ds,
    });
    expect(hidden.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    const wrongType = await gql(
      t.url,
      owner.key,
      `query($a: ID!) { resource(id: $a, type: sample) { __typename } }`,
      { a: ds },
    );
    expect(wrongType.errors?.[0].extensions?.code).toBe('NOT_FOUND');
  });
});
