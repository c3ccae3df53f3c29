import { startTestApp, type TestApp } from '../support/app';
import { gql, rest } from '../support/http';
import { addMember, grant, makeProject, makeUser, unique, type TestUser } from '../support/factories';
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

const md = (id: string) => `/resources/${id}/metadata`;

describe('scientific metadata REST', () => {
  test('GET is JSON null when absent; PATCH creates then merges top-level keys', async () => {
    const ds = await newDataset(t.url, owner.key);
    const none = await rest(t.url, 'GET', md(ds), { key: owner.key });
    expect(none.status).toBe(200);
    expect(none.body).toBeNull();
    const first = await rest(t.url, 'PATCH', md(ds), {
      key: owner.key,
      body: { a: 1, stage: { temp: 300, unit: 'K' }, tags: ['x'] },
    });
    expect(first.body).toEqual({
      unique_id: ds,
      scientific_metadata: { a: 1, stage: { temp: 300, unit: 'K' }, tags: ['x'] },
    });
    const second = await rest(t.url, 'PATCH', md(ds), {
      key: owner.key,
      body: { b: 2, stage: { temp: 310 }, tags: ['y'] },
    });
    // top-level keys (spec 1.5): `stage` takes the new value whole, nothing of the old one stays
    expect(second.body.scientific_metadata).toEqual({
      a: 1,
      b: 2,
      stage: { temp: 310 },
      tags: ['y'],
    });
    const read = await rest(t.url, 'GET', md(ds), { key: owner.key });
    expect(read.body.scientific_metadata).toEqual(second.body.scientific_metadata);
    const overwritten = await rest(t.url, 'PATCH', md(ds), {
      key: owner.key,
      body: { c: 3 },
      query: { overwrite: 'true' },
    });
    expect(overwritten.body.scientific_metadata).toEqual({ c: 3 });
  });

  test('POST replaces all existing metadata, with or without overwrite (spec 4.1, 4.2)', async () => {
    const ds = await newDataset(t.url, owner.key);
    const created = await rest(t.url, 'POST', md(ds), { key: owner.key, body: { old: 1, nested: { a: 1 } } });
    expect(created.status).toBe(200);
    expect(created.body.scientific_metadata).toEqual({ old: 1, nested: { a: 1 } });
    const again = await rest(t.url, 'POST', md(ds), { key: owner.key, body: { x: 1, nested: { b: 2 } } });
    expect(again.status).toBe(200);
    expect(again.body.scientific_metadata).toEqual({ x: 1, nested: { b: 2 } });
    expect((await rest(t.url, 'GET', md(ds), { key: owner.key })).body.scientific_metadata).toEqual({
      x: 1,
      nested: { b: 2 },
    });
    const replaced = await rest(t.url, 'POST', md(ds), {
      key: owner.key,
      body: { new: 2 },
      query: { overwrite: 'True' },
    });
    expect(replaced.body.scientific_metadata).toEqual({ new: 2 });
    expect((await rest(t.url, 'GET', md(ds), { key: owner.key })).body.scientific_metadata).toEqual({
      new: 2,
    });
  });

  test('bad bodies are 422 and change nothing', async () => {
    const ds = await newDataset(t.url, owner.key);
    for (const body of [[1, 2], [{ a: 1 }]]) {
      const res = await rest(t.url, 'PATCH', md(ds), { key: owner.key, body });
      expect(res.status).toBe(422);
      expect(res.body.fields[0].field).toBe('body');
    }
    // a bare JSON scalar is not a request body the JSON parser accepts: malformed JSON is 422
    expect((await rest(t.url, 'POST', md(ds), { key: owner.key, body: 'text' })).status).toBe(422);
    expect((await rest(t.url, 'GET', md(ds), { key: owner.key })).body).toBeNull();
  });

  test('access: strangers 404, viewers may read but not write (403)', async () => {
    const ds = await newDataset(t.url, owner.key);
    await rest(t.url, 'PATCH', md(ds), { key: owner.key, body: { secret: 'x' } });
    expect((await rest(t.url, 'GET', md(ds), { key: stranger.key })).status).toBe(404);
    expect((await rest(t.url, 'PATCH', md(ds), { key: stranger.key, body: { a: 1 } })).status).toBe(404);
    const viewer = await makeUser(t.app);
    await grant(t.app, ds, 'dataset', 'user', viewer.user.uniqueId, 'viewer');
    expect((await rest(t.url, 'GET', md(ds), { key: viewer.key })).body.scientific_metadata).toEqual({
      secret: 'x',
    });
    expect((await rest(t.url, 'PATCH', md(ds), { key: viewer.key, body: { a: 1 } })).status).toBe(403);
    const contributor = await makeUser(t.app);
    await grant(t.app, ds, 'dataset', 'user', contributor.user.uniqueId, 'contributor');
    expect((await rest(t.url, 'PATCH', md(ds), { key: contributor.key, body: { a: 1 } })).status).toBe(200);
    expect((await rest(t.url, 'GET', md('0000000000000000000000000m'), { key: owner.key })).status).toBe(404);
  });

  test('samples, projects (members only) and instruments (owner writes, all read)', async () => {
    const sample = await newSample(t.url, owner.key);
    expect(
      (await rest(t.url, 'PATCH', md(sample), { key: owner.key, body: { s: 1 } })).body.scientific_metadata,
    ).toEqual({
      s: 1,
    });
    const project = await makeProject(t.app, owner.user);
    const member = await makeUser(t.app);
    await addMember(t.app, project, member.user, 'contributor');
    // legacy clients address project metadata by slug
    const pmd = await rest(t.url, 'PATCH', md(project.projectId), {
      key: member.key,
      body: { goal: 'films' },
    });
    expect(pmd.body).toEqual({ unique_id: project.uniqueId, scientific_metadata: { goal: 'films' } });
    expect((await rest(t.url, 'GET', md(project.uniqueId), { key: stranger.key })).status).toBe(403);
    const pget = await rest(t.url, 'GET', `/projects/${project.projectId}`, {
      key: member.key,
      query: { include_metadata: 'True' },
    });
    expect(pget.body.scientific_metadata).toEqual({ goal: 'films' });
    const pstranger = await rest(t.url, 'GET', `/projects/${project.projectId}`, {
      key: stranger.key,
      query: { include_metadata: 'True' },
    });
    expect(pstranger.body.scientific_metadata).toBeUndefined();

    const inst = await rest(t.url, 'POST', '/instruments', {
      key: admin.key,
      body: { instrument_name: unique('Microscope'), owner: owner.user.uniqueId },
    });
    const iid = inst.body.unique_id;
    expect((await rest(t.url, 'PATCH', md(iid), { key: owner.key, body: { kv: 300 } })).status).toBe(200);
    expect((await rest(t.url, 'PATCH', md(iid), { key: stranger.key, body: { kv: 1 } })).status).toBe(403);
    expect((await rest(t.url, 'GET', md(iid), { key: stranger.key })).body.scientific_metadata).toEqual({
      kv: 300,
    });
    const iget = await rest(t.url, 'GET', `/instruments/${iid}`, {
      key: stranger.key,
      query: { include_metadata: 'True' },
    });
    expect(iget.body.scientific_metadata).toEqual({ kv: 300 });
  });

  test('datasets accept initial metadata on create and return it with include_metadata', async () => {
    const res = await rest(t.url, 'POST', '/datasets', {
      key: owner.key,
      body: { dataset_name: 'with md', scientific_metadata: { exposure_s: 2 } },
    });
    expect(res.status).toBe(201);
    const id = res.body.unique_id;
    const read = await rest(t.url, 'GET', `/datasets/${id}`, {
      key: owner.key,
      query: { include_metadata: 'True' },
    });
    expect(read.body.scientific_metadata).toEqual({ exposure_s: 2 });
    const plain = await rest(t.url, 'GET', `/datasets/${id}`, { key: owner.key });
    expect(plain.body.scientific_metadata).toBeUndefined();
    const bad = await rest(t.url, 'POST', '/datasets', {
      key: owner.key,
      body: { dataset_name: unique('bad'), scientific_metadata: 'nope' },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.fields[0].field).toBe('scientific_metadata');
    const list = await rest(t.url, 'GET', '/datasets', {
      key: owner.key,
      query: { unique_id: id, include_metadata: 'True', include_links: 'True' },
    });
    expect(list.body.items[0]).toMatchObject({ scientific_metadata: { exposure_s: 2 }, links: [] });
  });
});

describe('metadata search', () => {
  test('full-text search with stemming over keys and values, newest first, readable resources only', async () => {
    const word = `zq${unique('w').replace(/[^a-z0-9]/g, '')}`;
    const mine = await newDataset(t.url, owner.key, { dataset_name: 'mine' });
    await rest(t.url, 'PATCH', md(mine), {
      key: owner.key,
      body: { notes: `${word} calibrations`, other: word },
    });
    const weaker = await newSample(t.url, owner.key, { sample_name: 'weaker' });
    await rest(t.url, 'PATCH', md(weaker), {
      key: owner.key,
      body: { nested: { notes: `${word} only once` } },
    });
    const secret = await newDataset(t.url, stranger.key);
    await rest(t.url, 'PATCH', md(secret), { key: stranger.key, body: { notes: word } });

    const res = await rest(t.url, 'GET', '/resources/metadata/search', {
      key: owner.key,
      query: { q: word, limit: 10 },
    });
    expect(res.status).toBe(200);
    const ids = res.body.items.map((i: { unique_id: string }) => i.unique_id);
    // newest first (docs/scale.md, "The metadata search"), not by relevance
    expect(ids).toEqual([weaker, mine]);
    expect(res.body.items[1]).toMatchObject({
      resource_type: 'dataset',
      name: 'mine',
      owner_orcid: owner.user.uniqueId,
      scientific_metadata: { notes: `${word} calibrations` },
    });
    expect(res.body.items[1].rank).toBeGreaterThan(res.body.items[0].rank);
    // English stemming: "calibration" finds "calibrations"; keys are searchable too
    const stem = await rest(t.url, 'GET', '/resources/metadata/search', {
      key: owner.key,
      query: { q: `${word} calibration`, limit: 5 },
    });
    expect(stem.body.items.map((i: { unique_id: string }) => i.unique_id)).toEqual([mine]);
    expect(
      (await rest(t.url, 'GET', '/resources/metadata/search', { key: owner.key, query: { q: '' } })).status,
    ).toBe(422);
    const gq = await gql(
      t.url,
      owner.key,
      `query($q: String!) { searchMetadata(q: $q, limit: 1) { uniqueId rank resourceType } }`,
      {
        q: word,
      },
    );
    expect(gq.data.searchMetadata).toEqual([
      { uniqueId: weaker, rank: expect.any(Number), resourceType: 'sample' },
    ]);
  });
});

describe('typed metadata filters (GraphQL)', () => {
  test('each operator, combined with the dataset list filters', async () => {
    const project = await makeProject(t.app, owner.user);
    const mk = async (name: string, doc: Record<string, unknown>) => {
      const id = await newDataset(t.url, owner.key, {
        dataset_name: name,
        project_id: project.projectId,
        measurement: 'm',
      });
      await rest(t.url, 'PATCH', md(id), { key: owner.key, body: doc });
      return name;
    };
    await mk('a', { stage: { temp: 300 }, operator: 'Alice Smith', tags: ['raw', 'calib'] });
    await mk('b', { stage: { temp: 350 }, operator: 'Bob', tags: ['processed'] });
    await mk('c', { stage: { temp: '300' }, flag: true });
    await newDataset(t.url, owner.key, {
      dataset_name: 'd',
      project_id: project.projectId,
      measurement: 'm',
    });
    const query = async (conditions: unknown[], extra: Record<string, unknown> = {}) => {
      const res = await gql(
        t.url,
        owner.key,
        `query($f: DatasetFilterInput) { datasets(filter: $f) { totalCount nodes { datasetName } } }`,
        { f: { projectId: project.projectId, metadata: conditions, ...extra } },
      );
      expect(res.errors).toBeUndefined();
      return res.data.datasets.nodes.map((n: { datasetName: string }) => n.datasetName).sort();
    };
    expect(await query([{ path: 'stage.temp', op: 'eq', value: 300 }])).toEqual(['a']);
    expect(await query([{ path: 'stage.temp', op: 'eq', value: '300' }])).toEqual(['c']);
    expect(await query([{ path: 'stage.temp', op: 'ne', value: 300 }])).toEqual(['b', 'c']);
    expect(await query([{ path: 'stage.temp', op: 'gt', value: 300 }])).toEqual(['b']);
    expect(await query([{ path: 'stage.temp', op: 'gte', value: 300 }])).toEqual(['a', 'b']);
    expect(await query([{ path: 'stage.temp', op: 'lt', value: 350 }])).toEqual(['a']);
    expect(await query([{ path: 'stage.temp', op: 'lte', value: 350 }])).toEqual(['a', 'b']);
    expect(await query([{ path: 'operator', op: 'contains', value: 'SMITH' }])).toEqual(['a']);
    expect(await query([{ path: 'operator', op: 'contains', value: '.*' }])).toEqual([]);
    expect(await query([{ path: 'tags', op: 'contains', value: 'calib' }])).toEqual(['a']);
    expect(await query([{ path: 'flag', op: 'exists' }])).toEqual(['c']);
    expect(await query([{ path: 'stage', op: 'exists', value: false }])).toEqual(['d']);
    expect(
      await query([
        { path: 'stage.temp', op: 'gte', value: 300 },
        { path: 'tags', op: 'contains', value: 'processed' },
      ]),
    ).toEqual(['b']);
    expect(await query([{ path: 'stage.temp', op: 'gte', value: 300 }], { datasetName: 'b' })).toEqual(['b']);
    // the same filter never shows another caller's datasets
    const strangerView = await gql(
      t.url,
      stranger.key,
      `query($f: DatasetFilterInput) { datasets(filter: $f) { totalCount } }`,
      { f: { metadata: [{ path: 'stage.temp', op: 'eq', value: 300 }], projectId: project.projectId } },
    );
    expect(strangerView.data.datasets.totalCount).toBe(0);
    const bad = await gql(
      t.url,
      owner.key,
      `query($f: DatasetFilterInput) { datasets(filter: $f) { totalCount } }`,
      {
        f: { metadata: [{ path: 'a..b', op: 'eq', value: 1 }] },
      },
    );
    expect(bad.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(bad.errors?.[0].extensions?.fields?.[0].field).toBe('metadata[0].path');
    const noValue = await gql(
      t.url,
      owner.key,
      `query($f: DatasetFilterInput) { datasets(filter: $f) { totalCount } }`,
      {
        f: { metadata: [{ path: 'a', op: 'gt' }] },
      },
    );
    expect(noValue.errors?.[0].extensions?.fields?.[0].field).toBe('metadata[0].value');
  });

  test('GraphQL metadata mutations and fields', async () => {
    const ds = await newDataset(t.url, owner.key);
    const merged = await gql(
      t.url,
      owner.key,
      `mutation($id: ID!) { a: mergeScientificMetadata(id: $id, metadata: {x: {y: 1}}) b: mergeScientificMetadata(id: $id, metadata: {x: {z: 2}}) }`,
      { id: ds },
    );
    // top-level keys (spec 1.5): `x` takes the new value whole
    expect(merged.data.b).toEqual({ x: { z: 2 } });
    const replaced = await gql(
      t.url,
      owner.key,
      `mutation($id: ID!) { replaceScientificMetadata(id: $id, metadata: {k: 1}) }`,
      {
        id: ds,
      },
    );
    expect(replaced.data.replaceScientificMetadata).toEqual({ k: 1 });
    const read = await gql(
      t.url,
      owner.key,
      `query($id: ID!) { dataset(id: $id) { scientificMetadata k: scientificMetadata(path: "k") } scientificMetadata(id: $id) }`,
      {
        id: ds,
      },
    );
    expect(read.data).toEqual({
      dataset: { scientificMetadata: { k: 1 }, k: 1 },
      scientificMetadata: { k: 1 },
    });
    const denied = await gql(
      t.url,
      stranger.key,
      `mutation($id: ID!) { replaceScientificMetadata(id: $id, metadata: {k: 2}) }`,
      {
        id: ds,
      },
    );
    expect(denied.errors?.[0].extensions?.code).toBe('NOT_FOUND');
  });
});
