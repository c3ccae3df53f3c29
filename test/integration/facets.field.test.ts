import { startTestApp, type TestApp } from '../support/app';
import { rest, type Reply } from '../support/http';
import { addMember, grant, makeProject, makeUser, unique, type TestUser } from '../support/factories';
import { newDataset, newSample } from '../support/catalog';
import type { Project } from '../../src/modules/project/project.entity';
import { rawQuery } from '../../src/core/db/raw';
import { sampleTotalRows } from '../../src/modules/sample/sample-total';

/**
 * The field-mode facets of the 3.2 client (`GET /datasets/facets?field=`, `GET /samples/facets`):
 * exact counts over the caller's own result set, every bucket agreeing with the list's total for
 * that value, paged by an opaque cursor in each order, with typed references, and clear 422s.
 */
let t: TestApp;
let admin: TestUser;
let alice: TestUser;
let bob: TestUser;
let stranger: TestUser;
let project: Project;
let instrument: string;
const m = { a: unique('xrd'), b: unique('tem'), c: unique('sem') };
const sessions = { one: unique('s1'), two: unique('s2') };

type Bucket = { value: string; label: string | null; count: number } & Record<string, unknown>;
const facets = (
  key: string,
  query: Record<string, string | number>,
  path = '/datasets/facets',
  version: 2 | 3 = 3,
) => rest(t.url, 'GET', path, { key, query, version });

/** Every bucket of a field, walking the pages. */
async function allBuckets(key: string, query: Record<string, string | number>, path?: string) {
  const out: Bucket[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const res = await facets(key, { ...query, ...(cursor ? { cursor } : {}) }, path);
    expect(res.status).toBe(200);
    out.push(...(res.body.items as Bucket[]));
    cursor = res.body.next_cursor as string | null;
    pages++;
  } while (cursor && pages < 50);
  return out;
}

beforeAll(async () => {
  t = await startTestApp();
  admin = await makeUser(t.app, { admin: true });
  [alice, bob, stranger] = await Promise.all([makeUser(t.app), makeUser(t.app), makeUser(t.app)]);
  project = await makeProject(t.app, admin.user);
  await addMember(t.app, project, alice.user, 'contributor');
  await addMember(t.app, project, bob.user, 'viewer');
  const inst = await rest(t.url, 'POST', '/instruments', {
    key: admin.key,
    body: { instrument_name: unique('Diffractometer'), instrument_id: unique('diff') },
  });
  expect(inst.status).toBe(201);
  instrument = inst.body.unique_id as string;
  const mine = { project_id: project.projectId };
  // alice, in the project: a×3 (two in session one, with the instrument), b×2
  for (let i = 0; i < 3; i++)
    await newDataset(t.url, alice.key, {
      ...mine,
      measurement: m.a,
      session_name: i < 2 ? sessions.one : sessions.two,
      data_format: 'h5',
      ...(i < 2 ? { instrument_mfid: instrument } : {}),
    });
  for (let i = 0; i < 2; i++)
    await newDataset(t.url, alice.key, { ...mine, measurement: m.b, session_name: sessions.two });
  // the stranger: private (never counted for alice or bob), one public, one granted to bob
  for (let i = 0; i < 4; i++)
    await newDataset(t.url, stranger.key, {
      measurement: m.a,
      session_name: sessions.one,
      data_format: 'h5',
    });
  await newDataset(t.url, stranger.key, { measurement: m.c, session_name: sessions.one, public: true });
  const granted = await newDataset(t.url, stranger.key, { measurement: m.c, session_name: sessions.two });
  await grant(t.app, granted, 'dataset', 'user', bob.user.uniqueId, 'viewer');
  // alice's dataset a deletion request hides (from everyone's lists, so from every bucket)
  const doomed = await newDataset(t.url, alice.key, {
    ...mine,
    measurement: m.b,
    session_name: sessions.one,
  });
  expect((await rest(t.url, 'POST', `/resources/${doomed}/delete`, { key: alice.key })).status).toBeLessThan(
    300,
  );
  // samples: alice's in the project, the stranger's private
  for (const type of ['film', 'film', 'powder'])
    await newSample(t.url, alice.key, { ...mine, sample_type: `${type}-${m.a}` });
  for (let i = 0; i < 3; i++) await newSample(t.url, stranger.key, { sample_type: `film-${m.a}` });
  // a public one, one granted to bob, and alice's that a deletion request hides
  await newSample(t.url, stranger.key, { sample_type: `powder-${m.a}`, public: true });
  const grantedSample = await newSample(t.url, stranger.key, { sample_type: `film-${m.a}` });
  await grant(t.app, grantedSample, 'sample', 'user', bob.user.uniqueId, 'viewer');
  const doomedSample = await newSample(t.url, alice.key, { ...mine, sample_type: `film-${m.a}` });
  expect(
    (await rest(t.url, 'POST', `/resources/${doomedSample}/delete`, { key: alice.key })).status,
  ).toBeLessThan(300);
}, 120_000);
afterAll(() => t.close());

describe('GET /datasets/facets?field=', () => {
  test('the client keys: {field, items[{value, label, count}], limit, next_cursor}, by value ascending by default', async () => {
    const res = await facets(alice.key, { field: 'measurement', limit: 100, project_id: project.projectId });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['field', 'items', 'limit', 'next_cursor']);
    expect(res.body).toMatchObject({ field: 'measurement', limit: 100, next_cursor: null });
    const expected = [
      { value: m.a, label: m.a, count: 3 },
      { value: m.b, label: m.b, count: 2 },
    ].sort((x, y) => (x.value < y.value ? -1 : 1));
    expect(res.body.items).toEqual(expected);
    // the same on /api/v2, and without field the older all-dimensions answer
    expect(
      (await facets(alice.key, { field: 'measurement', project_id: project.projectId }, undefined, 2)).body
        .items,
    ).toEqual(expected);
    const old = await facets(alice.key, { project_id: project.projectId });
    expect(old.body).toHaveProperty('measurement');
    expect(old.body).not.toHaveProperty('field');
  });

  test.each([
    ['alice', () => alice],
    ['bob', () => bob],
    ['the stranger', () => stranger],
    ['an administrator', () => admin],
  ])('every bucket is what the list counts for %s (visibility in the query)', async (_, who) => {
    const key = who().key;
    for (const field of [
      'measurement',
      'session',
      'owner',
      'data_format',
      'instrument',
      'project',
    ] as const) {
      // no filter, and `public` alone: the field's rows of dataset_total; the others: the tally or the rows
      const filters: Record<string, string>[] = [
        {},
        { public: 'false' },
        { public: 'true' },
        { session_name: sessions.one },
        { session_name: sessions.two },
        { measurement: m.a },
      ];
      for (const filter of filters) {
        // without session or measurement, the other files of this worker's database count too:
        // big pages, and each bucket of this file's values checked against the list
        const narrow = 'session_name' in filter || 'measurement' in filter;
        const buckets = await allBuckets(key, { field, limit: narrow ? 2 : 1000, ...filter });
        const param = {
          measurement: 'measurement',
          session: 'session_name',
          owner: 'owner_id',
          data_format: 'data_format',
          instrument: 'instrument_mfid',
          project: 'project_mfid',
        }[field];
        const ours = [
          ...Object.values(m),
          ...Object.values(sessions),
          ...[alice, bob, stranger].map((u) => u.user.uniqueId),
          instrument,
          project.uniqueId,
          'h5',
        ];
        for (const b of buckets.filter((x) => narrow || ours.includes(x.value))) {
          const list = await rest(t.url, 'GET', '/datasets', {
            key,
            version: 3,
            query: { ...filter, [param]: b.value, limit: 1 },
          });
          expect([field, b.value, b.count]).toEqual([field, b.value, list.body.total]);
        }
        const total = (
          await rest(t.url, 'GET', '/datasets', {
            key,
            version: 3,
            query: { ...filter, [`${param}_is_null`]: 'False', limit: 1 },
          })
        ).body.total;
        expect(buckets.reduce((s, b) => s + b.count, 0)).toBe(total);
      }
    }
  });

  test("another user's private datasets are never counted", async () => {
    const owners = await allBuckets(alice.key, { field: 'owner', measurement: m.a });
    expect(owners.map((b) => [b.value, b.count])).toEqual([[alice.user.uniqueId, 3]]);
    const bobs = await allBuckets(bob.key, { field: 'measurement', session_name: sessions.two });
    // bob: alice's project datasets of session two and the one granted to him
    expect(Object.fromEntries(bobs.map((b) => [b.value, b.count]))).toEqual({ [m.a]: 1, [m.b]: 2, [m.c]: 1 });
    const admins = await allBuckets(admin.key, { field: 'owner', measurement: m.a });
    expect(Object.fromEntries(admins.map((b) => [b.value, b.count]))).toEqual({
      [alice.user.uniqueId]: 3,
      [stranger.user.uniqueId]: 4,
    });
  });

  test('without a filter (or with `public` alone) every field is read from dataset_total, not from the rows', async () => {
    const em = t.app.orm.em.fork();
    const counts = async (field: string, query: Record<string, string> = {}) =>
      Object.fromEntries(
        (await allBuckets(admin.key, { field, ...query })).map((b) => [b.value, b.count]),
      ) as Record<string, number>;
    const before = await counts('session');
    // a row in a shard no dataset hashes to: what answers is the table
    await rawQuery(
      em,
      `insert into dataset_total (dim, value, scope, shard, n) values ('session', ?, 'A', 99, 1000), ('data_format', 'h5', 'A', 99, 500)`,
      [sessions.one],
    );
    try {
      expect(await counts('session')).toEqual({ ...before, [sessions.one]: before[sessions.one] + 1000 });
      expect((await counts('data_format')).h5).toBeGreaterThan(500);
      // a filter the table cannot answer counts the rows
      expect((await counts('session', { measurement: m.a }))[sessions.one]).toBeLessThan(1000);
    } finally {
      await rawQuery(em, `delete from dataset_total where shard = 99`);
    }
  });

  test('owner, project and instrument buckets carry typed references and labels', async () => {
    const [owner] = await allBuckets(alice.key, { field: 'owner', measurement: m.b });
    expect(owner).toMatchObject({
      value: alice.user.uniqueId,
      label: alice.user.username,
      owner: { unique_id: alice.user.uniqueId, username: alice.user.username },
    });
    const [proj] = await allBuckets(alice.key, { field: 'project', measurement: m.b });
    expect(proj).toMatchObject({
      value: project.uniqueId,
      label: project.title,
      project: { unique_id: project.uniqueId, project_id: project.projectId, title: project.title },
    });
    const [inst] = await allBuckets(alice.key, { field: 'instrument', measurement: m.a });
    expect(inst).toMatchObject({ value: instrument, count: 2, instrument: { unique_id: instrument } });
    expect(inst.label).toBe(
      inst.instrument && (inst.instrument as { instrument_name: string }).instrument_name,
    );
  });

  test('pages in every order cover each bucket once, in order', async () => {
    const filter = { field: 'session', project_id: project.projectId };
    for (const sort of ['value', 'label', 'count'] as const) {
      for (const direction of ['asc', 'desc'] as const) {
        const whole = await facets(admin.key, { field: 'measurement', sort, direction, limit: 1000 });
        const paged = await allBuckets(admin.key, { field: 'measurement', sort, direction, limit: 1 });
        expect(paged).toEqual(whole.body.items);
        const key = (b: Bucket) =>
          sort === 'count' ? b.count : sort === 'label' ? (b.label ?? b.value) : b.value;
        for (let i = 1; i < paged.length; i++) {
          const [a, b] = [key(paged[i - 1]), key(paged[i])];
          if (a !== b) expect(direction === 'asc' ? a < b : a > b).toBe(true);
        }
        expect((await allBuckets(alice.key, { ...filter, sort, direction, limit: 1 })).length).toBe(2);
      }
    }
    // direction alone is allowed here (the client's test_facet_direction_alone_is_allowed)
    const desc = await facets(alice.key, { ...filter, direction: 'desc' });
    expect(desc.status).toBe(200);
    expect(desc.body.items.map((b: Bucket) => b.value)).toEqual(
      [sessions.one, sessions.two].sort().reverse(),
    );
  });

  test('bad input is a 422 naming the parameter', async () => {
    const bad = async (query: Record<string, string | number>, field: string, path?: string) => {
      const res = await facets(alice.key, query, path);
      expect([res.status, res.body.fields?.[0]?.field]).toEqual([422, field]);
    };
    await bad({ field: 'bogus' }, 'field');
    await bad({ field: 'sample_type' }, 'field');
    await bad({ field: 'measurement', limit: 0 }, 'limit');
    await bad({ field: 'measurement', limit: 1001 }, 'limit');
    await bad({ field: 'measurement', sort: 'created' }, 'sort');
    await bad({ field: 'measurement', direction: 'up' }, 'direction');
    await bad({ limit: 5 }, 'limit');
    await bad({ cursor: 'x' }, 'cursor');
    await bad({ field: 'measurement', keyword_typo: 'x' }, 'keyword_typo');
    const first = await facets(admin.key, { field: 'measurement', limit: 1 });
    const cursor = first.body.next_cursor as string;
    expect(cursor).toEqual(expect.any(String));
    // a cursor is opaque and bound to its field and order
    await bad({ field: 'measurement', limit: 1, cursor: `${cursor}x` }, 'cursor');
    await bad({ field: 'measurement', limit: 1, cursor: cursor.slice(0, -3) }, 'cursor');
    await bad({ field: 'session', limit: 1, cursor }, 'cursor');
    await bad({ field: 'measurement', sort: 'count', limit: 1, cursor }, 'cursor');
    const text = Buffer.from(cursor, 'base64url').toString('utf8');
    const forged = Buffer.from(
      text.replace('"measurement","value","asc"', '"measurement","value","asc",1'),
      'utf8',
    ).toString('base64url');
    await bad({ field: 'measurement', limit: 1, cursor: forged }, 'cursor');
    await bad({ field: 'measurement', limit: 1, cursor: 'not a cursor' }, 'cursor');
  });
});

describe('GET /samples/facets', () => {
  test('sample_type, owner and project over what the caller reads', async () => {
    const types = await allBuckets(
      alice.key,
      { field: 'sample_type', project_id: project.projectId },
      '/samples/facets',
    );
    expect(types.map((b) => [b.value, b.label, b.count])).toEqual([
      [`film-${m.a}`, `film-${m.a}`, 2],
      [`powder-${m.a}`, `powder-${m.a}`, 1],
    ]);
    // the stranger's private samples of the same type are counted for no one else
    const film = await allBuckets(
      alice.key,
      { field: 'owner', sample_type: `film-${m.a}` },
      '/samples/facets',
    );
    expect(film.map((b) => [b.value, b.count])).toEqual([[alice.user.uniqueId, 2]]);
    expect(film[0].owner).toMatchObject({ unique_id: alice.user.uniqueId });
    const all = await allBuckets(
      admin.key,
      { field: 'owner', sample_type: `film-${m.a}`, sort: 'count', direction: 'desc' },
      '/samples/facets',
    );
    expect(all.map((b) => [b.value, b.count])).toEqual([
      [stranger.user.uniqueId, 4],
      [alice.user.uniqueId, 2],
    ]);
    const proj = await allBuckets(bob.key, { field: 'project', visibility: 'private' }, '/samples/facets');
    expect(proj).toEqual([
      expect.objectContaining({
        value: project.uniqueId,
        count: 3,
        project: expect.objectContaining({ project_id: project.projectId }),
      }),
    ]);
  });

  test.each([
    ['alice', () => alice],
    ['bob', () => bob],
    ['the stranger', () => stranger],
    ['an administrator', () => admin],
  ])('without a filter (sample_total) every bucket is what the list counts for %s', async (_, who) => {
    const key = who().key;
    const param = { sample_type: 'sample_type', owner: 'owner_id', project: 'project_mfid' } as const;
    const ours = [
      `film-${m.a}`,
      `powder-${m.a}`,
      ...[alice, bob, stranger].map((u) => u.user.uniqueId),
      project.uniqueId,
    ];
    for (const field of Object.keys(param) as (keyof typeof param)[]) {
      for (const filter of [{}, { visibility: 'private' }, { visibility: 'public' }] as Record<
        string,
        string
      >[]) {
        const buckets = await allBuckets(key, { field, limit: 1000, ...filter }, '/samples/facets');
        for (const b of buckets.filter((x) => ours.includes(x.value))) {
          const list = await rest(t.url, 'GET', '/samples', {
            key,
            version: 3,
            query: { ...filter, [param[field]]: b.value, limit: 1 },
          });
          expect([field, filter, b.value, b.count]).toEqual([field, filter, b.value, list.body.total]);
        }
        const total = (
          await rest(t.url, 'GET', '/samples', {
            key,
            version: 3,
            query: { ...filter, [`${param[field]}_is_null`]: 'False', limit: 1 },
          })
        ).body.total;
        expect([field, filter, buckets.reduce((n, b) => n + b.count, 0)]).toEqual([field, filter, total]);
      }
    }
  });

  test('without a filter the buckets are read from sample_total, not from the rows', async () => {
    const em = t.app.orm.em.fork();
    const type = `film-${m.a}`;
    const count = async (query: Record<string, string> = {}) =>
      (await allBuckets(admin.key, { field: 'sample_type', limit: 1000, ...query }, '/samples/facets')).find(
        (b) => b.value === type,
      )?.count ?? 0;
    const before = await count();
    await rawQuery(
      em,
      `insert into sample_total (dim, value, scope, shard, n) values ('sample_type', ?, 'A', 99, 1000)`,
      [type],
    );
    try {
      expect(await count()).toBe(before + 1000);
      // a filter the table cannot answer counts the rows
      expect(await count({ project_id: project.projectId })).toBeLessThan(1000);
    } finally {
      await rawQuery(em, `delete from sample_total where shard = 99`);
    }
  });

  test.each([
    ['alice', () => alice],
    ['bob', () => bob],
    ['the stranger', () => stranger],
    ['an administrator', () => admin],
  ])(
    'the sample list total without a filter (sample_total) is what the rows count for %s',
    async (_, who) => {
      const key = who().key;
      for (const visibility of [undefined, 'private', 'public']) {
        const q: Record<string, string> = visibility ? { visibility } : {};
        const fromTable = await rest(t.url, 'GET', '/samples', {
          key,
          version: 3,
          query: { ...q, limit: 1 },
        });
        // a time range the totals table cannot answer: the rows are counted
        const counted = await rest(t.url, 'GET', '/samples', {
          key,
          version: 3,
          query: { ...q, creation_time_gte: '1970-01-01T00:00:00Z', limit: 1 },
        });
        expect(fromTable.status).toBe(200);
        expect([visibility, fromTable.body.total]).toEqual([visibility, counted.body.total]);
      }
    },
  );

  test('the sample list total without a filter is read from sample_total, not from the rows', async () => {
    const em = t.app.orm.em.fork();
    const total = async (query: Record<string, string> = {}) =>
      (await rest(t.url, 'GET', '/samples', { key: admin.key, version: 3, query: { ...query, limit: 1 } }))
        .body.total as number;
    const before = await total();
    await rawQuery(
      em,
      `insert into sample_total (dim, value, scope, shard, n) values ('all', null, 'A', 99, 1000)`,
    );
    try {
      expect(await total()).toBe(before + 1000);
      expect(await total({ creation_time_gte: '1970-01-01T00:00:00Z' })).toBe(before);
    } finally {
      await rawQuery(em, `delete from sample_total where shard = 99`);
    }
  });

  test('sample_total is what the samples add up to, after inserts, changes and removal', async () => {
    const em = t.app.orm.em.fork();
    const moved = await newSample(t.url, alice.key, { sample_type: unique('moving') });
    expect(
      (
        await rest(t.url, 'PATCH', `/samples/${moved}`, {
          key: alice.key,
          version: 3,
          body: { sample_type: unique('moved') },
        })
      ).status,
    ).toBeLessThan(300);
    await rawQuery(em, `update sample set public = not public where unique_id = ?`, [moved]);
    const gone = await newSample(t.url, alice.key, { sample_type: `film-${m.a}` });
    await rawQuery(em, `delete from sample where unique_id = ?`, [gone]);
    const diff = await rawQuery<{ n: number }>(
      em,
      `with computed as (${sampleTotalRows('(select *, 1 as n from sample)')}),
       stored as (select dim, value, scope, owner_id, project_mfid, shard, sum(n)::int as n from sample_total
                  group by 1, 2, 3, 4, 5, 6 having sum(n) <> 0)
       select count(*)::int as n from ((select * from computed except select * from stored)
         union all (select * from stored except select * from computed)) x`,
    );
    expect(diff[0].n).toBe(0);
  });

  test('field is required; dataset fields and unknown parameters are 422s', async () => {
    for (const [query, field] of [
      [{}, 'field'],
      [{ field: 'measurement' }, 'field'],
      [{ field: 'owner', include_owner: 'True' }, 'include_owner'],
      [{ field: 'owner', limit: 5000 }, 'limit'],
    ] as const) {
      const res = await facets(alice.key, query, '/samples/facets');
      expect([res.status, res.body.fields?.[0]?.field]).toEqual([422, field]);
    }
  });
});

describe('GET /samples?sort=', () => {
  test('sorts by name, creation and modification, keyset pages, direction needs sort', async () => {
    const names = ['b-two', 'A-one', 'c-three'].map((n) => `${n}-${m.b}`);
    for (const n of names) await newSample(t.url, alice.key, { sample_name: n, sample_type: m.b });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: Reply = await rest(t.url, 'GET', '/samples', {
        key: alice.key,
        version: 3,
        query: { sample_type: m.b, sort: 'name', direction: 'desc', limit: 1, ...(cursor ? { cursor } : {}) },
      });
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(3);
      seen.push(...res.body.items.map((s: { sample_name: string }) => s.sample_name));
      cursor = res.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual([names[2], names[0], names[1]]);
    const created = await rest(t.url, 'GET', '/samples', {
      key: alice.key,
      query: { sample_type: m.b, sort: 'created' },
    });
    expect(created.body.items.map((s: { sample_name: string }) => s.sample_name)).toEqual(names);
    const updated = await rest(t.url, 'GET', '/samples', {
      key: alice.key,
      query: { sample_type: m.b, sort: 'updated', direction: 'desc' },
    });
    expect(updated.status).toBe(200);
    for (const [query, field] of [
      [{ direction: 'asc' }, 'direction'],
      [{ sort: 'size' }, 'sort'],
      [{ sort: 'name', cursor: 'nope' }, 'after'],
    ] as const) {
      const res = await rest(t.url, 'GET', '/samples', { key: alice.key, query });
      expect([res.status, res.body.fields?.[0]?.field]).toEqual([422, field]);
    }
  });
});
