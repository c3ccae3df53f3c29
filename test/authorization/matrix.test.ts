import type { Express } from 'express';
import { startTestApp, type TestApp } from '../support/app';
import { ROLES, dependsOnVisibility, expected, type Outcome, type Role, type Visibility } from './rules';
import { TABLE, type Fresh, type Row, type World } from './table';
import { buildCast, buildWorld, freshRecords, type Cast } from './world';

/**
 * The authorization matrix: every row of the table (table.ts) × every role × a private and a
 * public record, asserting allowed or denied, and that a denied read is 404. The first test
 * makes the table complete: every route registered in Express and every Query and Mutation
 * field of the schema needs exactly one row.
 */
let t: TestApp;
let cast: Cast;
const worlds = {} as Record<Visibility, World>;

beforeAll(async () => {
  t = await startTestApp();
  cast = await buildCast(t);
  worlds.private = await buildWorld(t, cast, 'private');
  worlds.public = await buildWorld(t, cast, 'public');
}, 120_000);
afterAll(() => t.close());

interface Layer {
  route?: { path: string; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
  rawPath?: unknown;
}

/** Every `METHOD /path` the Express application serves (the /api/v2 prefix dropped). */
function expressRoutes(stack: Layer[], prefix = ''): string[] {
  const out: string[] = [];
  for (const layer of stack) {
    const mount = typeof layer.rawPath === 'string' && layer.rawPath !== '/' ? layer.rawPath : '';
    if (layer.route) {
      for (const method of Object.keys(layer.route.methods)) {
        out.push(`${method.toUpperCase()} ${(prefix + layer.route.path).replace(/^\/api\/v2\//, '/')}`);
      }
    } else if (layer.handle?.stack) {
      out.push(...expressRoutes(layer.handle.stack, prefix + mount));
    }
  }
  return [...new Set(out)].sort();
}

async function schemaOperations(): Promise<string[]> {
  const res = await fetch(`${t.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      query: '{ __schema { queryType { fields { name } } mutationType { fields { name } } } }',
    }),
  });
  const { data } = (await res.json()) as {
    data: { __schema: Record<'queryType' | 'mutationType', { fields: { name: string }[] }> };
  };
  return [
    ...data.__schema.queryType.fields.map((f) => `Query.${f.name}`),
    ...data.__schema.mutationType.fields.map((f) => `Mutation.${f.name}`),
  ].sort();
}

test('the table has exactly one row per REST route and GraphQL operation', async () => {
  const app = t.app.server.listeners('request')[0] as Express;
  const served = [...expressRoutes(app.router.stack as Layer[]), ...(await schemaOperations())];
  const rows = TABLE.map((r) => r.op);
  expect(served.filter((op) => !rows.includes(op))).toEqual([]); // operations without a row
  expect(rows.filter((op) => !served.includes(op))).toEqual([]); // rows naming nothing served
  expect(rows.filter((op, i) => rows.indexOf(op) !== i)).toEqual([]); // rows given twice
  // each REST row requests a path its route matches
  for (const row of TABLE.filter((r) => r.rest)) {
    const pattern = row.op.split(' ')[1].replace(/:\w+/g, '[^/]+').replace(/\*\w+/g, '.+');
    expect(`${row.op} -> ${row.rest!(worlds.private, {}).path}`).toMatch(new RegExp(` -> ${pattern}$`));
  }
});

/** What a call answered: allowed, a refusal status, or something unexpected (described). */
type Answer = Exclude<Outcome, 'allowed'> | string;

function keyOf(role: Role): string | null {
  return role === 'anonymous' ? null : cast.users[role].key;
}

async function callRest(row: Row, role: Role, w: World, fresh: Fresh): Promise<Answer> {
  const call = row.rest!(w, fresh);
  const url = new URL(`${t.url}${row.root ? '' : '/api/v2'}${call.path}`);
  for (const [k, v] of Object.entries(call.query ?? {})) url.searchParams.append(k, v);
  const headers: Record<string, string> = { ...(call.headers ?? {}) };
  const key = keyOf(role);
  if (key) headers.authorization = `Bearer ${key}`;
  if (call.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(url, {
    method: row.op.split(' ')[0],
    headers,
    body: call.body === undefined ? undefined : JSON.stringify(call.body),
    redirect: 'manual',
  });
  const text = await res.text();
  if (res.status < 400 || row.allowed?.includes(res.status)) return 'allowed';
  let detail = text;
  try {
    const parsed = JSON.parse(text) as { detail?: unknown };
    if (typeof parsed.detail === 'string') detail = parsed.detail;
  } catch {
    /* keep the text */
  }
  if (row.allowed?.some((a) => typeof a === 'string' && new RegExp(a).test(detail))) return 'allowed';
  return [401, 403, 404].includes(res.status) ? (res.status as Outcome) : `${res.status} ${detail}`;
}

const CODES: Record<string, Outcome> = { UNAUTHENTICATED: 401, FORBIDDEN: 403, NOT_FOUND: 404 };

async function callGraphql(row: Row, role: Role, w: World, fresh: Fresh): Promise<Answer> {
  const { doc, vars, upload } = row.graphql!;
  const variables = vars?.(w, fresh) ?? {};
  const headers: Record<string, string> = {};
  const key = keyOf(role);
  if (key) headers.authorization = `Bearer ${key}`;
  let body: string | FormData;
  if (upload) {
    const form = new FormData();
    form.append('operations', JSON.stringify({ query: doc, variables: { ...variables, f: null } }));
    form.append('map', JSON.stringify({ '0': ['variables.f'] }));
    form.append('0', new Blob([Buffer.from(`matrix ${role}`)]), 'matrix.bin');
    headers['apollo-require-preflight'] = 'true';
    body = form;
  } else {
    headers['content-type'] = 'application/json';
    body = JSON.stringify({ query: doc, variables });
  }
  const res = await fetch(`${t.url}/graphql`, { method: 'POST', headers, body });
  const json = (await res.json()) as { errors?: { message: string; extensions?: { code?: string } }[] };
  const error = json.errors?.[0];
  if (!error) return 'allowed';
  const code = error.extensions?.code ?? '';
  if (row.allowed?.includes(code)) return 'allowed';
  return CODES[code] ?? `${code} ${error.message}`;
}

test.each(TABLE.map((row) => [row.op, row] as const))('%s', async (_op, row) => {
  const visibilities: Visibility[] = dependsOnVisibility(row.rule) ? ['private', 'public'] : ['private'];
  const wrong: string[] = [];
  for (const visibility of visibilities) {
    const w = worlds[visibility];
    for (const role of ROLES) {
      const want = expected(row.rule, role, visibility);
      const fresh = await freshRecords(t, cast, w, visibility, row.fresh);
      const got = row.rest ? await callRest(row, role, w, fresh) : await callGraphql(row, role, w, fresh);
      if (got !== want) wrong.push(`${role} on a ${visibility} record: expected ${want}, got ${got}`);
    }
  }
  expect(wrong).toEqual([]);
});
