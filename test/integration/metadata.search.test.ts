import { startTestApp, type TestApp } from '../support/app';
import { gql, rest, type GqlReply } from '../support/http';
import { addMember, grant, makeProject, makeUser, unique, type TestUser } from '../support/factories';
import { newDataset, newSample } from '../support/catalog';

/**
 * `GET /resources/metadata/search` and `searchMetadata`: newest first (MFID descending), the
 * dataset text filter's order rule, paged by `after` (docs/scale.md, "The metadata search").
 * Every caller gets exactly the matching resources of every kind they may read, page after page,
 * with no duplicate and no gap, whatever the relevance of each hit.
 */
let t: TestApp;
let admin: TestUser;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
const word = `zs${unique('w').replace(/[^a-z0-9]/g, '')}`;
type Who = 'admin' | 'alice' | 'bob';
/** in creation order (so oldest first): the resource and who may read it */
const made: { id: string; label: string; readers: Who[] }[] = [];
let hidden = '';
let unmatched = '';

const md = (id: string) => `/resources/${id}/metadata`;

async function withMetadata(
  label: string,
  id: string,
  key: string,
  doc: Record<string, unknown>,
  readers: Who[],
) {
  const res = await rest(t.url, 'PATCH', md(id), { key, body: doc });
  expect(res.status).toBe(200);
  made.push({ id, label, readers });
}

beforeAll(async () => {
  t = await startTestApp();
  [admin, alice, bob, carol] = await Promise.all([
    makeUser(t.app, { admin: true }),
    makeUser(t.app),
    makeUser(t.app),
    makeUser(t.app),
  ]);
  // one at a time: MFIDs grow in creation order
  const strong = { notes: `${word} ${word} ${word}`, title: word, again: [word, word] };
  const weak = { nested: { notes: `one ${word} among many other words of a long note` } };
  await withMetadata(
    'alice private dataset, strongest',
    await newDataset(t.url, alice.key),
    alice.key,
    strong,
    ['alice', 'admin'],
  );
  await withMetadata('bob private dataset', await newDataset(t.url, bob.key), bob.key, weak, [
    'bob',
    'admin',
  ]);
  await withMetadata(
    'bob public dataset',
    await newDataset(t.url, bob.key, { public: true }),
    bob.key,
    weak,
    ['alice', 'bob', 'admin'],
  );
  const p = await makeProject(t.app, carol.user);
  await addMember(t.app, p, alice.user, 'viewer');
  await withMetadata("carol's project, alice a member", p.uniqueId, admin.key, weak, ['alice', 'admin']);
  await withMetadata('alice private sample', await newSample(t.url, alice.key), alice.key, weak, [
    'alice',
    'admin',
  ]);
  const grantedSample = await newSample(t.url, bob.key);
  await grant(t.app, grantedSample, 'sample', 'user', alice.user.uniqueId, 'viewer');
  await withMetadata('bob sample granted to alice', grantedSample, bob.key, strong, [
    'alice',
    'bob',
    'admin',
  ]);
  const instrument = await rest(t.url, 'POST', '/instruments', {
    key: admin.key,
    body: { instrument_name: unique('I') },
  });
  expect(instrument.status).toBe(201);
  await withMetadata('instrument', instrument.body.unique_id, admin.key, weak, ['alice', 'bob', 'admin']);
  const q = await makeProject(t.app, bob.user);
  await withMetadata("bob's project", q.uniqueId, admin.key, strong, ['bob', 'admin']);
  const grantedDataset = await newDataset(t.url, bob.key);
  await grant(t.app, grantedDataset, 'dataset', 'user', alice.user.uniqueId, 'viewer');
  await withMetadata('bob dataset granted to alice', grantedDataset, bob.key, weak, [
    'alice',
    'bob',
    'admin',
  ]);
  hidden = await newDataset(t.url, alice.key);
  expect((await rest(t.url, 'PATCH', md(hidden), { key: alice.key, body: strong })).status).toBe(200);
  const deletion = await rest(t.url, 'POST', `/resources/${hidden}/delete`, {
    key: alice.key,
    query: { reason: 'duplicate' },
  });
  expect(deletion.status).toBe(201);
  const inProject = await newDataset(t.url, carol.key, { project_mfid: p.uniqueId });
  await withMetadata("carol's dataset in her project", inProject, carol.key, weak, ['alice', 'admin']);
  unmatched = await newDataset(t.url, alice.key);
  expect(
    (await rest(t.url, 'PATCH', md(unmatched), { key: alice.key, body: { notes: 'nothing here' } })).status,
  ).toBe(200);
  await withMetadata('bob public sample', await newSample(t.url, bob.key, { public: true }), bob.key, weak, [
    'alice',
    'bob',
    'admin',
  ]);
}, 60_000);
afterAll(() => t.close());

const keyOf = (who: Who) => ({ admin, alice, bob })[who].key;
const expected = (who: Who) =>
  made
    .filter((r) => r.readers.includes(who))
    .map((r) => r.label)
    .reverse();
const labelOf = (id: string) => made.find((r) => r.id === id)?.label ?? id;

async function restPages(who: Who, limit: number, q = word): Promise<string[]> {
  const out: string[] = [];
  let after: string | undefined;
  for (let i = 0; i < 30; i++) {
    const res = await rest(t.url, 'GET', '/resources/metadata/search', {
      key: keyOf(who),
      query: { q, limit: String(limit), ...(after ? { after } : {}) },
    });
    expect(res.status).toBe(200);
    const ids = (res.body.items as { unique_id: string }[]).map((h) => h.unique_id);
    expect(ids.length).toBeLessThanOrEqual(limit);
    out.push(...ids);
    if (ids.length < limit) break;
    after = ids[ids.length - 1];
  }
  return out;
}

async function gqlPages(who: Who, limit: number): Promise<string[]> {
  const out: string[] = [];
  let after: string | null = null;
  for (let i = 0; i < 30; i++) {
    const res: GqlReply<{ searchMetadata: { uniqueId: string }[] }> = await gql(
      t.url,
      keyOf(who),
      `query($q: String!, $limit: Int!, $after: ID) { searchMetadata(q: $q, limit: $limit, after: $after) { uniqueId } }`,
      { q: word, limit, after },
    );
    expect(res.errors).toBeUndefined();
    const ids: string[] = (res.data?.searchMetadata ?? []).map((h) => h.uniqueId);
    out.push(...ids);
    if (ids.length < limit) break;
    after = ids[ids.length - 1];
  }
  return out;
}

describe('metadata search: order, pages and visibility', () => {
  test.each(['alice', 'bob', 'admin'] as const)(
    '%s gets every readable match newest first, one page or many, over REST and GraphQL',
    async (who) => {
      const whole = await restPages(who, 50);
      expect(whole.map(labelOf)).toEqual(expected(who));
      // newest first is MFID descending, across kinds of resources
      expect([...whole].sort().reverse()).toEqual(whole);
      for (const limit of [1, 2, 3]) {
        const pages = await restPages(who, limit);
        expect(pages).toEqual(whole);
        expect(new Set(pages).size).toBe(pages.length);
      }
      expect(await gqlPages(who, 2)).toEqual(whole);
      // never the hidden (deletion requested) or the unmatched record
      expect(whole).not.toContain(hidden);
      expect(whole).not.toContain(unmatched);
    },
  );

  test('the order is newest first, not by relevance; each hit still carries its rank', async () => {
    const res = await rest(t.url, 'GET', '/resources/metadata/search', {
      key: alice.key,
      query: { q: word, limit: '50' },
    });
    const items = res.body.items as { unique_id: string; rank: number }[];
    const rank = (label: string) => items.find((h) => labelOf(h.unique_id) === label)?.rank ?? NaN;
    // the oldest, and the most relevant, comes last
    expect(labelOf(items[items.length - 1].unique_id)).toBe('alice private dataset, strongest');
    expect(rank('alice private dataset, strongest')).toBeGreaterThan(rank('bob public sample'));
    expect(items.every((h) => typeof h.rank === 'number' && h.rank > 0)).toBe(true);
  });

  test('after: the page continues from any MFID, readable or not, and reveals nothing about it', async () => {
    const all = await restPages('alice', 50);
    const bobs = made.find((r) => r.label === 'bob private dataset')!.id;
    // alice cannot read bob's dataset; after it she gets her readable matches older than it
    const older = all.filter((id) => id < bobs);
    expect(older.length).toBeGreaterThan(0);
    expect(older.length).toBeLessThan(all.length);
    const res = await rest(t.url, 'GET', '/resources/metadata/search', {
      key: alice.key,
      query: { q: word, limit: '50', after: bobs },
    });
    expect(res.body.items.map((h: { unique_id: string }) => h.unique_id)).toEqual(older);
  });
});

describe('metadata search: bounds and bad input', () => {
  const search = (query: Record<string, string>, key = alice.key) =>
    rest(t.url, 'GET', '/resources/metadata/search', { key, query });

  test('limit is at least 1 and at most 50 (larger values are clamped)', async () => {
    const many = `zm${unique('m').replace(/[^a-z0-9]/g, '')}`;
    const ids: string[] = [];
    for (let batch = 0; batch < 4; batch++) {
      ids.push(
        ...(await Promise.all(
          Array.from({ length: 13 }, async () => {
            const id = await newDataset(t.url, alice.key);
            expect((await rest(t.url, 'PATCH', md(id), { key: alice.key, body: { tag: many } })).status).toBe(
              200,
            );
            return id;
          }),
        )),
      );
    }
    const newestFirst = [...ids].sort().reverse();
    const res = await search({ q: many, limit: '500' });
    expect(res.status).toBe(200);
    expect(res.body.items.map((h: { unique_id: string }) => h.unique_id)).toEqual(newestFirst.slice(0, 50));
    const next = await search({ q: many, limit: '50', after: res.body.items[49].unique_id });
    expect(next.body.items.map((h: { unique_id: string }) => h.unique_id)).toEqual(newestFirst.slice(50));
    const gq = await gql(
      t.url,
      alice.key,
      `query($q: String!) { searchMetadata(q: $q, limit: 1000) { uniqueId } }`,
      {
        q: many,
      },
    );
    expect(gq.data.searchMetadata).toHaveLength(50);
    expect((await search({ q: many, limit: '20' })).body.items).toHaveLength(20);
    expect((await search({ q: many })).body.items).toHaveLength(20);
  });

  test('a clear 422 for a bad q, limit or after, over REST and GraphQL', async () => {
    const bad: Record<string, string>[] = [
      { q: '' },
      { q: '   ' },
      { q: 'x'.repeat(501) },
      { q: word, limit: '0' },
      { q: word, limit: 'many' },
      { q: word, after: 'not-an-mfid' },
      { q: word, after: '' },
    ];
    for (const query of bad) {
      const res = await search(query);
      expect({ query, status: res.status }).toEqual({ query, status: 422 });
    }
    const gq = await gql(t.url, alice.key, `{ searchMetadata(q: "${word}", after: "nope") { uniqueId } }`);
    expect(gq.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });
});
