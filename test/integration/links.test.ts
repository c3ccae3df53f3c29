import { startTestApp, type TestApp } from '../support/app';
import { gql, rest } from '../support/http';
import { grant, makeUser, type TestUser } from '../support/factories';
import { newDataset, newSample } from '../support/catalog';

let t: TestApp;
let owner: TestUser;
let stranger: TestUser;
beforeAll(async () => {
  t = await startTestApp();
  [owner, stranger] = await Promise.all([makeUser(t.app), makeUser(t.app)]);
});
afterAll(() => t.close());

const links = async (id: string, key = owner.key) =>
  (await rest(t.url, 'GET', `/resources/${id}/links`, { key })).body;

describe('links', () => {
  test('dataset parent/child: direction and relationship_type seen from both ends', async () => {
    const raw = await newDataset(t.url, owner.key, { dataset_name: 'raw' });
    const derived = await newDataset(t.url, owner.key, { dataset_name: 'derived' });
    const made = await rest(t.url, 'POST', '/resources/links', {
      key: owner.key,
      body: { parent_mfid: raw, child_mfid: derived, relationship_type: 'is_derived_from' },
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ kind: 'dataset_dataset', parent_mfid: raw, child_mfid: derived });
    expect(await links(derived)).toEqual([
      {
        unique_id: raw,
        resource_type: 'dataset',
        name: 'raw',
        direction: 'source',
        relationship: 'parent',
        relationship_type: 'is_derived_from',
      },
    ]);
    expect(await links(raw)).toEqual([
      {
        unique_id: derived,
        resource_type: 'dataset',
        name: 'derived',
        direction: 'target',
        relationship: 'child',
        relationship_type: 'is_derived_from',
      },
    ]);
    const children = await rest(t.url, 'GET', `/datasets/${raw}/children`, {
      key: owner.key,
      query: { limit: 1000 },
    });
    expect(children.body.total).toBe(1);
    expect(children.body.items[0].unique_id).toBe(derived);
    expect(children.body.next_cursor).toBeUndefined();
    const parents = await rest(t.url, 'GET', `/datasets/${derived}/parents`, { key: owner.key });
    expect(parents.body.items.map((d: { unique_id: string }) => d.unique_id)).toEqual([raw]);
    // relinking without a type keeps it; unlink in the reverse order
    await rest(t.url, 'POST', `/datasets/${raw}/children/${derived}`, { key: owner.key });
    expect((await links(raw))[0].relationship_type).toBe('is_derived_from');
    const gone = await rest(t.url, 'DELETE', `/resources/${derived}/links/${raw}`, { key: owner.key });
    expect(gone.status).toBe(200);
    expect(await links(raw)).toEqual([]);
    expect(
      (await rest(t.url, 'DELETE', `/resources/${derived}/links/${raw}`, { key: owner.key })).status,
    ).toBe(404);
  });

  test('samples and associations; relationship_type on a dataset-sample link is an error', async () => {
    const wafer = await newSample(t.url, owner.key, { sample_name: 'wafer' });
    const piece = await newSample(t.url, owner.key, { sample_name: 'piece' });
    const ds = await newDataset(t.url, owner.key, { dataset_name: 'scan' });
    const part = await rest(t.url, 'POST', '/resources/links', {
      key: owner.key,
      body: { parent_mfid: wafer, child_mfid: piece, relationship_type: 'is_part_of' },
    });
    expect(part.body.kind).toBe('sample_sample');
    const typedAssoc = await rest(t.url, 'POST', '/resources/links', {
      key: owner.key,
      body: { parent_mfid: piece, child_mfid: ds, relationship_type: 'is_derived_from' },
    });
    expect(typedAssoc.status).toBe(422);
    expect(typedAssoc.body.fields[0].field).toBe('relationship_type');
    const assoc = await rest(t.url, 'POST', '/resources/links', {
      key: owner.key,
      body: { parent_mfid: ds, child_mfid: piece },
    });
    expect(assoc.body).toMatchObject({ kind: 'sample_dataset', dataset_mfid: ds, sample_mfid: piece });
    expect(await links(piece)).toEqual([
      expect.objectContaining({
        unique_id: wafer,
        direction: 'source',
        relationship: 'parent',
        relationship_type: 'is_part_of',
      }),
      expect.objectContaining({
        unique_id: ds,
        resource_type: 'dataset',
        direction: 'undirected',
        relationship: 'associated',
        relationship_type: null,
      }),
    ]);
    expect(await links(ds)).toEqual([
      expect.objectContaining({ unique_id: piece, resource_type: 'sample', direction: 'undirected' }),
    ]);
    const ofSample = await rest(t.url, 'GET', `/samples/${piece}/datasets`, { key: owner.key });
    expect(Array.isArray(ofSample.body)).toBe(true);
    expect(ofSample.body.map((d: { unique_id: string }) => d.unique_id)).toEqual([ds]);
    const ofDataset = await rest(t.url, 'GET', `/datasets/${ds}/samples`, { key: owner.key });
    expect(ofDataset.body).toMatchObject({ total: 1, items: [{ unique_id: piece }] });
    const bySample = await rest(t.url, 'GET', '/datasets', { key: owner.key, query: { sample_mfid: piece } });
    expect(bySample.body.items.map((d: { unique_id: string }) => d.unique_id)).toEqual([ds]);
    const sampleChildren = await rest(t.url, 'GET', `/samples/${wafer}/children`, { key: owner.key });
    expect(sampleChildren.body).toMatchObject({ total: 1, items: [{ unique_id: piece }] });
    // unlink in either order; legacy typed routes are directional
    expect((await rest(t.url, 'DELETE', `/resources/${piece}/links/${ds}`, { key: owner.key })).status).toBe(
      200,
    );
    expect(
      (await rest(t.url, 'DELETE', `/samples/${piece}/children/${wafer}`, { key: owner.key })).status,
    ).toBe(404);
    expect(
      (await rest(t.url, 'DELETE', `/samples/${wafer}/children/${piece}`, { key: owner.key })).status,
    ).toBe(200);
    expect(await links(piece)).toEqual([]);
    // legacy association routes, dataset first
    expect((await rest(t.url, 'POST', `/datasets/${ds}/samples/${wafer}`, { key: owner.key })).status).toBe(
      201,
    );
    expect((await rest(t.url, 'DELETE', `/datasets/${ds}/samples/${wafer}`, { key: owner.key })).status).toBe(
      200,
    );
    expect((await rest(t.url, 'POST', `/datasets/${wafer}/samples/${ds}`, { key: owner.key })).status).toBe(
      404,
    );
  });

  test('cycles and self links are rejected; invalid combinations are errors', async () => {
    const [a, b, c] = [
      await newDataset(t.url, owner.key),
      await newDataset(t.url, owner.key),
      await newDataset(t.url, owner.key),
    ];
    await rest(t.url, 'POST', `/datasets/${a}/children/${b}`, { key: owner.key });
    await rest(t.url, 'POST', `/datasets/${b}/children/${c}`, { key: owner.key });
    expect((await rest(t.url, 'POST', `/datasets/${c}/children/${a}`, { key: owner.key })).status).toBe(409);
    expect((await rest(t.url, 'POST', `/datasets/${b}/children/${a}`, { key: owner.key })).status).toBe(409);
    expect((await rest(t.url, 'POST', `/datasets/${a}/children/${a}`, { key: owner.key })).status).toBe(422);
    const [s1, s2] = [await newSample(t.url, owner.key), await newSample(t.url, owner.key)];
    await rest(t.url, 'POST', `/samples/${s1}/children/${s2}`, { key: owner.key });
    expect((await rest(t.url, 'POST', `/samples/${s2}/children/${s1}`, { key: owner.key })).status).toBe(409);
    const bad = await rest(t.url, 'POST', '/resources/links', {
      key: owner.key,
      body: { parent_mfid: a, child_mfid: b, relationship_type: 'is_cousin_of' },
    });
    expect(bad.status).toBe(422);
    const project = await rest(t.url, 'POST', '/resources/links', {
      key: owner.key,
      body: { parent_mfid: a, child_mfid: '0000000000000000000000000m' },
    });
    expect(project.status).toBe(404);
    expect((await rest(t.url, 'POST', `/samples/${s1}/children/${a}`, { key: owner.key })).status).toBe(404);
    expect((await links(a)).map((l: { unique_id: string }) => l.unique_id)).toEqual([b]);
  });

  test('permissions: contribute on the child, read on the parent; unreadable resources never appear', async () => {
    const mine = await newDataset(t.url, owner.key, { dataset_name: 'mine' });
    const theirs = await newDataset(t.url, stranger.key, { dataset_name: 'theirs' });
    // the stranger cannot even see mine: 404 either way
    expect(
      (await rest(t.url, 'POST', `/datasets/${mine}/children/${theirs}`, { key: stranger.key })).status,
    ).toBe(404);
    await grant(t.app, mine, 'dataset', 'user', stranger.user.uniqueId, 'viewer');
    // now readable: the stranger may derive their dataset from mine, not mine from theirs
    expect(
      (await rest(t.url, 'POST', `/datasets/${theirs}/children/${mine}`, { key: stranger.key })).status,
    ).toBe(403);
    expect(
      (await rest(t.url, 'POST', `/datasets/${mine}/children/${theirs}`, { key: stranger.key })).status,
    ).toBe(201);
    // the owner cannot read the stranger's child: it never shows in their links, lists or graphs
    expect(await links(mine)).toEqual([]);
    const children = await rest(t.url, 'GET', `/datasets/${mine}/children`, { key: owner.key });
    expect(children.body).toEqual({ items: [], total: 0 });
    const gq = await gql(
      t.url,
      owner.key,
      `query($id: ID!) { dataset(id: $id) { children { uniqueId } links { uniqueId } } }`,
      {
        id: mine,
      },
    );
    expect(gq.data.dataset).toEqual({ children: [], links: [] });
    expect((await links(theirs, stranger.key)).map((l: { unique_id: string }) => l.unique_id)).toEqual([
      mine,
    ]);
    // either end's contributor may remove the link
    expect(
      (await rest(t.url, 'DELETE', `/resources/${mine}/links/${theirs}`, { key: stranger.key })).status,
    ).toBe(200);
  });

  test('GraphQL link mutations and relation fields', async () => {
    const p = await newDataset(t.url, owner.key, { dataset_name: 'p' });
    const c = await newDataset(t.url, owner.key, { dataset_name: 'c' });
    const s = await newSample(t.url, owner.key, { sample_name: 's' });
    const linked = await gql(
      t.url,
      owner.key,
      `mutation($p: ID!, $c: ID!, $s: ID!) {
        a: linkResources(input: {parentId: $p, childId: $c, relationshipType: is_derived_from}) { kind relationshipType }
        b: linkResources(input: {parentId: $s, childId: $c}) { kind parentId childId }
      }`,
      { p, c, s },
    );
    expect(linked.data).toEqual({
      a: { kind: 'dataset_dataset', relationshipType: 'is_derived_from' },
      b: { kind: 'sample_dataset', parentId: s, childId: c },
    });
    const read = await gql(
      t.url,
      owner.key,
      `query($c: ID!, $s: ID!) {
        dataset(id: $c) { parents { uniqueId } samples { uniqueId } links { uniqueId direction relationship relationshipType } }
        sample(id: $s) { datasets { uniqueId } }
      }`,
      { c, s },
    );
    expect(read.data.dataset.parents).toEqual([{ uniqueId: p }]);
    expect(read.data.dataset.samples).toEqual([{ uniqueId: s }]);
    expect(read.data.dataset.links).toEqual([
      { uniqueId: p, direction: 'source', relationship: 'parent', relationshipType: 'is_derived_from' },
      { uniqueId: s, direction: 'undirected', relationship: 'associated', relationshipType: null },
    ]);
    expect(read.data.sample.datasets).toEqual([{ uniqueId: c }]);
    const unlinked = await gql(
      t.url,
      owner.key,
      `mutation($a: ID!, $b: ID!) { unlinkResources(a: $a, b: $b) { kind } }`,
      {
        a: c,
        b: p,
      },
    );
    expect(unlinked.data.unlinkResources.kind).toBe('dataset_dataset');
  });
});

test('GET /samples/{id}/datasets, a plain list the client cannot page, holds a full page without limit', async () => {
  const small = await startTestApp({ DEFAULT_PAGE_SIZE: '2', MAX_PAGE_SIZE: '1000' });
  try {
    const user = await makeUser(small.app);
    const sample = await newSample(small.url, user.key);
    for (let i = 0; i < 3; i++) {
      const ds = await newDataset(small.url, user.key);
      await rest(small.url, 'POST', `/datasets/${ds}/samples/${sample}`, { key: user.key });
    }
    const all = await rest(small.url, 'GET', `/samples/${sample}/datasets`, { key: user.key });
    expect(all.body).toHaveLength(3);
    const limited = await rest(small.url, 'GET', `/samples/${sample}/datasets`, {
      key: user.key,
      query: { limit: '2' },
    });
    expect(limited.body).toHaveLength(2);
    // an envelope keeps the default page size (it can be paged)
    const envelope = await rest(small.url, 'GET', '/datasets', { key: user.key });
    expect(envelope.body.items).toHaveLength(2);
  } finally {
    await small.close();
  }
});
