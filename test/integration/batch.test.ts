import { startTestApp, type TestApp } from '../support/app';
import { gql, rest } from '../support/http';
import { grant, makeUser, randomOrcid, type TestUser } from '../support/factories';
import { newDataset } from '../support/catalog';
import { rawQuery } from '../../src/core/db/raw';

let t: TestApp;
let owner: TestUser;
let helper: TestUser;
let stranger: TestUser;

beforeAll(async () => {
  // a small cap, so the limit is tested without thousands of rows
  t = await startTestApp({ BATCH_MAX_TARGETS: '5' });
  owner = await makeUser(t.app, { orcid: randomOrcid() });
  helper = await makeUser(t.app, { orcid: randomOrcid() });
  stranger = await makeUser(t.app);
});
afterAll(() => t.close());

const preview = (key: string, body: Record<string, unknown>, query: Record<string, string> = {}) =>
  rest(t.url, 'POST', '/dataset_batches', { key, body, query });
const apply = (key: string, id: string, token: string) =>
  rest(t.url, 'POST', `/dataset_batches/${id}/apply`, { key, body: { token } });
const undo = (key: string, id: string) => rest(t.url, 'POST', `/dataset_batches/${id}/undo`, { key });
const keywordsOf = async (id: string) =>
  (
    (await rest(t.url, 'GET', `/datasets/${id}/keywords`, { key: owner.key })).body as { keyword: string }[]
  ).map((k) => k.keyword);
const dataset = async (id: string, key = owner.key) =>
  (await rest(t.url, 'GET', `/datasets/${id}`, { key })).body;
const hotter = async (session: string, than: string) => {
  const res = await gql(
    t.url,
    owner.key,
    `query($f: DatasetFilterInput) { datasets(filter: $f) { nodes { uniqueId } } }`,
    { f: { sessionName: session, metadata: [{ path: 'temperature', op: 'gt', value: than }] } },
  );
  expect(res.errors).toBeUndefined();
  return (res.data.datasets.nodes as { uniqueId: string }[]).map((n) => n.uniqueId).sort();
};
const historyTypes = async (id: string) =>
  (
    (await rest(t.url, 'GET', `/resources/${id}/history`, { key: owner.key })).body.items as {
      type: string;
    }[]
  ).map((e) => e.type);

describe('batch edits', () => {
  test('a preview says exactly what changes and changes nothing; apply does it all; undo puts it back', async () => {
    const a = await newDataset(t.url, owner.key, { dataset_name: 'a' });
    const b = await newDataset(t.url, owner.key, { dataset_name: 'b' });
    const c = await newDataset(t.url, owner.key, { dataset_name: 'c' });
    await rest(t.url, 'POST', `/datasets/${b}/keywords`, { key: owner.key, body: { keyword: 'Anneal' } });

    const p = await preview(owner.key, {
      dataset_ids: [a, b, c],
      operation: { kind: 'add_keyword', keyword: 'anneal' },
    });
    expect(p.status).toBe(201);
    expect(p.body).toMatchObject({
      status: 'previewed',
      operation: { kind: 'add_keyword', keyword: 'anneal' },
      target_source: 'ids',
      target_count: 3,
      changed_count: 2,
      refused: [],
      refused_count: 0,
      can_apply: true,
      can_undo: false,
    });
    expect(p.body.sample.map((i: { unique_id: string }) => i.unique_id).sort()).toEqual([a, c].sort());
    expect(p.body.sample[0]).toMatchObject({ before: false, after: true, changes: true });
    // every target with its values, paged
    const items = await rest(t.url, 'GET', `/dataset_batches/${p.body.batch_id}/items`, {
      key: owner.key,
      query: { changed_only: 'false', limit: 2 },
    });
    expect(items.body.items).toHaveLength(2);
    expect(items.body.next_cursor).toEqual(expect.any(String));
    expect(await keywordsOf(a)).toEqual([]);

    const done = await apply(owner.key, p.body.batch_id, p.body.token);
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ status: 'applied', can_undo: true, token: null });
    expect(await keywordsOf(a)).toEqual(['Anneal']);
    expect(await keywordsOf(c)).toEqual(['Anneal']);
    expect(await historyTypes(a)).toContain('keyword.added');
    // a batch applies once
    expect((await apply(owner.key, p.body.batch_id, p.body.token)).status).toBe(409);

    const back = await undo(owner.key, p.body.batch_id);
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({ status: 'undone', can_undo: false });
    expect(await keywordsOf(a)).toEqual([]);
    expect(await keywordsOf(c)).toEqual([]);
    // b had it before the batch: undo leaves it
    expect(await keywordsOf(b)).toEqual(['Anneal']);
    expect(await historyTypes(a)).toContain('keyword.removed');
    expect((await undo(owner.key, p.body.batch_id)).status).toBe(409);

    const listed = await rest(t.url, 'GET', '/dataset_batches', { key: owner.key });
    expect(listed.body.map((x: { batch_id: string }) => x.batch_id)).toContain(p.body.batch_id);
    // another caller's batch does not exist for them
    expect(
      (await rest(t.url, 'GET', `/dataset_batches/${p.body.batch_id}`, { key: stranger.key })).status,
    ).toBe(404);
    expect((await undo(stranger.key, p.body.batch_id)).status).toBe(404);
  });

  test('apply is all or nothing when one target becomes unwritable after the preview', async () => {
    const own = await newDataset(t.url, helper.key, { dataset_name: 'mine', data_type: 'raw' });
    const shared = await newDataset(t.url, owner.key, { dataset_name: 'shared', data_type: 'raw' });
    await grant(t.app, shared, 'dataset', 'user', helper.user.uniqueId, 'editor');
    const p = await preview(helper.key, {
      dataset_ids: [own, shared],
      operation: { kind: 'set_field', field: 'data_type', value: 'processed' },
    });
    expect(p.body).toMatchObject({ changed_count: 2, can_apply: true });
    // the owner demotes the helper to viewer between preview and apply
    const demote = await rest(t.url, 'PUT', `/resources/${shared}/access/users/${helper.user.uniqueId}`, {
      key: owner.key,
      body: { permission: 'viewer' },
    });
    expect(demote.status).toBeLessThan(300);
    const refused = await apply(helper.key, p.body.batch_id, p.body.token);
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toContain(shared);
    expect((await dataset(own, helper.key)).data_type).toBe('raw');
    expect((await dataset(shared)).data_type).toBe('raw');
    // previewed again, the batch is refused as a whole, naming the dataset it may not change
    const again = await preview(helper.key, {
      dataset_ids: [own, shared],
      operation: { kind: 'set_field', field: 'data_type', value: 'processed' },
    });
    expect(again.status).toBe(403);
    expect(again.body.fields).toEqual([
      { field: 'datasets', message: `${shared}: needs editor permission, you hold viewer` },
    ]);
    expect((await dataset(own, helper.key)).data_type).toBe('raw');
  });

  test('a change between preview and apply makes apply refuse (409), nothing applied', async () => {
    const a = await newDataset(t.url, owner.key, { measurement: 'xrd' });
    const b = await newDataset(t.url, owner.key, { measurement: 'xrd' });
    const p = await preview(owner.key, {
      dataset_ids: [a, b],
      operation: { kind: 'set_field', field: 'measurement', value: 'saxs' },
    });
    await rest(t.url, 'PATCH', `/datasets/${b}`, { key: owner.key, body: { measurement: 'tem' } });
    const r = await apply(owner.key, p.body.batch_id, p.body.token);
    expect(r.status).toBe(409);
    expect((await dataset(a)).measurement).toBe('xrd');
    expect((await apply(owner.key, p.body.batch_id, 'not-the-token')).status).toBe(409);
  });

  test('undo refuses (409) when a value the batch set has changed since, and changes nothing', async () => {
    const a = await newDataset(t.url, owner.key, { session_name: 's1' });
    const b = await newDataset(t.url, owner.key, { session_name: 's1' });
    const p = await preview(owner.key, {
      dataset_ids: [a, b],
      operation: { kind: 'set_field', field: 'session_name', value: 's2' },
    });
    expect((await apply(owner.key, p.body.batch_id, p.body.token)).status).toBe(200);
    expect(await historyTypes(a)).toContain('dataset.updated');
    await rest(t.url, 'PATCH', `/datasets/${b}`, { key: owner.key, body: { session_name: 's3' } });
    const r = await undo(owner.key, p.body.batch_id);
    expect(r.status).toBe(409);
    expect(r.body.detail).toContain(b);
    expect((await dataset(a)).session_name).toBe('s2');
    expect((await dataset(b)).session_name).toBe('s3');
    // put back as the batch left it, undo goes through
    await rest(t.url, 'PATCH', `/datasets/${b}`, { key: owner.key, body: { session_name: 's2' } });
    expect((await undo(owner.key, p.body.batch_id)).status).toBe(200);
    expect((await dataset(a)).session_name).toBe('s1');
    expect((await dataset(b)).session_name).toBe('s1');
  });

  test('metadata merge and its undo restore each key, the side indexes follow', async () => {
    const session = `meta${Date.now()}`;
    const a = await newDataset(t.url, owner.key, {
      session_name: session,
      scientific_metadata: { temperature: '300 K', keep: 1 },
    });
    const b = await newDataset(t.url, owner.key, { session_name: session });
    const p = await preview(owner.key, {
      dataset_ids: [a, b],
      operation: { kind: 'merge_metadata', metadata: { temperature: '350 K', batchmark: 'x1' } },
    });
    expect(p.body.changed_count).toBe(2);
    const sa = p.body.sample.find((i: { unique_id: string }) => i.unique_id === a);
    expect(sa).toMatchObject({
      before: { temperature: '300 K' },
      after: { temperature: '350 K', batchmark: 'x1' },
    });
    expect((await apply(owner.key, p.body.batch_id, p.body.token)).status).toBe(200);
    expect(await hotter(session, '340 K')).toEqual([a, b].sort());
    expect((await undo(owner.key, p.body.batch_id)).status).toBe(200);
    const meta = await rest(t.url, 'GET', `/resources/${a}/metadata`, { key: owner.key });
    expect(meta.body.data ?? meta.body.scientific_metadata ?? meta.body).toMatchObject({
      temperature: '300 K',
      keep: 1,
    });
    expect(JSON.stringify(meta.body)).not.toContain('batchmark');
    expect(await hotter(session, '340 K')).toEqual([]);
    expect(await hotter(session, '290 K')).toEqual([a]);
  });

  test('a merge rewrites the side-index rows of the keys whose value changes only; undo restores exactly', async () => {
    const session = `same${Date.now()}`;
    const a = await newDataset(t.url, owner.key, {
      session_name: session,
      scientific_metadata: { temperature: '300 K', label: 'x', keep: 1 },
    });
    const b = await newDataset(t.url, owner.key, {
      session_name: session,
      scientific_metadata: { temperature: '280 K' },
    });
    const em = t.app.orm.em.fork();
    const rows = (id: string) =>
      rawQuery<{ t: string; id: string; path: string; v: string }>(
        em,
        `select 'v' as t, id::text, path, num::text as v from metadata_value where resource_id = ?
         union all select 's', id::text, path, str from metadata_string where resource_id = ?
         order by 1, 3, 4, 2`,
        [id, id],
      );
    const at = <T extends { path: string }>(all: T[], path: string) => all.filter((r) => r.path === path);
    const values = (all: { t: string; path: string; v: string }[]) =>
      all.map(({ t, path, v }) => ({ t, path, v }));
    const [beforeA, beforeB] = [await rows(a), await rows(b)];
    expect(at(beforeA, 'temperature').length).toBeGreaterThan(0);
    const p = await preview(owner.key, {
      dataset_ids: [a, b],
      operation: { kind: 'merge_metadata', metadata: { temperature: '300 K', label: 'y' } },
    });
    expect(p.body.changed_count).toBe(2);
    expect((await apply(owner.key, p.body.batch_id, p.body.token)).status).toBe(200);
    const [afterA, afterB] = [await rows(a), await rows(b)];
    // a's temperature keeps its value: its rows are the same rows, not written again
    expect(at(afterA, 'temperature')).toEqual(at(beforeA, 'temperature'));
    expect(values(at(afterA, 'label'))).toEqual([{ t: 's', path: 'label', v: 'y' }]);
    expect(at(afterA, 'keep')).toEqual(at(beforeA, 'keep'));
    // b's temperature changes: its rows follow, and both are found by the new value
    expect(values(at(afterB, 'temperature'))).toEqual(values(at(afterA, 'temperature')));
    expect(await hotter(session, '290 K')).toEqual([a, b].sort());
    // each event names the keys that changed
    const keys = await rawQuery<{ resource_id: string; keys: string[] }>(
      em,
      `select resource_id, payload->'keys' as keys from domain_event
       where type = 'metadata.changed' and payload->>'batch_id' = ? order by resource_id`,
      [p.body.batch_id],
    );
    expect(Object.fromEntries(keys.map((k) => [k.resource_id, k.keys]))).toEqual({
      [a]: ['label'],
      [b]: ['label', 'temperature'],
    });
    expect((await undo(owner.key, p.body.batch_id)).status).toBe(200);
    // undo: the documents and their side-index rows as they were (a's temperature rows never moved)
    const [undoneA, undoneB] = [await rows(a), await rows(b)];
    expect(values(undoneA)).toEqual(values(beforeA));
    expect(values(undoneB)).toEqual(values(beforeB));
    expect(at(undoneA, 'temperature')).toEqual(at(beforeA, 'temperature'));
    for (const [id, doc] of [
      [a, { temperature: '300 K', label: 'x', keep: 1 }],
      [b, { temperature: '280 K' }],
    ] as const) {
      const meta = await rest(t.url, 'GET', `/resources/${id}/metadata`, { key: owner.key });
      const data = (meta.body.data ?? meta.body.scientific_metadata ?? meta.body) as Record<string, unknown>;
      expect(data).toEqual(doc);
    }
    expect(await hotter(session, '290 K')).toEqual([a]);
  });

  test('grant and visibility batches, and their undo', async () => {
    const a = await newDataset(t.url, owner.key);
    const b = await newDataset(t.url, owner.key);
    const g = await preview(owner.key, {
      dataset_ids: [a, b],
      operation: {
        kind: 'grant',
        principal_type: 'user',
        principal: stranger.user.uniqueId,
        permission: 'viewer',
      },
    });
    expect(g.body.changed_count).toBe(2);
    expect((await apply(owner.key, g.body.batch_id, g.body.token)).status).toBe(200);
    expect((await rest(t.url, 'GET', `/datasets/${a}`, { key: stranger.key })).status).toBe(200);
    expect((await undo(owner.key, g.body.batch_id)).status).toBe(200);
    expect((await rest(t.url, 'GET', `/datasets/${a}`, { key: stranger.key })).status).toBe(404);

    const v = await preview(owner.key, {
      dataset_ids: [a, b],
      operation: { kind: 'set_public', public: true },
    });
    expect((await apply(owner.key, v.body.batch_id, v.body.token)).status).toBe(200);
    expect((await rest(t.url, 'GET', `/datasets/${b}`, { key: stranger.key })).status).toBe(200);
    expect(await historyTypes(b)).toContain('access.public');
    expect((await undo(owner.key, v.body.batch_id)).status).toBe(200);
    expect((await rest(t.url, 'GET', `/datasets/${b}`, { key: stranger.key })).status).toBe(404);
  });

  test('a dataset the caller cannot read is answered exactly as a missing one', async () => {
    const hidden = await newDataset(t.url, owner.key);
    const mine = await newDataset(t.url, stranger.key);
    const missing = '01' + hidden.slice(2).split('').reverse().join('');
    const op = { kind: 'add_keyword', keyword: 'x' };
    const a = await preview(stranger.key, { dataset_ids: [mine, hidden], operation: op });
    const b = await preview(stranger.key, { dataset_ids: [mine, missing], operation: op });
    expect(a.status).toBe(404);
    expect(b.status).toBe(404);
    expect(a.body.detail.replace(hidden, 'ID')).toBe(b.body.detail.replace(missing, 'ID'));
    expect(a.body.code).toBe(b.body.code);
  });

  test('all results of a search, and the limits', async () => {
    const tag = `tag${Date.now()}`;
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push(await newDataset(t.url, owner.key, { data_format: tag }));
    const p = await preview(
      owner.key,
      { all_results: true, operation: { kind: 'add_keyword', keyword: tag } },
      { data_format: tag },
    );
    expect(p.status).toBe(201);
    expect(p.body).toMatchObject({ target_source: 'search', target_count: 3, changed_count: 3 });
    // filters without all_results, both kinds of target, an unknown operation field: 422
    expect(
      (
        await preview(
          owner.key,
          { dataset_ids: ids, operation: { kind: 'add_keyword', keyword: 'k' } },
          { data_format: tag },
        )
      ).status,
    ).toBe(422);
    expect(
      (
        await preview(owner.key, {
          dataset_ids: ids,
          all_results: true,
          operation: { kind: 'add_keyword', keyword: 'k' },
        })
      ).status,
    ).toBe(422);
    expect(
      (
        await preview(owner.key, {
          dataset_ids: ids,
          operation: { kind: 'add_keyword', keyword: 'k', public: true },
        })
      ).status,
    ).toBe(422);
    expect(
      (
        await preview(owner.key, {
          dataset_ids: ids,
          operation: { kind: 'set_field', field: 'dataset_name', value: ' ' },
        })
      ).status,
    ).toBe(422);
    expect(
      (
        await preview(owner.key, {
          dataset_ids: ids,
          operation: { kind: 'set_field', field: 'owner_id', value: 'x' },
        })
      ).status,
    ).toBe(422);
    // the cap (BATCH_MAX_TARGETS=5 here): a longer list, a larger search
    const many = [...ids];
    for (let i = 0; i < 3; i++) many.push(await newDataset(t.url, owner.key, { data_format: tag }));
    const over = await preview(owner.key, {
      dataset_ids: many,
      operation: { kind: 'add_keyword', keyword: 'k' },
    });
    expect(over.status).toBe(422);
    expect(over.body.detail).toContain('at most 5');
    const overSearch = await preview(
      owner.key,
      { all_results: true, operation: { kind: 'add_keyword', keyword: 'k' } },
      { data_format: tag },
    );
    expect(overSearch.status).toBe(422);
    expect(overSearch.body.detail).toContain('more than 5');
  });

  test('GraphQL: preview, apply and undo', async () => {
    const session = `gql${Date.now()}`;
    const a = await newDataset(t.url, owner.key, { session_name: session });
    const fields =
      'id status changedCount targetCount token canApply canUndo sample { uniqueId before after changes } refused { uniqueId reason }';
    const p = await gql(
      t.url,
      owner.key,
      `mutation($ids: [ID!]) { previewDatasetBatch(targets: {datasetIds: $ids}, operation: {kind: add_keyword, keyword: "gqlkw"}) { ${fields} } }`,
      { ids: [a] },
    );
    expect(p.errors).toBeUndefined();
    const batch = p.data.previewDatasetBatch;
    expect(batch).toMatchObject({
      status: 'previewed',
      changedCount: 1,
      canApply: true,
      sample: [{ uniqueId: a, before: false, after: true }],
    });
    const done = await gql(
      t.url,
      owner.key,
      `mutation($id: ID!, $token: String!) { applyDatasetBatch(id: $id, token: $token) { ${fields} } }`,
      {
        id: batch.id,
        token: batch.token,
      },
    );
    expect(done.data.applyDatasetBatch).toMatchObject({ status: 'applied', canUndo: true });
    expect(await keywordsOf(a)).toEqual(['gqlkw']);
    const back = await gql(t.url, owner.key, `mutation($id: ID!) { undoDatasetBatch(id: $id) { status } }`, {
      id: batch.id,
    });
    expect(back.data.undoDatasetBatch.status).toBe('undone');
    expect(await keywordsOf(a)).toEqual([]);
    const other = await gql(t.url, stranger.key, `query($id: ID!) { datasetBatch(id: $id) { id } }`, {
      id: batch.id,
    });
    expect(other.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    const list = await gql(t.url, owner.key, `{ datasetBatches(first: 5) { id status } }`);
    expect(list.data.datasetBatches.map((x: { id: string }) => x.id)).toContain(batch.id);
    const search = await gql(
      t.url,
      owner.key,
      `mutation { previewDatasetBatch(targets: {search: {sessionName: "${session}"}}, operation: {kind: set_public, public: true}) { targetCount changedCount } }`,
    );
    expect(search.errors).toBeUndefined();
    expect(search.data.previewDatasetBatch).toEqual({ targetCount: 1, changedCount: 1 });
  });
});
