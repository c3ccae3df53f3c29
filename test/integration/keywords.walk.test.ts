import { startTestApp, type TestApp } from '../support/app';
import { gql, rest } from '../support/http';
import { makeUser, unique, type TestUser } from '../support/factories';
import { newDataset } from '../support/catalog';

/**
 * A keyword filter matching one keyword pages by walking the keyword's links newest first and
 * probing each dataset (docs/scale.md, "The keyword filter"); several matching keywords keep the
 * MFID list. Every caller must get exactly the readable datasets carrying a matching keyword,
 * newest first, page after page, over REST and GraphQL, with other filters too.
 */
let t: TestApp;
let admin: TestUser;
let alice: TestUser;
let bob: TestUser;
const stem = unique('walk');
const one = `${stem}-one`;
const two = `${stem}-two`;
// name → [owner, public, keywords, measurement]
const plan: [string, 'alice' | 'bob', boolean, string[], string][] = [];
const names: Record<string, string> = {};

beforeAll(async () => {
  t = await startTestApp();
  [admin, alice, bob] = await Promise.all([
    makeUser(t.app, { admin: true }),
    makeUser(t.app),
    makeUser(t.app),
  ]);
  for (let i = 0; i < 14; i++) {
    const owner = i % 3 === 0 ? 'bob' : 'alice';
    const keywords = i % 4 === 3 ? [] : i % 5 === 0 ? [one, two] : i % 2 === 0 ? [two] : [one];
    plan.push([`w${i}`, owner, i % 3 === 0 && i % 2 === 0, keywords, i % 2 === 0 ? 'TEM' : 'SEM']);
  }
  // one at a time: MFIDs grow in creation order, so newest first is the reverse of the plan
  for (const [name, owner, isPublic, keywords, measurement] of plan) {
    const key = owner === 'alice' ? alice.key : bob.key;
    const id = await newDataset(t.url, key, { dataset_name: name, public: isPublic, measurement });
    names[id] = name;
    for (const keyword of keywords) {
      const res = await rest(t.url, 'POST', `/datasets/${id}/keywords`, { key, query: { keyword } });
      expect(res.status).toBe(201);
    }
  }
}, 60_000);
afterAll(() => t.close());

function expected(who: 'admin' | 'alice' | 'bob', keyword: string, measurement?: string): string[] {
  return plan
    .filter(([, owner, isPublic, keywords, m]) => {
      const readable = who === 'admin' || owner === who || isPublic;
      const carries = keywords.some((k) => k.includes(keyword));
      return readable && carries && (measurement === undefined || m === measurement);
    })
    .map(([name]) => name)
    .reverse();
}

async function restPages(key: string, query: Record<string, string>): Promise<string[]> {
  const out: string[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 20; i++) {
    const res = await rest(t.url, 'GET', '/datasets', {
      key,
      query: { ...query, limit: '2', ...(cursor ? { cursor } : {}) },
    });
    expect(res.status).toBe(200);
    out.push(...(res.body.items as { dataset_name: string }[]).map((d) => d.dataset_name));
    cursor = res.body.next_cursor ?? undefined;
    if (!cursor) break;
  }
  return out;
}

interface Page {
  datasets: { nodes: { datasetName: string }[]; pageInfo: { hasNextPage: boolean; endCursor: string } };
}

async function gqlPages(key: string, filter: Record<string, string>): Promise<string[]> {
  const out: string[] = [];
  let after: string | null = null;
  for (let i = 0; i < 20; i++) {
    const res: { errors?: unknown; data?: Page } = await gql<Page>(
      t.url,
      key,
      `query($f: DatasetFilterInput, $after: String) { datasets(first: 3, after: $after, filter: $f) {
        nodes { datasetName } pageInfo { hasNextPage endCursor } } }`,
      { f: filter, after },
    );
    expect(res.errors).toBeUndefined();
    out.push(...res.data!.datasets.nodes.map((n) => n.datasetName));
    if (!res.data!.datasets.pageInfo.hasNextPage) break;
    after = res.data!.datasets.pageInfo.endCursor;
  }
  return out;
}

const CALLERS = ['admin', 'alice', 'bob'] as const;
const key = (who: (typeof CALLERS)[number]) => ({ admin, alice, bob })[who].key;

test.each([
  ['one keyword (the walk)', one, undefined],
  ['one keyword and a measurement', one, 'TEM'],
  ['two matching keywords (the list)', stem, undefined],
  ['two matching keywords and a measurement', stem, 'SEM'],
])('%s: every readable match, newest first, page by page', async (_, keyword, measurement) => {
  for (const who of CALLERS) {
    const want = expected(who, keyword, measurement);
    expect(want.length).toBeGreaterThan(0);
    const query = { keyword, ...(measurement ? { measurement } : {}) };
    expect(await restPages(key(who), query)).toEqual(want);
    expect(await gqlPages(key(who), query)).toEqual(want);
  }
});

test('one keyword walks its links; several keep the MFID list', async () => {
  t.queries.length = 0;
  await restPages(alice.key, { keyword: one });
  expect(t.queries.some((q) => q.includes('cross join lateral'))).toBe(true);
  t.queries.length = 0;
  await restPages(alice.key, { keyword: stem });
  expect(t.queries.some((q) => q.includes('cross join lateral'))).toBe(false);
  expect(t.queries.some((q) => q.includes('any(array(select dk.dataset_mfid'))).toBe(true);
});
