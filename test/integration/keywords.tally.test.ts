import { startTestApp, type TestApp } from '../support/app';
import { rest } from '../support/http';
import { addMember, grant, makeProject, makeUser, unique, type TestUser } from '../support/factories';
import { newDataset } from '../support/catalog';
import { rawQuery } from '../../src/core/db/raw';
import type { Project } from '../../src/modules/project/project.entity';

/**
 * The exact total of a keyword filter from the keyword tally (docs/scale.md, "The keyword
 * filter"): equal, for every caller, to a count of the rows, through grants, deletion requests,
 * visibility changes, transfers, links added and removed (one by one and in bulk) and removal;
 * and the tally itself equal to a recount from the links.
 */
let t: TestApp;
let admin: TestUser;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let stranger: TestUser;
let project: Project;
const session = unique('kwtally');
const kw = unique('kwt');
const ds: Record<string, string> = {};

const add = async (id: string, keyword = kw, key = alice.key) => {
  const res = await rest(t.url, 'POST', `/datasets/${id}/keywords`, { key, query: { keyword } });
  expect(res.status).toBe(201);
};
const total = async (who: TestUser, query: Record<string, string>) => {
  const res = await rest(t.url, 'GET', '/datasets', { key: who.key, query: { ...query, limit: '1000' } });
  expect(res.status).toBe(200);
  expect(res.body.total_exact).toBe(true);
  return { total: res.body.total as number, items: res.body.items.length as number };
};

/** For every caller: the tallied total, the row count (the session filter is not tallied), the items. */
async function agree(keyword = kw): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const [name, who] of Object.entries({ admin, alice, bob, carol, stranger })) {
    const tallied = await total(who, { keyword });
    const rows = await total(who, { keyword, session_name: session });
    expect({ who: name, ...tallied }).toEqual({ who: name, total: rows.total, items: rows.total });
    out[name] = tallied.total;
  }
  const em = t.app.orm.em.fork();
  const [drift] = await rawQuery<{ n: number }>(
    em,
    `select count(*)::int as n from (
       (select keyword_id, public, owner_id, project_mfid, sum(n) as n from keyword_tally
        where keyword_id in (select id from keyword where text = ?) group by 1, 2, 3, 4 having sum(n) <> 0)
       except
       (select dk.keyword_id, d.public, case when d.public then null else d.owner_id end,
          case when d.public then null else d.project_mfid end, count(*)
        from dataset_keyword dk join dataset d on d.unique_id = dk.dataset_mfid
        where dk.keyword_id in (select id from keyword where text = ?) group by 1, 2, 3, 4)) x`,
    [keyword, keyword],
  );
  expect(drift.n).toBe(0);
  return out;
}

beforeAll(async () => {
  t = await startTestApp();
  [admin, alice, bob, carol, stranger] = await Promise.all([
    makeUser(t.app, { admin: true }),
    makeUser(t.app),
    makeUser(t.app),
    makeUser(t.app),
    makeUser(t.app),
  ]);
  project = await makeProject(t.app, admin.user);
  await addMember(t.app, project, alice.user, 'contributor');
  await addMember(t.app, project, bob.user, 'contributor');
  const make = async (name: string, key: string, body: Record<string, unknown> = {}) => {
    ds[name] = await newDataset(t.url, key, { dataset_name: name, session_name: session, ...body });
  };
  await make('pub', alice.key, { public: true });
  await make('privA', alice.key);
  await make('inP', alice.key, { project_id: project.projectId });
  await make('privB', bob.key);
  await make('grantedC', alice.key);
  await make('hiddenP', alice.key, { project_id: project.projectId });
  await make('bobInP', bob.key, { project_id: project.projectId });
  for (const name of ['pub', 'privA', 'inP', 'grantedC', 'hiddenP']) await add(ds[name]);
  for (const name of ['privB', 'bobInP']) await add(ds[name], kw, bob.key);
  await grant(t.app, ds.grantedC, 'dataset', 'user', carol.user.uniqueId, 'viewer');
  const requested = await rest(t.url, 'POST', `/resources/${ds.hiddenP}/delete`, {
    key: alice.key,
    query: { reason: 'x' },
  });
  expect(requested.status).toBe(201);
}, 120_000);
afterAll(() => t.close());

test('every caller: the tallied total is the row count', async () => {
  expect(await agree()).toEqual({ admin: 6, alice: 5, bob: 4, carol: 2, stranger: 1 });
});

test('the tally answers a keyword filter alone that matches one keyword', async () => {
  for (const [who, table] of [
    [bob, 'from keyword_tally'],
    [admin, 'from dataset_keyword dk where dk.keyword_id'],
  ] as const) {
    t.queries.length = 0;
    await total(who, { keyword: kw.toUpperCase() });
    expect(t.queries.some((q) => q.includes(table))).toBe(true);
    expect(t.queries.some((q) => q.startsWith('select count(*)::int as n from dataset d'))).toBe(false);
  }
});

test('visibility changes, transfers, links removed and added, bulk links and removal', async () => {
  const em = t.app.orm.em.fork();
  for (const body of [{ public: true }, { public: false }]) {
    expect((await rest(t.url, 'PATCH', `/datasets/${ds.privA}`, { key: alice.key, body })).status).toBe(200);
    await agree();
  }
  // raw SQL too: a transfer to bob, a move into the project
  await rawQuery(em, 'update dataset set owner_id = ? where unique_id = ?', [bob.user.uniqueId, ds.privA]);
  await rawQuery(em, 'update dataset set project_mfid = ? where unique_id = ?', [project.uniqueId, ds.privB]);
  expect(await agree()).toEqual({ admin: 6, alice: 5, bob: 5, carol: 2, stranger: 1 });
  await rawQuery(em, 'update dataset set project_mfid = null where unique_id = ?', [ds.inP]);
  expect((await agree()).bob).toBe(4);
  // a link removed, then links added in one statement to several datasets
  await rawQuery(em, 'delete from dataset_keyword where dataset_mfid = ?', [ds.pub]);
  expect((await agree()).stranger).toBe(0);
  const [{ id }] = await rawQuery<{ id: number }>(em, 'select id from keyword where text = ?', [kw]);
  const extra: string[] = [];
  for (let i = 0; i < 3; i++) {
    extra.push(
      await newDataset(t.url, carol.key, {
        dataset_name: `extra${i}`,
        session_name: session,
        public: i === 0,
      }),
    );
  }
  await rawQuery(
    em,
    `insert into dataset_keyword (dataset_mfid, keyword_id) select unnest(?::varchar[]), ?`,
    [`{${[ds.pub, ...extra].join(',')}}`, id],
  );
  expect(await agree()).toEqual({ admin: 9, alice: 6, bob: 5, carol: 5, stranger: 2 });
  // removal deletes the links with the dataset
  for (const name of ['pub', 'grantedC']) {
    const removed = await rest(t.url, 'DELETE', `/resources/${ds[name]}`, {
      key: admin.key,
      query: { force: true },
    });
    expect(removed.status).toBe(200);
  }
  const gone = await rawQuery(em, 'delete from dataset where unique_id = ? returning unique_id', [extra[2]]);
  expect(gone).toHaveLength(1);
  expect(await agree()).toEqual({ admin: 6, alice: 4, bob: 4, carol: 2, stranger: 1 });
});

test('a filter matching two keywords counts each dataset once, from the rows', async () => {
  const stem = unique('pair');
  const both = await newDataset(t.url, alice.key, { dataset_name: 'both', session_name: session });
  await add(both, `${stem}-one`);
  await add(both, `${stem}-two`);
  const one = await newDataset(t.url, alice.key, { dataset_name: 'one', session_name: session });
  await add(one, `${stem}-one`);
  t.queries.length = 0;
  expect(await total(alice, { keyword: stem })).toEqual({ total: 2, items: 2 });
  expect(t.queries.some((q) => q.includes('keyword_tally'))).toBe(false);
  await agree(`${stem}-two`);
});
