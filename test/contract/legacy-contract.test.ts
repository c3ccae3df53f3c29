import { startTestApp, type TestApp } from '../support/app';
import { buildWorld, type World } from './world';
import { CONTRACT, REFERENCE_ROUTES } from './routes';

/**
 * One test per legacy route: the call the Python client makes answers with the status and the
 * shape it parses (reference §5, §12). The table in ./routes.ts is the compatibility record.
 */
let t: TestApp;
let w: World;
beforeAll(async () => {
  t = await startTestApp();
  w = await buildWorld(t);
}, 120_000);
afterAll(() => t.close());

test('the table has one row per route of the reference, and nothing else', () => {
  const rows = CONTRACT.map((r) => r.route);
  expect(rows.filter((r) => !REFERENCE_ROUTES.includes(r))).toEqual([]);
  expect(new Set(rows).size).toBe(rows.length);
  expect(REFERENCE_ROUTES).toHaveLength(104);
  const missing = REFERENCE_ROUTES.filter((r) => !rows.includes(r));
  expect(missing).toEqual([]);
});

test.each(CONTRACT.map((row) => [`${row.ref} ${row.route}`, row] as const))('%s', async (_name, row) => {
  const reply = await row.call(w);
  const expected = Array.isArray(row.status) ? row.status : [row.status];
  if (!expected.includes(reply.status)) {
    throw new Error(
      `${row.route}: status ${reply.status} (expected ${expected.join(' or ')}): ${JSON.stringify(reply.body)}`,
    );
  }
  expect(row.check(reply.body)).toEqual([]);
});
