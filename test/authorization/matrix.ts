import type { Express } from 'express';
import { startTestApp, type TestApp } from '../support/app';
import { ROLES, dependsOnVisibility, expected, type Outcome, type Role, type Visibility } from './rules';
import type { Fresh, FreshKind, Row, World } from './table';
import { buildCast, buildWorld, freshRecords, type Cast } from './world';

/**
 * The machinery of the authorization matrix (matrix.rest.test.ts, matrix.graphql.test.ts):
 * every row of the table (table.ts) × every role × a private and a public record, asserting
 * allowed or denied, and that a denied read is 404. The REST and the GraphQL rows are two test
 * files so that two jest workers run them side by side; each builds its own world.
 */
export interface Matrix {
  t: TestApp;
  cast: Cast;
  worlds: Record<Visibility, World>;
}

/** Starts a service and seeds the cast and both worlds once for the file (before its tests). */
export function useMatrix(): Matrix {
  const m = { worlds: {} } as Matrix;
  beforeAll(async () => {
    // every role tries POST /auth/key with a wrong key from one address: not a brute force
    m.t = await startTestApp({ SIGN_IN_MAX_FAILURES: '1000000' });
    m.cast = await buildCast(m.t);
    [m.worlds.private, m.worlds.public] = await Promise.all([
      buildWorld(m.t, m.cast, 'private'),
      buildWorld(m.t, m.cast, 'public'),
    ]);
  }, 120_000);
  afterAll(() => m.t.close());
  return m;
}

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

async function schemaOperations(t: TestApp): Promise<string[]> {
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

/** Every REST route and GraphQL operation the service serves. */
export async function servedOperations(t: TestApp): Promise<string[]> {
  const app = t.app.server.listeners('request')[0] as Express;
  return [...expressRoutes(app.router.stack as Layer[]), ...(await schemaOperations(t))];
}

/** What a call answered: allowed, a refusal status, or something unexpected (described). */
type Answer = Exclude<Outcome, 'allowed'> | string;

function keyOf(m: Matrix, role: Role): string | null {
  return role === 'anonymous' ? null : m.cast.users[role].key;
}

/** The headers of a role's calls: its key, and the normal privilege mode for `normalAdmin`. */
function callerHeaders(m: Matrix, role: Role): Record<string, string> {
  const key = keyOf(m, role);
  return {
    ...(key ? { authorization: `Bearer ${key}` } : {}),
    ...(role === 'normalAdmin' ? { 'crucible-privilege-mode': 'normal' } : {}),
  };
}

async function callRest(m: Matrix, row: Row, role: Role, w: World, fresh: Fresh): Promise<Answer> {
  const call = row.rest!(w, fresh);
  const url = new URL(`${m.t.url}${row.root ? '' : '/api/v2'}${call.path}`);
  for (const [k, v] of Object.entries(call.query ?? {})) url.searchParams.append(k, v);
  const headers: Record<string, string> = { ...(call.headers ?? {}), ...callerHeaders(m, role) };
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

async function callGraphql(m: Matrix, row: Row, role: Role, w: World, fresh: Fresh): Promise<Answer> {
  const { doc, vars, upload } = row.graphql!;
  const variables = vars?.(w, fresh) ?? {};
  const headers: Record<string, string> = callerHeaders(m, role);
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
  const res = await fetch(`${m.t.url}/graphql`, { method: 'POST', headers, body });
  const json = (await res.json()) as { errors?: { message: string; extensions?: { code?: string } }[] };
  const error = json.errors?.[0];
  if (!error) return 'allowed';
  const code = error.extensions?.code ?? '';
  if (row.allowed?.includes(code)) return 'allowed';
  return CODES[code] ?? `${code} ${error.message}`;
}

/** Fresh records each call gets for itself: calls of such rows touch nothing another call reads. */
const OWN_FRESH: (FreshKind | undefined)[] = [
  'dataset',
  'file',
  'thumbnail',
  'deletionRequest',
  'joinRequest',
  'webhook',
];

/**
 * Whether the calls of a row may run at the same time: reads, and writes on records made for
 * the call alone. Writes on shared records (a grant, a membership, a link re-made before each
 * call, an upsert on the world's records) run one after another, as a client would make them.
 */
function independent(row: Row): boolean {
  const read = row.op.startsWith('GET ') || row.op.startsWith('Query.');
  return row.fresh ? OWN_FRESH.includes(row.fresh) : read;
}

/** Runs one row for every role (and both visibilities where they matter); the wrong answers. */
export async function runRow(m: Matrix, row: Row): Promise<string[]> {
  const visibilities: Visibility[] = dependsOnVisibility(row.rule) ? ['private', 'public'] : ['private'];
  const cases = visibilities.flatMap((visibility) => ROLES.map((role) => ({ visibility, role })));
  const one = async ({ visibility, role }: { visibility: Visibility; role: Role }) => {
    const w = m.worlds[visibility];
    const want = expected(row.rule, role, visibility);
    const fresh = await freshRecords(m.t, m.cast, w, visibility, row.fresh);
    const got = row.rest ? await callRest(m, row, role, w, fresh) : await callGraphql(m, row, role, w, fresh);
    return got === want ? null : `${role} on a ${visibility} record: expected ${want}, got ${got}`;
  };
  const answers: (string | null)[] = [];
  if (independent(row)) answers.push(...(await Promise.all(cases.map(one))));
  else for (const c of cases) answers.push(await one(c));
  return answers.filter((a): a is string => a !== null);
}
