import { startTestApp, type TestApp } from '../support/app';
import { gql, rest } from '../support/http';
import { addMember, grant, makeProject, makeUser, unique, type TestUser } from '../support/factories';
import type { Project } from '../../src/modules/project/project.entity';
import { rawQuery } from '../../src/core/db/raw';
import { FACET_SAMPLE } from '../../src/modules/dataset/dataset-facets';
import { datasetTotalRows, datasetTotalRowsGrouped } from '../../src/modules/dataset/dataset-total';

/**
 * Dataset facets (GraphQL `datasetFacets`, REST `GET /datasets/facets`) and the full-text `text`
 * filter: counts of exactly the result set the list returns, for each caller.
 */
let t: TestApp;
let admin: TestUser;
let alice: TestUser;
let bob: TestUser;
let stranger: TestUser;
let project: Project;
let instrument: { id: string; name: string };
let session: string;
let word: string;
/** keywords of this file's own (the vocabulary is shared: another file's 'Alpha' would label 'alpha') */
let alpha: string;
let secret: string;
const ids: Record<string, string> = {};

interface Facet {
  value: string;
  label: string | null;
  count: number;
}
type Facets = Record<string, Facet[]> & { total: number; capped: boolean };

const create = async (key: string, body: Record<string, unknown>) => {
  const res = await rest(t.url, 'POST', '/datasets', { key, body });
  expect(res.status).toBe(201);
  return res.body.unique_id as string;
};
const restFacets = (key: string, query: Record<string, string | number | boolean>) =>
  rest<Facets>(t.url, 'GET', '/datasets/facets', { key, query });
const gqlFacets = (key: string, filter: Record<string, unknown>) =>
  gql<{ datasetFacets: Facets }>(
    t.url,
    key,
    `query($f: DatasetFilterInput) { datasetFacets(filter: $f) { total capped
      measurement { value label count } instrument { value label count } project { value label count }
      keyword { value label count } dataType { value label count } owner { value label count }
      public { value label count } } }`,
    { f: filter },
  );
/**
 * The rows of dataset_total that differ from those computed afresh from every dataset, each way;
 * one statement: one snapshot, whatever other test files write meanwhile.
 */
const totalsDrift = async (em: Parameters<typeof rawQuery>[0]) => {
  const [diff] = await rawQuery<{ stored: number; computed: number }>(
    em,
    `with stored as (
       select dim, value, scope, owner_id, project_mfid, shard, sum(n)::int as n from dataset_total
       group by 1, 2, 3, 4, 5, 6 having sum(n) <> 0),
     computed as (${datasetTotalRows('(select *, 1 as n from dataset)')})
     select (select count(*) from (select * from stored except select * from computed) x)::int as stored,
            (select count(*) from (select * from computed except select * from stored) x)::int as computed`,
  );
  return diff;
};

const counts = (facet: Facet[]) => Object.fromEntries(facet.map((v) => [v.value, v.count]));
const names = async (key: string, query: Record<string, string>) => {
  const res = await rest(t.url, 'GET', '/datasets', { key, query: { ...query, limit: 100 } });
  expect(res.status).toBe(200);
  return (res.body.items as { dataset_name: string }[]).map((d) => d.dataset_name).sort();
};

beforeAll(async () => {
  t = await startTestApp();
  admin = await makeUser(t.app, { admin: true });
  alice = await makeUser(t.app);
  bob = await makeUser(t.app);
  stranger = await makeUser(t.app);
  project = await makeProject(t.app, admin.user);
  await addMember(t.app, project, alice.user, 'contributor');
  await addMember(t.app, project, bob.user, 'viewer');
  const name = unique('Facet scope');
  const made = await rest(t.url, 'POST', '/instruments', {
    key: admin.key,
    body: { instrument_name: name, owner: admin.user.uniqueId },
  });
  expect(made.status).toBe(201);
  instrument = { id: made.body.unique_id as string, name };
  session = unique('facets');
  word = unique('zorblat').replace(/[^a-z]/gi, '');
  alpha = `alpha${word}`.toLowerCase();
  secret = `secret${word}`.toLowerCase();
  // alice: three in the project (two with the instrument), one public, one private
  ids.p0 = await create(alice.key, {
    dataset_name: 'p0',
    project_id: project.projectId,
    session_name: session,
    measurement: 'XRD',
    data_type: 'raw',
    instrument_name: name,
  });
  ids.p1 = await create(alice.key, {
    dataset_name: 'p1',
    project_id: project.projectId,
    session_name: session,
    measurement: 'XRD',
    instrument_name: name,
  });
  ids.p2 = await create(alice.key, {
    dataset_name: `p2 ${word}`,
    project_id: project.projectId,
    session_name: session,
    measurement: 'SEM',
  });
  ids.pub = await create(alice.key, {
    dataset_name: 'pub',
    public: true,
    session_name: session,
    measurement: 'SEM',
  });
  ids.priv = await create(alice.key, { dataset_name: 'priv', session_name: session, measurement: 'TEM' });
  // stranger: one private dataset of their own
  ids.own = await create(stranger.key, { dataset_name: 'own', session_name: session, measurement: 'TEM' });
  for (const [id, keyword] of [
    [ids.p0, alpha],
    [ids.p1, alpha],
    [ids.pub, alpha],
    [ids.priv, secret],
  ]) {
    const res = await rest(t.url, 'POST', `/datasets/${id}/keywords`, { key: alice.key, body: { keyword } });
    expect(res.status).toBe(201);
  }
  const meta = await rest(t.url, 'POST', `/resources/${ids.priv}/metadata`, {
    key: alice.key,
    body: { sample: { note: `annealed ${word}` } },
  });
  expect(meta.status).toBe(200);
  const pubMeta = await rest(t.url, 'POST', `/resources/${ids.pub}/metadata`, {
    key: alice.key,
    body: { beamline: 'cristallography station' },
  });
  expect(pubMeta.status).toBe(200);
});
afterAll(() => t.close());

test('each caller counts exactly what they may read, in every dimension', async () => {
  const mine = (await restFacets(alice.key, { session_name: session })).body;
  expect(mine.total).toBe(5);
  expect(counts(mine.measurement)).toEqual({ XRD: 2, SEM: 2, TEM: 1 });
  expect(mine.measurement.map((v) => v.value)).toEqual(['SEM', 'XRD', 'TEM']);
  expect(mine.instrument).toEqual([{ value: instrument.id, label: instrument.name, count: 2 }]);
  expect(mine.project).toEqual([
    { value: project.uniqueId, label: project.title ?? project.projectId, count: 3 },
  ]);
  expect(counts(mine.keyword)).toEqual({ [alpha]: 3, [secret]: 1 });
  expect(mine.data_type).toEqual([{ value: 'raw', label: null, count: 1 }]);
  expect(mine.owner).toEqual([{ value: alice.user.uniqueId, label: alice.user.username ?? null, count: 5 }]);
  expect(mine.public).toEqual([
    { value: 'false', label: 'private', count: 4 },
    { value: 'true', label: 'public', count: 1 },
  ]);

  // bob (project viewer): the three project datasets and the public one; never alice's private keyword
  const viewer = (await restFacets(bob.key, { session_name: session })).body;
  expect(viewer.total).toBe(4);
  expect(counts(viewer.keyword)).toEqual({ [alpha]: 3 });
  expect(counts(viewer.measurement)).toEqual({ XRD: 2, SEM: 2 });

  // the stranger: the public dataset and their own
  const outside = (await gqlFacets(stranger.key, { sessionName: session })).data!.datasetFacets;
  expect(outside.total).toBe(2);
  expect(counts(outside.measurement)).toEqual({ SEM: 1, TEM: 1 });
  expect(counts(outside.keyword)).toEqual({ [alpha]: 1 });
  expect(outside.instrument).toEqual([]);
  expect(outside.project).toEqual([]);
  expect(counts(outside.owner)).toEqual({ [alice.user.uniqueId]: 1, [stranger.user.uniqueId]: 1 });

  const all = (await gqlFacets(admin.key, { sessionName: session })).data!.datasetFacets;
  expect(all.total).toBe(6);
  expect(counts(all.measurement)).toEqual({ XRD: 2, SEM: 2, TEM: 2 });
});

test('facets follow the filters and agree with the list total', async () => {
  for (const [key, query] of [
    [alice.key, { session_name: session, measurement: 'XRD' }],
    [alice.key, { session_name: session, keyword: alpha }],
    [bob.key, { session_name: session, project_id: project.projectId }],
    [alice.key, { session_name: session, public: false }],
    [stranger.key, { session_name: session, instrument_mfid: instrument.id }],
  ] as const) {
    const facets = (await restFacets(key, query)).body;
    const list = await rest(t.url, 'GET', '/datasets', { key, query: { ...query, limit: 1 } });
    expect(facets.total).toBe(list.body.total);
  }
  const filtered = (await gqlFacets(alice.key, { sessionName: session, measurement: 'XRD' })).data!
    .datasetFacets;
  expect(filtered.total).toBe(2);
  expect(counts(filtered.dataType)).toEqual({ raw: 1 });
  expect(counts(filtered.keyword)).toEqual({ [alpha]: 2 });
});

test('text searches the fields and the metadata, only among readable datasets', async () => {
  // the word is in p2's name (project) and in priv's metadata (alice's private dataset)
  expect(await names(alice.key, { session_name: session, text: word })).toEqual(['p2 ' + word, 'priv']);
  expect(await names(bob.key, { session_name: session, text: word })).toEqual(['p2 ' + word]);
  expect(await names(stranger.key, { session_name: session, text: word })).toEqual([]);
  // stemming, metadata values and the structured fields
  expect(await names(alice.key, { session_name: session, text: 'station' })).toEqual(['pub']);
  expect(await names(alice.key, { session_name: session, text: 'xrd -p1' })).toEqual(['p0']);
  const facets = (await gqlFacets(bob.key, { sessionName: session, text: word })).data!.datasetFacets;
  expect(facets.total).toBe(1);
  const stranger0 = (await restFacets(stranger.key, { session_name: session, text: word })).body;
  expect(stranger0.total).toBe(0);
  expect(stranger0.keyword).toEqual([]);
  expect(stranger0.public).toEqual([]);
});

test('the text follows metadata and field changes', async () => {
  const replaced = await rest(t.url, 'POST', `/resources/${ids.priv}/metadata`, {
    key: alice.key,
    body: { sample: { note: 'quenched' } },
  });
  expect(replaced.status).toBe(200);
  expect(await names(alice.key, { session_name: session, text: word })).toEqual(['p2 ' + word]);
  expect(await names(alice.key, { session_name: session, text: 'quenched' })).toEqual(['priv']);
  const renamed = await rest(t.url, 'PATCH', `/datasets/${ids.p2}`, {
    key: alice.key,
    body: { dataset_name: 'renamed' },
  });
  expect(renamed.status).toBe(200);
  expect(await names(alice.key, { session_name: session, text: word })).toEqual([]);
  expect(await names(alice.key, { session_name: session, text: 'renamed' })).toEqual(['renamed']);
});

test('bad filters are refused and count nothing', async () => {
  expect((await restFacets(alice.key, { text: '   ' })).status).toBe(422);
  expect((await restFacets(alice.key, { text: 'x'.repeat(201) })).status).toBe(422);
  expect((await restFacets(alice.key, { project_scope: 'nope' })).status).toBe(422);
  const blank = await gqlFacets(alice.key, { text: '' });
  expect(blank.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
  // an unknown sample or project selects nothing rather than failing open
  const none = (await restFacets(alice.key, { session_name: session, project_mfid: 'none' })).body;
  expect(none.total).toBe(0);
});

describe('totals and facets from the tally', () => {
  interface Item {
    unique_id: string;
    measurement: string | null;
    data_type: string | null;
    public: boolean;
  }
  /** every item of the list (the row query), to compare the tallied figures with */
  const items = async (key: string, query: Record<string, string | boolean>) => {
    const res = await rest(t.url, 'GET', '/datasets', { key, query: { ...query, limit: 1000 } });
    expect(res.status).toBe(200);
    return { total: res.body.total as number, items: res.body.items as Item[] };
  };
  const tally = (list: Item[], pick: (i: Item) => string | null) => {
    const out: Record<string, number> = {};
    for (const i of list) {
      const v = pick(i);
      if (v !== null) out[v] = (out[v] ?? 0) + 1;
    }
    return out;
  };
  const agree = async () => {
    for (const who of [admin, alice, bob, stranger]) {
      for (const query of [
        { session_name: session },
        { measurement: 'TEM' },
        { project_id: project.projectId },
        { public: true, measurement: 'SEM' },
        { owner_orcid: alice.user.uniqueId, data_type: 'raw' },
        { instrument_mfid: instrument.id },
      ] as Record<string, string | boolean>[]) {
        const list = await items(who.key, query);
        expect(list.total).toBe(list.items.length);
        const facets = (await restFacets(who.key, query)).body;
        expect(facets.total).toBe(list.total);
        if (list.total < FACET_VALUES) {
          expect(counts(facets.measurement)).toEqual(tally(list.items, (i) => i.measurement));
          expect(counts(facets.public)).toEqual(tally(list.items, (i) => String(i.public)));
        }
      }
    }
  };
  const FACET_VALUES = 20;

  test('the total is read from the totals and the tally, not from the rows', async () => {
    const em = t.app.orm.em.fork();
    const total = async (query: Record<string, string>) =>
      (await rest(t.url, 'GET', '/datasets', { key: admin.key, query: { ...query, limit: 1 } })).body
        .total as number;
    const before = await total({ measurement: 'TEM' });
    const type = unique('type');
    // one filter dimension: dataset_total (a shard no dataset hashes to); two: dataset_tally
    await rawQuery(
      em,
      `insert into dataset_total (dim, value, scope, shard, n) values ('measurement', 'TEM', 'A', 99, 1000)`,
    );
    await rawQuery(
      em,
      `insert into dataset_tally (public, owner_id, measurement, data_type, n) values (false, 'probe', 'TEM', ?, 500)`,
      [type],
    );
    try {
      expect(await total({ measurement: 'TEM' })).toBe(before + 1000);
      expect(await total({ measurement: 'TEM', data_type: type })).toBe(500);
      // a filter the tally cannot answer counts the rows
      expect((await items(admin.key, { measurement: 'TEM', session_name: session })).total).toBeLessThan(
        1000,
      );
    } finally {
      await rawQuery(em, `delete from dataset_total where shard = 99`);
      await rawQuery(em, `delete from dataset_tally where owner_id = 'probe'`);
    }
  });

  test('concurrent statements writing many datasets each neither deadlock nor let the tallies drift', async () => {
    // each statement touches the tally rows of public and private datasets in random order
    const tag = unique('bulk');
    const write = (sqlText: string) => rawQuery(t.app.orm.em.fork(), sqlText, [alice.user.uniqueId, tag]);
    // private (other test files list what they may read meanwhile), measurements in random order
    const insert = `insert into dataset (unique_id, owner_id, session_name, measurement)
      select substr(md5(random()::text || g), 1, 26), ?, ?, (array['TEM', 'SEM', 'XRD'])[1 + floor(random() * 3)::int]
      from generate_series(1, 40) g`;
    const flip = `update dataset set measurement = case measurement when 'TEM' then 'SEM' when 'SEM' then 'XRD' else 'TEM' end
      where owner_id = ? and session_name = ?`;
    try {
      for (let round = 0; round < 9; round++) {
        await Promise.all([write(insert), write(insert), write(round % 3 === 2 ? flip : insert)]);
      }
      // the keyword tally, when statements flip the visibility of many datasets with keywords
      const em = t.app.orm.em.fork();
      await rawQuery(
        em,
        `insert into keyword (text) select ? || g from generate_series(1, 3) g on conflict do nothing`,
        [tag],
      );
      await rawQuery(
        em,
        `insert into dataset_keyword (dataset_mfid, keyword_id)
         select d.unique_id, k.id from dataset d join keyword k on k.text like ? || '%'
         where d.session_name = ? and (k.text <> ? || '3' or d.measurement = 'TEM')`,
        [tag, tag, tag],
      );
      // one half moves from alice to bob while the other moves from bob to alice: their keywords'
      // tally rows are taken in opposite orders
      const half = `get_byte(decode(md5(unique_id), 'hex'), 0) % 2`;
      const swap = `owner_id = case when owner_id = ? then ? else ? end`;
      const people = [alice.user.uniqueId, bob.user.uniqueId, alice.user.uniqueId];
      await rawQuery(
        em,
        `update dataset set owner_id = case when ${half} = 1 then ? else ? end where session_name = ?`,
        [bob.user.uniqueId, alice.user.uniqueId, tag],
      );
      const flipHalf = (parity: number) =>
        rawQuery(t.app.orm.em.fork(), `update dataset set ${swap} where session_name = ? and ${half} = ?`, [
          ...people,
          tag,
          parity,
        ]);
      for (let round = 0; round < 6; round++) await Promise.all([flipHalf(0), flipHalf(1)]);
      const [keywordDrift] = await rawQuery<{ n: number }>(
        em,
        `select count(*)::int as n from (
           (select keyword_id, public, owner_id, project_mfid, sum(n)::int from keyword_tally
            where keyword_id in (select id from keyword where text like ? || '%')
            group by 1, 2, 3, 4 having sum(n) <> 0)
           except
           (select dk.keyword_id, d.public, case when d.public then null else d.owner_id end,
              case when d.public then null else d.project_mfid end, count(*)::int
            from dataset_keyword dk join dataset d on d.unique_id = dk.dataset_mfid
            where dk.keyword_id in (select id from keyword where text like ? || '%') group by 1, 2, 3, 4)) x`,
        [tag, tag],
      );
      expect(keywordDrift.n).toBe(0);
      const [drift] = await rawQuery<{ n: number }>(
        em,
        `select count(*)::int as n from (
           (select public, owner_id, project_mfid, instrument_mfid, measurement, data_type, sum(n)::int
            from dataset_tally where owner_id in (?, ?) group by 1, 2, 3, 4, 5, 6 having sum(n) <> 0)
           except
           (select public, owner_id, project_mfid, instrument_mfid, measurement, data_type, count(*)::int
            from dataset where owner_id in (?, ?) group by 1, 2, 3, 4, 5, 6)) x`,
        [alice.user.uniqueId, bob.user.uniqueId, alice.user.uniqueId, bob.user.uniqueId],
      );
      expect(drift.n).toBe(0);
    } finally {
      await rawQuery(t.app.orm.em.fork(), `delete from dataset where session_name = ?`, [tag]);
      await rawQuery(t.app.orm.em.fork(), `delete from keyword where text like ? || '%'`, [tag]);
    }
  });

  test('dataset_total is what the datasets add up to, after every kind of write', async () => {
    // inserts, changes of counted and other columns (two rows in one statement), removals
    const em = t.app.orm.em.fork();
    const other = unique('totals');
    const made = await Promise.all(
      ['TEM', 'SEM', 'TEM'].map((m, i) =>
        create(alice.key, { dataset_name: `t${i}`, session_name: other, measurement: m, public: i === 1 }),
      ),
    );
    await rawQuery(em, `update dataset set measurement = 'XRD', public = not public where unique_id in (?)`, [
      made.slice(0, 2),
    ]);
    await rawQuery(em, `update dataset set dataset_name = 'renamed' where unique_id = ?`, [made[2]]);
    const removed = await rest(t.url, 'DELETE', `/resources/${made[2]}`, {
      key: admin.key,
      query: { force: true },
    });
    expect(removed.status).toBe(200);
    expect(await totalsDrift(em)).toEqual({ stored: 0, computed: 0 });
  });

  test('dataset_total stays exact when one statement changes many datasets alike (a batch edit)', async () => {
    // the trigger groups a statement's datasets by their columns and shard before spreading
    // them: many alike, some moving between scopes, some changing an uncounted column only
    const em = t.app.orm.em.fork();
    const other = unique('grouped');
    const made = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        create(alice.key, {
          dataset_name: `g${i}`,
          session_name: other,
          measurement: i % 3 ? 'TEM' : 'SEM',
          public: i % 4 === 0,
        }),
      ),
    );
    await rawQuery(em, `update dataset set public = not public where unique_id in (?)`, [made.slice(0, 16)]);
    await rawQuery(em, `update dataset set measurement = 'XRD' where unique_id in (?)`, [made.slice(8)]);
    await rawQuery(em, `update dataset set dataset_name = dataset_name || '!' where unique_id in (?)`, [
      made,
    ]);
    const totals = (source: string) =>
      rawQuery<{ a: number; b: number }>(
        em,
        `with a as (${datasetTotalRows(source)}), b as (${datasetTotalRowsGrouped(source)})
         select (select count(*) from (select * from a except select * from b) x)::int as a,
                (select count(*) from (select * from b except select * from a) x)::int as b`,
      );
    // the grouped rows are the spread rows, for additions and for an update's both sides
    expect(await totals('(select *, 1 as n from dataset)')).toEqual([{ a: 0, b: 0 }]);
    expect(
      await totals(
        `(select unique_id, public, owner_id, project_mfid, instrument_mfid, measurement, data_type,
           session_name, data_format, 1 as n from dataset
          union all select unique_id, not public, owner_id, project_mfid, instrument_mfid, 'TEM', data_type,
           session_name, data_format, -1 from dataset)`,
      ),
    ).toEqual([{ a: 0, b: 0 }]);
    expect(await totalsDrift(em)).toEqual({ stored: 0, computed: 0 });
  });

  test('grants, deletion requests, changes and removal keep them exact', async () => {
    await agree();
    // a grant lets the stranger read alice's private dataset
    await grant(t.app, ids.priv, 'dataset', 'user', stranger.user.uniqueId, 'viewer');
    expect((await items(stranger.key, { session_name: session })).total).toBe(3);
    // a pending deletion request hides one of the project datasets
    const requested = await rest(t.url, 'POST', `/resources/${ids.p1}/delete`, {
      key: alice.key,
      query: { reason: 'bench' },
    });
    expect(requested.status).toBe(201);
    expect((await items(bob.key, { session_name: session })).total).toBe(3);
    // public, measurement and data type changes move the dataset between tally rows
    for (const body of [{ public: true }, { measurement: 'TEM', data_type: 'processed' }]) {
      const res = await rest(t.url, 'PATCH', `/datasets/${ids.p0}`, { key: alice.key, body });
      expect(res.status).toBe(200);
    }
    await agree();
    // removal
    const removed = await rest(t.url, 'DELETE', `/resources/${ids.own}`, {
      key: admin.key,
      query: { force: true },
    });
    expect(removed.status).toBe(200);
    await agree();
    expect((await items(admin.key, { session_name: session, measurement: 'TEM' })).total).toBe(2);
  });
});

describe('facets over more than FACET_SAMPLE datasets', () => {
  let carol: TestUser;
  let bulk: string;
  let fresh: string;
  let old: string;
  const N = FACET_SAMPLE + 5;

  beforeAll(async () => {
    carol = await makeUser(t.app);
    bulk = unique('bulk');
    fresh = unique('kwfresh');
    old = unique('kwold');
    const em = t.app.orm.em.fork();
    // carol's N private datasets, MFIDs in creation order (zzz…: newer than any real MFID)
    const prefix = `zzz${Math.random().toString(36).slice(2, 8)}`;
    await rawQuery(
      em,
      `insert into dataset (unique_id, dataset_name, owner_id, measurement, data_type, public, session_name)
       select ? || lpad(g::text, 26 - length(?), '0'), 'bulk ' || g, ?, 'BULK', case when g % 2 = 0 then 'even' else 'odd' end, false, ?
       from generate_series(1, ?) g`,
      [prefix, prefix, carol.user.uniqueId, bulk, N],
    );
    // the five newest carry `fresh`, the five oldest `old`; alice's private dataset carries `fresh` too
    const mine = await create(alice.key, { dataset_name: 'alice in bulk', session_name: bulk });
    for (const [keyword, datasets] of [
      [
        fresh,
        `select unique_id from dataset where session_name = '${bulk}' and owner_id = '${carol.user.uniqueId}' order by unique_id desc limit 5`,
      ],
      [
        old,
        `select unique_id from dataset where session_name = '${bulk}' and owner_id = '${carol.user.uniqueId}' order by unique_id limit 5`,
      ],
    ]) {
      const [{ id }] = await rawQuery<{ id: number }>(
        em,
        'insert into keyword (text) values (?) returning id',
        [keyword],
      );
      await rawQuery(
        em,
        `insert into dataset_keyword (dataset_mfid, keyword_id) select unique_id, ? from (${datasets}) x`,
        [id],
      );
    }
    await rawQuery(
      em,
      'insert into dataset_keyword (dataset_mfid, keyword_id) select ?, id from keyword where text = ?',
      [mine, fresh],
    );
  });

  test('a filter the tally does not answer: counts over the newest FACET_SAMPLE, the total exact, capped', async () => {
    const facets = (await restFacets(carol.key, { session_name: bulk })).body;
    expect(facets.capped).toBe(true);
    expect(facets.total).toBe(N);
    // the five newest are in the sample, the five oldest are not; alice's dataset is never counted
    expect(counts(facets.keyword)).toEqual({ [fresh]: 5 });
    expect(counts(facets.measurement)).toEqual({ BULK: FACET_SAMPLE });
    expect(counts(facets.public)).toEqual({ false: FACET_SAMPLE });
    const list = await rest(t.url, 'GET', '/datasets', {
      key: carol.key,
      query: { session_name: bulk, limit: 1 },
    });
    expect(list.body.total).toBe(N);
  });

  test('a tallied filter: exact column counts and total, keyword counts over the sample', async () => {
    const facets = (await gqlFacets(carol.key, { ownerOrcid: carol.user.uniqueId })).data!.datasetFacets;
    expect(facets.capped).toBe(true);
    expect(facets.total).toBe(N);
    expect(counts(facets.measurement)).toEqual({ BULK: N });
    expect(counts(facets.dataType)).toEqual({ even: Math.floor(N / 2), odd: Math.ceil(N / 2) });
    expect(counts(facets.keyword)).toEqual({ [fresh]: 5 });
  });

  test('under the sample every count is exact and not capped', async () => {
    for (const keyword of [fresh, old]) {
      const facets = (await restFacets(carol.key, { session_name: bulk, keyword })).body;
      expect(facets.capped).toBe(false);
      expect(facets.total).toBe(5);
      expect(counts(facets.keyword)).toEqual({ [keyword]: 5 });
      expect(counts(facets.measurement)).toEqual({ BULK: 5 });
    }
    // alice reads her own dataset with `fresh`, none of carol's
    const hers = (await restFacets(alice.key, { session_name: bulk, keyword: fresh })).body;
    expect(hers.capped).toBe(false);
    expect(hers.total).toBe(1);
    expect(counts(hers.keyword)).toEqual({ [fresh]: 1 });
    const adminView = (await gqlFacets(admin.key, { sessionName: bulk, keyword: fresh })).data!.datasetFacets;
    expect(adminView.total).toBe(6);
    expect(adminView.capped).toBe(false);
  });

  test('the keyword filter pages newest first and agrees with its total', async () => {
    const page = await rest(t.url, 'GET', '/datasets', {
      key: carol.key,
      query: { keyword: fresh, limit: 3 },
    });
    expect(page.body.total).toBe(5);
    const items = page.body.items as { dataset_name: string }[];
    expect(items.map((d) => d.dataset_name)).toEqual([`bulk ${N}`, `bulk ${N - 1}`, `bulk ${N - 2}`]);
    expect(
      (
        await rest(t.url, 'GET', '/datasets', {
          key: carol.key,
          query: { keyword: 'no-such-keyword-x', limit: 1 },
        })
      ).body.total,
    ).toBe(0);
  });
});
