import { startTestApp, type TestApp } from '../support/app';
import { gql, rest } from '../support/http';
import { makeUser, type TestUser } from '../support/factories';
import { formUpload, makeDataset } from '../support/files';

describe('files through GraphQL', () => {
  let t: TestApp;
  let owner: TestUser;
  let stranger: TestUser;
  beforeAll(async () => {
    t = await startTestApp();
    owner = await makeUser(t.app);
    stranger = await makeUser(t.app);
  });
  afterAll(() => t.close());

  test('Dataset.files is a connection loaded in one batch whatever the page size', async () => {
    const ids = [];
    for (let i = 0; i < 4; i++) {
      const ds = await makeDataset(t, owner, `gql files ${i}`);
      ids.push(ds);
      for (let j = 0; j < 3; j++) {
        await formUpload(t.url, owner.key, ds, [{ name: `f${j}.txt`, data: Buffer.from(`${ds}-${j}`) }]);
      }
    }
    // only the owner's: other test files write public datasets into the same database meanwhile
    const query = `{ datasets(first: 4, filter: { ownerOrcid: "${owner.user.uniqueId}" }) { nodes { uniqueId files(first: 2) { totalCount pageInfo { hasNextPage endCursor }
      nodes { uniqueId filename datasetId stored downloadUrl dataset { uniqueId } } } } } }`;
    t.queries.length = 0;
    const r = await gql(t.url, owner.key, query);
    expect(r.errors).toBeUndefined();
    const fileQueries = t.queries.filter((q) => /associated_file/.test(q));
    expect(fileQueries.length).toBeLessThanOrEqual(2);
    for (const node of r.data.datasets.nodes) {
      expect(node.files.totalCount).toBe(3);
      expect(node.files.nodes.map((f: { filename: string }) => f.filename)).toEqual(['f2.txt', 'f1.txt']);
      expect(node.files.pageInfo.hasNextPage).toBe(true);
      expect(node.files.nodes[0].dataset.uniqueId).toBe(node.uniqueId);
      expect(node.files.nodes[0].downloadUrl).toContain('/api/v2/signed/objects/');
      const next = await gql(
        t.url,
        owner.key,
        `{ dataset(id: "${node.uniqueId}") { files(first: 2, after: "${node.files.pageInfo.endCursor}") { nodes { filename } pageInfo { hasNextPage } } } }`,
      );
      expect(next.data.dataset.files).toEqual({
        nodes: [{ filename: 'f0.txt' }],
        pageInfo: { hasNextPage: false },
      });
    }
  });

  test('file, files, remote files, updates and deletion', async () => {
    const ds = await makeDataset(t, owner);
    const remote = await gql(
      t.url,
      owner.key,
      `mutation ($d: ID!) { addRemoteFile(dataset: $d, input: { filename: "x/run.h5", storageBackend: "globus", accessNote: "ask" }) {
        uniqueId filename storageBackend storagePath accessNote stored } }`,
      { d: ds },
    );
    expect(remote.data.addRemoteFile).toMatchObject({
      filename: 'run.h5',
      storageBackend: 'globus',
      storagePath: null,
      stored: false,
    });
    const id = remote.data.addRemoteFile.uniqueId;
    const upd = await gql(
      t.url,
      owner.key,
      `mutation ($id: ID!) { updateFile(id: $id, input: { storagePath: "/~/run.h5" }) { storagePath } }`,
      { id },
    );
    expect(upd.data.updateFile.storagePath).toBe('/~/run.h5');
    const bad = await gql(
      t.url,
      owner.key,
      `mutation ($d: ID!) { addRemoteFile(dataset: $d, input: { filename: "a", storageBackend: "gcs" }) { uniqueId } }`,
      { d: ds },
    );
    expect(bad.errors![0].extensions?.fields?.[0].field).toBe('storage_backend');

    expect(
      (await gql(t.url, stranger.key, `{ file(id: "${id}") { uniqueId } }`)).errors![0].extensions?.code,
    ).toBe('NOT_FOUND');
    const list = await gql(
      t.url,
      owner.key,
      `{ files(datasetId: "${ds}") { totalCount nodes { uniqueId } } }`,
    );
    expect(list.data.files).toEqual({ totalCount: 1, nodes: [{ uniqueId: id }] });

    const strangerDelete = await gql(t.url, stranger.key, `mutation { deleteFile(id: "${id}") }`);
    expect(strangerDelete.errors![0].extensions?.code).toBe('NOT_FOUND');
    expect((await gql(t.url, owner.key, `mutation { deleteFile(id: "${id}") }`)).data.deleteFile).toBe(id);
    expect((await rest(t.url, 'GET', `/files/${id}`, { key: owner.key })).status).toBe(404);
  });
});
