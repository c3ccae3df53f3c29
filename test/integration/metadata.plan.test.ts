import { startTestApp, type TestApp } from '../support/app';
import { gql } from '../support/http';
import { makeUser, unique, type TestUser } from '../support/factories';
import { newDataset, newSample } from '../support/catalog';
import { MAX_INDEXED } from '../../src/modules/metadata-store/metadata-quantities';

/**
 * The adaptive plan of metadata conditions (metadata-plan.ts): three services over the same
 * database, one starting from the index matches whenever it can (the default ID_LIST_LIMIT),
 * one never (0: the list walks newest first, each condition probed per row), one in between (3:
 * only the rarest conditions drive). Every condition set must give the same rows, in the same
 * order, page by page, with the same totals, and the expected ones.
 */
let few: TestApp;
let many: TestApp;
let mixed: TestApp;
let owner: TestUser;
let other: TestUser;
const session = unique('plan');
const tag = unique('tag');
const needle = unique('needle');
// a value no other run of this file (the database outlives it) has written
const rare = 26 + Math.round(Math.random() * 1e9) / 1e10;

// name → document; the owner's datasets unless the name starts with "other"
const docs: Record<string, Record<string, unknown>> = {
  a: { material: tag, energy: 10, temperature: { value: 300, unit: 'K' }, notes: 'plain' },
  b: { material: tag, energy: 20, temperature: '30 degC', list: ['x', tag] },
  c: { material: 'other', energy: 30, temperature: { v: 400, u: 'K' } },
  d: { material: tag, energy: 30, runs: [{ material: tag }, { material: 'z' }] },
  e: { 'material.x': tag, energy: 5, nested: { deep: [[tag]] } },
  f: { material: tag.toUpperCase(), energy: 40, temperature: { value: 50, unit: 'degC' } },
  g: { material: tag, energy: 25, flag: true },
  h: { material: tag, energy: rare },
  otherPrivate: { material: tag, energy: 30 },
};

const PAGE = `query($f: DatasetFilterInput, $after: String) {
  datasets(first: 2, after: $after, filter: $f) {
    totalCount totalCountIsExact pageInfo { hasNextPage endCursor } nodes { datasetName }
  }
}`;

interface Page {
  totalCount: number;
  totalCountIsExact: boolean;
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
  nodes: { datasetName: string }[];
}

/** Every page of the list, in order, and the total of the first. */
async function walk(app: TestApp, key: string, metadata: unknown[]) {
  const names: string[] = [];
  let after: string | null = null;
  let total: unknown;
  for (let i = 0; i < 20; i++) {
    const res = await gql<{ datasets: Page }>(app.url, key, PAGE, {
      f: { sessionName: session, metadata },
      after,
    });
    expect(res.errors).toBeUndefined();
    const page: Page = res.data!.datasets;
    total ??= { count: page.totalCount, exact: page.totalCountIsExact };
    names.push(...page.nodes.map((n) => n.datasetName));
    if (!page.pageInfo.hasNextPage) break;
    after = page.pageInfo.endCursor;
  }
  return { names, total };
}

beforeAll(async () => {
  [few, many, mixed] = await Promise.all([
    startTestApp(),
    startTestApp({ ID_LIST_LIMIT: '0' }),
    startTestApp({ ID_LIST_LIMIT: '3' }),
  ]);
  [owner, other] = await Promise.all([makeUser(few.app), makeUser(few.app)]);
  for (const [name, doc] of Object.entries(docs)) {
    const key = name.startsWith('other') ? other.key : owner.key;
    await newDataset(few.url, key, { dataset_name: name, session_name: session, scientific_metadata: doc });
  }
  // a sample with the same document: never a dataset
  await newSample(few.url, owner.key, { sample_name: 'sample', scientific_metadata: docs.a });
  // a document with more strings than are indexed: the needle is past the last indexed one
  const bulk = [...Array.from({ length: MAX_INDEXED }, (_, i) => `s${i}`), needle];
  await newDataset(few.url, owner.key, {
    dataset_name: 'bulk',
    session_name: session,
    scientific_metadata: { bulk, material: tag },
  });
}, 120_000);
afterAll(() => Promise.all([few, many, mixed].map((a) => a?.close())));

const CASES: [string, unknown[], string[]][] = [
  ['string equality', [{ path: 'material', op: 'eq', value: tag }], ['bulk', 'h', 'g', 'd', 'b', 'a']],
  ['string equality in an array', [{ path: 'list', op: 'eq', value: tag }], ['b']],
  ['string equality through an array of objects', [{ path: 'runs.material', op: 'eq', value: tag }], ['d']],
  ['a dotted path is keys, not a key with a dot', [{ path: 'material.x', op: 'eq', value: tag }], []],
  ['nested arrays, unwrapped as jsonpath does', [{ path: 'nested.deep', op: 'eq', value: tag }], ['e']],
  ['a string past the indexed ones', [{ path: 'bulk', op: 'eq', value: needle }], ['bulk']],
  ['numeric range', [{ path: 'energy', op: 'gt', value: 20 }], ['h', 'g', 'f', 'd', 'c']],
  ['numeric equality', [{ path: 'energy', op: 'eq', value: 30 }], ['d', 'c']],
  ['unit-aware range', [{ path: 'temperature', op: 'gt', value: '300 K' }], ['f', 'c', 'b']],
  [
    'several indexed conditions',
    [
      { path: 'material', op: 'eq', value: tag },
      { path: 'energy', op: 'gte', value: 25 },
      { path: 'energy', op: 'lt', value: 30 },
    ],
    ['h', 'g'],
  ],
  [
    'indexed and jsonpath conditions together',
    [
      { path: 'material', op: 'eq', value: tag },
      { path: 'flag', op: 'exists', value: false },
      { path: 'notes', op: 'ne', value: 'x' },
    ],
    ['a'],
  ],
  ['no match', [{ path: 'material', op: 'eq', value: unique('none') }], []],
];

test.each(CASES)('%s: the same rows, order and totals on every plan', async (_, metadata, expected) => {
  const results = await Promise.all([few, many, mixed].map((app) => walk(app, owner.key, metadata)));
  for (const r of results) {
    expect(r.names).toEqual(expected);
    expect(r.total).toEqual({ count: expected.length, exact: true });
  }
});

test('the plan: few matches start from the index, many walk newest first', async () => {
  const metadata = [{ path: 'material', op: 'eq', value: tag }];
  for (const [app, drives] of [
    [few, true],
    [many, false],
    [mixed, false], // the tag is on more than 3 documents
  ] as const) {
    app.queries.length = 0;
    await walk(app, owner.key, metadata);
    expect(app.queries.some((q) => /unique_id = any\(array\(select v\.resource_id/.test(q))).toBe(drives);
    // only a service that may drive counts the matches
    expect(app.queries.some((q) => /select count\(\*\)::int as n from \(select v\.resource_id/.test(q))).toBe(
      app !== many,
    );
  }
  // with a rare condition the mixed service drives from it
  mixed.queries.length = 0;
  await walk(mixed, owner.key, [...metadata, { path: 'energy', op: 'eq', value: rare }]);
  expect(mixed.queries.some((q) => /unique_id = any\(array\(select v\.resource_id/.test(q))).toBe(true);
});

test('the bound of the total holds on every plan, and another reader sees only theirs', async () => {
  const bounded = await Promise.all([
    startTestApp({ TOTAL_COUNT_LIMIT: '3' }),
    startTestApp({ TOTAL_COUNT_LIMIT: '3', ID_LIST_LIMIT: '0' }),
  ]);
  try {
    for (const app of bounded) {
      const wide = await walk(app, owner.key, [{ path: 'material', op: 'eq', value: tag }]);
      expect(wide.total).toEqual({ count: 3, exact: false });
      expect(wide.names).toEqual(['bulk', 'h', 'g', 'd', 'b', 'a']);
      const narrow = await walk(app, owner.key, [{ path: 'energy', op: 'eq', value: 30 }]);
      expect(narrow.total).toEqual({ count: 2, exact: true });
    }
  } finally {
    await Promise.all(bounded.map((a) => a.close()));
  }
  for (const app of [few, many, mixed]) {
    const seen = await walk(app, other.key, [{ path: 'material', op: 'eq', value: tag }]);
    expect(seen).toEqual({ names: ['otherPrivate'], total: { count: 1, exact: true } });
  }
});
