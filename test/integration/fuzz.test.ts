import { Router } from 'express';
import fc from 'fast-check';
import {
  getNamedType,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  isInterfaceType,
  isObjectType,
  isUnionType,
  type GraphQLInterfaceType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLObjectType,
} from 'graphql';
import { mountRoutes, publicRoutes } from '../../src/modules/routes';
import { createLogger } from '../../src/core/logger';
import { buildGraphqlSchema } from '../../src/core/graphql/schema';
import { RESOLVERS } from '../../src/modules/resolvers';
import { startTestApp, type TestApp } from '../support/app';
import { makeUser, unique, type TestUser } from '../support/factories';
import { rest } from '../support/http';
import { newDataset, newSample } from '../support/catalog';
import { formUpload } from '../support/files';

/**
 * A seeded, bounded fuzz test: generated requests to every REST route of the route table and to
 * every root GraphQL field (with every field of what it returns), as an owner, an administrator,
 * nobody and a bad key. Whatever they send, the service answers without a 5xx, without a stack
 * trace or SQL in the response, and without hanging. FUZZ_SEED and FUZZ_RUNS change the run.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const RUNS = Number(process.env.FUZZ_RUNS ?? 1);
const TIMEOUT_MS = 15_000;
/**
 * Each part stops after this long even on a slow machine (a prefix of the same seeded sequence):
 * REST gets the budget, GraphQL 60% of it.
 */
const BUDGET_MS = Number(process.env.FUZZ_BUDGET_MS ?? 40_000);

let t: TestApp;
let alice: TestUser;
let admin: TestUser;
const known: string[] = [];

beforeAll(async () => {
  t = await startTestApp();
  alice = await makeUser(t.app);
  admin = await makeUser(t.app, { admin: true });
  const ds = await newDataset(t.url, alice.key, { scientific_metadata: { a: { b: 1 } } });
  const sample = await newSample(t.url, alice.key);
  const file = await formUpload(t.url, alice.key, ds, [{ name: 'x.csv', data: Buffer.from('a,b\n1,2\n') }]);
  // the database may be shared with earlier runs: names of this run's own
  const slug = unique('fuzz');
  const project = await rest(t.url, 'POST', '/projects', {
    key: admin.key,
    body: { project_id: slug, title: 'Fuzz' },
  });
  const instrument = await rest(t.url, 'POST', '/instruments', {
    key: admin.key,
    body: { instrument_name: `Fuzz scope ${slug}` },
  });
  const values: unknown[] = [
    ds,
    sample,
    file.body.mfid,
    project.body.unique_id,
    slug,
    instrument.body.unique_id,
    alice.user.uniqueId,
    alice.user.username,
    '1',
  ];
  if (!values.every((v) => typeof v === 'string'))
    throw new Error(`fixtures failed: ${JSON.stringify(values)}`);
  known.push(...values);
  console.log(
    `fuzz seed=${SEED} (FUZZ_SEED=${SEED} npx jest test/integration/fuzz.test.ts reproduces this run)`,
  );
}, 60_000);
afterAll(() => t.close());

const STACK = /\n\s+at .+:\d+:\d+|\bat (?:async )?\w+ \(\/|node_modules\//;
const SQL =
  /\b(select\s.+\sfrom|insert\s+into|update\s+\w+\s+set|delete\s+from|syntax error at or near|violates .* constraint|relation "|column "|duplicate key value|invalid input syntax for)\b/i;

function assertClean(what: string, status: number, text: string): void {
  // 501 is the documented answer of the one route this server does not implement
  const server = status >= 500 && !(status === 501 && text.includes('"NOT_IMPLEMENTED"'));
  const problem = server
    ? `status ${status}`
    : STACK.test(text)
      ? 'a stack trace'
      : SQL.test(text)
        ? 'SQL'
        : null;
  if (problem) throw new Error(`${what} answered ${problem}: ${status} ${text.slice(0, 500)}`);
}

async function send(url: string, init: RequestInit): Promise<{ status: number; text: string }> {
  const res = await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(TIMEOUT_MS) });
  return { status: res.status, text: await res.text() };
}

// ---- values -------------------------------------------------------------------------------

const nasty = fc.constantFrom(
  '',
  '\u0000',
  'a\u0000b',
  '%00',
  '%FF',
  '%E0%A4%A',
  '..',
  '../../etc/passwd',
  "'; drop table dataset; --",
  '0',
  '-1',
  '99999999999999999999999',
  '1e309',
  'NaN',
  'True',
  'null',
  '{}',
  '[]',
  '\ud800',
  'x'.repeat(5000),
  '0123456789abcdefghjkmnpqrs',
  'zzzzzzzzzzzzzzzzzzzzzzzzzz',
  '2024-13-45T99:99:99Z',
);
const text = fc.oneof(nasty, fc.string({ unit: 'binary', maxLength: 40 }), fc.constantFrom(...[''].concat()));
const idLike = () =>
  fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...known) }, { weight: 2, arbitrary: text });
const jsonish = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  text,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
);

const QUERY_KEYS = [
  'limit',
  'offset',
  'cursor',
  'keyword',
  'project_id',
  'project_mfid',
  'project_scope',
  'instrument_mfid',
  'instrument_name',
  'include_owner',
  'include_metadata',
  'include_links',
  'overwrite',
  'confirm',
  'force',
  'q',
  'search',
  'status',
  'email',
  'username',
  'permissive',
  'accessible_to_user',
  'accessible_to_project',
  'resource_type',
  'dataset_id',
  'file_id',
  'sha256_hash',
  'include',
  'direction',
  'depth',
  'path',
  'ingestion_class',
  'token',
];
const BODY_KEYS = [
  'dataset_name',
  'measurement',
  'public',
  'project_id',
  'owner',
  'unique_id',
  'timestamp',
  'permission',
  'keyword',
  'parent_mfid',
  'child_mfid',
  'relationship_type',
  'reason',
  'filename',
  'size',
  'sha256_hash',
  'upload_id',
  'new_owner',
  'confirm',
  'token',
  'role',
  'status',
  'scientific_metadata',
  'instrument_name',
  'title',
  'sample_name',
  'storage_backend',
  'storage_path',
  'thumbnail_b64str',
];

/** Lone surrogates cannot be percent-encoded: they become U+FFFD, as a browser would send them. */
const wellFormed = (s: string) =>
  s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');

// ---- REST -----------------------------------------------------------------------------------

interface RouteRow {
  method: string;
  path: string;
}

function routeTable(): RouteRow[] {
  const api = Router();
  mountRoutes(api);
  const open = publicRoutes(t.app.services, t.app.contexts, createLogger('silent'));
  const rows: RouteRow[] = [];
  const walk = (stack: unknown[]) => {
    for (const layer of stack as {
      route?: { path: string; methods: Record<string, boolean> };
      handle: { stack?: unknown[] };
    }[]) {
      if (layer.route) {
        for (const m of Object.keys(layer.route.methods))
          rows.push({ method: m.toUpperCase(), path: layer.route.path });
      } else if (layer.handle.stack) walk(layer.handle.stack);
    }
  };
  walk(api.stack);
  walk(open.stack);
  rows.push({ method: 'GET', path: '/health/live' }, { method: 'GET', path: '/health/ready' });
  return rows;
}

const restRequest = (routes: RouteRow[]) =>
  fc.record({
    route: fc.constantFrom(...routes),
    method: fc.oneof(
      { weight: 9, arbitrary: fc.constant(null) },
      { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE') },
    ),
    params: fc.array(idLike(), { minLength: 4, maxLength: 4 }),
    rawParam: fc.boolean(),
    query: fc.dictionary(
      fc.oneof(fc.constantFrom(...QUERY_KEYS), text),
      fc.oneof(text, fc.constantFrom(...known)),
      { maxKeys: 4 },
    ),
    body: fc.oneof(
      fc.constant(undefined),
      fc.dictionary(
        fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...BODY_KEYS) }, { weight: 1, arbitrary: text }),
        jsonish,
        { maxKeys: 5 },
      ),
      jsonish,
    ),
    bodyAs: fc.constantFrom('json', 'json', 'json', 'malformed', 'text/plain', 'form'),
    who: fc.constantFrom('alice', 'alice', 'alice', 'alice', 'admin', 'admin', 'none', 'bad'),
  });

test('REST: no generated request gets a 5xx, a stack trace or SQL, or hangs', async () => {
  const routes = routeTable();
  expect(routes.length).toBeGreaterThan(100);
  const covered = new Set<string>();
  const statuses = new Map<number, number>();
  await fc.assert(
    fc.asyncProperty(restRequest(routes), async (r) => {
      let i = 0;
      const path = r.route.path.replace(/:(\w+)/g, () => {
        const v = r.params[i++ % r.params.length];
        return r.rawParam && /^%/.test(v) ? v : encodeURIComponent(wellFormed(v));
      });
      const url = new URL(`${t.url}${r.route.path.startsWith('/health') ? '' : '/api/v2'}${path}`);
      for (const [k, v] of Object.entries(r.query)) url.searchParams.append(k, v);
      const headers: Record<string, string> = {};
      if (r.who !== 'none')
        headers.authorization = `Bearer ${r.who === 'alice' ? alice.key : r.who === 'admin' ? admin.key : 'cat_nope'}`;
      let body: string | undefined;
      if (r.body !== undefined) {
        if (r.bodyAs === 'form') {
          headers['content-type'] = 'multipart/form-data; boundary=b';
          body = `--b\r\nContent-Disposition: form-data; name="file"; filename="${String(r.params[0]).slice(0, 50)}"\r\n\r\n${JSON.stringify(r.body)}\r\n--b--\r\n`;
        } else {
          headers['content-type'] = r.bodyAs === 'text/plain' ? 'text/plain' : 'application/json';
          body =
            r.bodyAs === 'malformed' ? JSON.stringify(r.body).slice(0, -1) + ',' : JSON.stringify(r.body);
        }
      }
      const method = r.method ?? r.route.method;
      covered.add(`${r.route.method} ${r.route.path}`);
      const res = await send(url.toString(), {
        method,
        headers,
        body: method === 'GET' || method === 'HEAD' ? undefined : body,
      });
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      assertClean(`${method} ${url.pathname}${url.search}`, res.status, res.text);
    }),
    {
      seed: SEED,
      numRuns: Math.round(1600 * RUNS),
      endOnFailure: true,
      interruptAfterTimeLimit: BUDGET_MS * RUNS,
      markInterruptAsFailure: false,
    },
  );
  const sent = [...statuses.values()].reduce((a, b) => a + b, 0);
  console.log(`REST: ${sent} requests, statuses ${JSON.stringify(Object.fromEntries(statuses))}`);
  // most rows were reached (the rest by other seeds), unless a slow machine cut the run short
  if (sent >= 1000) expect(covered.size).toBeGreaterThan(routes.length * 0.9);
}, 180_000);

// ---- GraphQL --------------------------------------------------------------------------------

function valueFor(type: GraphQLInputType, depth: number): fc.Arbitrary<unknown> {
  const inner: GraphQLInputType = getNullableType(type);
  const maybeNull = (a: fc.Arbitrary<unknown>) =>
    isNonNullType(type)
      ? a
      : fc.oneof({ weight: 2, arbitrary: a }, { weight: 1, arbitrary: fc.constant(null) });
  if (isListType(inner)) return maybeNull(fc.array(valueFor(inner.ofType, depth + 1), { maxLength: 3 }));
  if (isInputObjectType(inner)) {
    if (depth > 3) return fc.constant(null);
    const fields = Object.values(inner.getFields());
    return maybeNull(
      fc.record(Object.fromEntries(fields.map((f) => [f.name, valueFor(f.type, depth + 1)])), {
        requiredKeys: fields.filter((f) => isNonNullType(f.type)).map((f) => f.name),
      }),
    );
  }
  if (isEnumType(inner))
    return maybeNull(fc.oneof(fc.constantFrom(...inner.getValues().map((v) => v.name)), text));
  switch (inner.name) {
    case 'Int':
      return maybeNull(
        fc.oneof(
          { weight: 6, arbitrary: fc.integer({ min: 1, max: 20 }) },
          { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.constantFrom(0, -1, 2 ** 31 - 1)) },
        ),
      );
    case 'Float':
      return maybeNull(fc.double());
    case 'Boolean':
      return maybeNull(fc.boolean());
    case 'ID':
    case 'String':
      return maybeNull(
        fc.oneof(
          { weight: 4, arbitrary: fc.constantFrom(...known, 'scan', 'viewer') },
          { weight: 1, arbitrary: text },
        ),
      );
    case 'JSON':
    case 'JSONObject':
      return maybeNull(fc.oneof(fc.jsonValue({ maxDepth: 4 }), fc.dictionary(text, text, { maxKeys: 3 })));
    case 'Upload':
      return fc.constant(null);
    default:
      return maybeNull(fc.oneof(text, jsonish));
  }
}

function typeString(type: GraphQLInputType): string {
  return String(type);
}

type Composite = GraphQLObjectType | GraphQLInterfaceType;
const isComposite = (t: unknown): t is Composite => isObjectType(t) || isInterfaceType(t);

/** Selections of every leaf field of `type` and, two levels down, of its object fields. */
function selection(type: Composite, depth: number, vars: Map<string, GraphQLArgument>): string {
  const parts: string[] = ['__typename'];
  for (const field of Object.values(type.getFields())) {
    const named = getNamedType(field.type);
    if (isLeafType(named)) parts.push(`${field.name}${argumentsOf(field, vars)}`);
    else if (depth < 2 && isComposite(named)) {
      const args = argumentsOf(field, vars);
      parts.push(`${field.name}${args} { ${selection(named, depth + 1, vars)} }`);
    } else if (depth < 2 && isUnionType(named))
      parts.push(`${field.name}${argumentsOf(field, vars)} { __typename }`);
  }
  return parts.join(' ');
}

function argumentsOf(field: GraphQLField<unknown, unknown>, vars: Map<string, GraphQLArgument>): string {
  if (!field.args.length) return '';
  const parts = field.args.map((a) => {
    const name = `v${vars.size}`;
    vars.set(name, a);
    return `${a.name}: $${name}`;
  });
  return `(${parts.join(', ')})`;
}

test('GraphQL: no generated operation on any field gets a 5xx, a stack trace or SQL, or hangs', async () => {
  const schema = await buildGraphqlSchema(RESOLVERS);
  const operations: { text: string; vars: fc.Arbitrary<Record<string, unknown>> }[] = [];
  for (const [kind, root] of [
    ['query', schema.getQueryType()!],
    ['mutation', schema.getMutationType()!],
  ] as const) {
    for (const field of Object.values(root.getFields())) {
      const vars = new Map<string, GraphQLArgument>();
      const args = argumentsOf(field, vars);
      const named = getNamedType(field.type);
      const sel = isComposite(named)
        ? ` { ${selection(named, 0, vars)} }`
        : isUnionType(named)
          ? ' { __typename }'
          : '';
      const decl = [...vars].map(([n, a]) => `$${n}: ${typeString(a.type)}`).join(', ');
      operations.push({
        text: `${kind}${decl ? `(${decl})` : ''} { ${field.name}${args}${sel} }`,
        vars: fc.record(Object.fromEntries([...vars].map(([n, a]) => [n, valueFor(a.type, 0)]))),
      });
    }
  }
  expect(operations.length).toBeGreaterThan(60);
  const outcomes = new Map<string, number>();
  const op = fc.integer({ min: 0, max: operations.length - 1 }).chain((i) =>
    fc.record({
      i: fc.constant(i),
      vars: operations[i].vars,
      who: fc.constantFrom('alice', 'alice', 'admin', 'admin', 'none'),
    }),
  );
  await fc.assert(
    fc.asyncProperty(op, async ({ i, vars, who }) => {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (who !== 'none') headers.authorization = `Bearer ${who === 'alice' ? alice.key : admin.key}`;
      const res = await send(`${t.url}/graphql`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ query: operations[i].text, variables: vars }),
      });
      assertClean(operations[i].text.slice(0, 120), res.status, res.text);
      const code = /"code":"(\w+)"/.exec(res.text)?.[1] ?? (res.text.includes('"data"') ? 'data' : '?');
      outcomes.set(code, (outcomes.get(code) ?? 0) + 1);
      if (/INTERNAL_SERVER_ERROR/.test(res.text))
        throw new Error(`internal error: ${res.text.slice(0, 500)}\nQUERY ${operations[i].text}`);
    }),
    {
      seed: SEED,
      numRuns: Math.round(600 * RUNS),
      endOnFailure: true,
      interruptAfterTimeLimit: 0.6 * BUDGET_MS * RUNS,
      markInterruptAsFailure: false,
    },
  );
  const ran = [...outcomes.values()].reduce((a, b) => a + b, 0);
  console.log(`GraphQL: ${ran} operations, outcomes ${JSON.stringify(Object.fromEntries(outcomes))}`);
}, 180_000);
