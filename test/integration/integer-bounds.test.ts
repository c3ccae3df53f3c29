import {
  getNamedType,
  isCompositeType,
  isNonNullType,
  isObjectType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLSchema,
} from 'graphql';
import { buildGraphqlSchema } from '../../src/core/graphql/schema';
import { RESOLVERS } from '../../src/modules/resolvers';
import { startTestApp, type TestApp } from '../support/app';
import { rest, type GqlReply } from '../support/http';
import { buildWorld, worldPathValue, type World } from '../contract/world';

/**
 * Integers a caller controls, at and beyond their bounds, driven by the OpenAPI document the
 * service serves: every integer query parameter of every GET route gets hostile values (each a
 * 422 naming the parameter), its documented minimum and maximum (accepted) and one past each
 * (422); every path parameter of a GET route gets the same values (never a 5xx); sizes in bodies
 * and byte positions in Range headers too. Then the numeric arguments of the GraphQL queries
 * (through variables, as numbers JSON cannot carry exactly) and cursors encoding huge numbers.
 */
type Schema = { type?: string; minimum?: number; maximum?: number };
type Parameter = {
  name: string;
  in: 'path' | 'query';
  required?: boolean;
  schema: Schema & { enum?: unknown[] };
};
type Doc = { paths: Record<string, Record<string, { parameters?: Parameter[] }>> };

/** Out of range or not an integer at all: a 422 naming the parameter (a GraphQL input error). */
const HOSTILE = [
  `1${'0'.repeat(309)}`,
  '1e400',
  '-1',
  '1.5',
  String(2 ** 53),
  '0x10',
  ' 12',
  'NaN',
  'Infinity',
];
/** Accepted or refused (by the parameter's minimum), but never a server error. */
const TOLERATED = ['0', '-0'];

let t: TestApp;
let w: World;
let doc: Doc;
let webhook: string;
beforeAll(async () => {
  t = await startTestApp();
  w = await buildWorld(t);
  doc = (await rest<Doc>(t.url, 'GET', '/openapi.json')).body;
  const hook = await rest(t.url, 'POST', '/webhooks', {
    key: w.admin.key,
    body: { url: 'https://example.org/hook', active: false },
  });
  webhook = (hook.body as { unique_id: string }).unique_id;
  if (hook.status !== 201 || typeof webhook !== 'string') throw new Error(`webhook: ${hook.status}`);
}, 180_000);
afterAll(() => t.close());

/** Runs the tasks `width` at a time, in order of start. */
async function pool<T>(tasks: (() => Promise<T>)[], width = 6): Promise<T[]> {
  const out: T[] = [];
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      out[i] = await tasks[i]();
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
  return out;
}

/** A value for a path parameter that reaches a real record of the world. */
const pathValue = (path: string, name: string) => worldPathValue(w, path, name, webhook);

interface Probe {
  label: string;
  status: number;
  body: { fields?: { field: string }[] } | undefined;
}

async function get(path: string, params: Parameter[], override: [Parameter, string]): Promise<Probe> {
  const [target, value] = override;
  let url = path;
  for (const p of params.filter((x) => x.in === 'path')) {
    const v = p === target ? value : pathValue(path, p.name);
    url = url.replace(`{${p.name}}`, encodeURIComponent(v));
  }
  // the searches need words to look for before their limit matters
  const words: Record<string, string> = params.some((p) => p.in === 'query' && p.name === 'q')
    ? { q: 'contract' }
    : {};
  // a required choice (the field of /samples/facets) gets its first allowed value
  const required = Object.fromEntries(
    params
      .filter((p) => p.in === 'query' && p.required && p !== target && p.schema.enum?.length)
      .map((p) => [p.name, String(p.schema.enum![0])]),
  );
  const query =
    target.in === 'query' ? { ...words, ...required, [target.name]: value } : { ...words, ...required };
  const r = await rest(t.url, 'GET', url, { key: w.admin.key, query });
  return { label: `GET ${path} ${target.in} ${target.name}=${JSON.stringify(value)}`, ...r };
}

const gets = () =>
  Object.entries(doc.paths).flatMap(([path, ops]) =>
    ops.get ? [{ path, params: ops.get.parameters ?? [] }] : [],
  );
const names = (p: Probe) => (p.body?.fields ?? []).map((f) => f.field);

test('every integer query parameter documents its minimum and maximum, as safe integers', () => {
  const integers = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).flatMap(([method, op]) =>
      (op.parameters ?? [])
        .filter((p) => p.schema.type === 'integer')
        .map((p) => ({ at: `${method.toUpperCase()} ${path} ${p.name}`, ...p.schema })),
    ),
  );
  expect(integers.length).toBeGreaterThan(40);
  const unbounded = integers.filter(
    (s) => !Number.isSafeInteger(s.minimum) || !Number.isSafeInteger(s.maximum),
  );
  expect(unbounded.map((s) => s.at)).toEqual([]);
});

test('integer query parameters of GET routes: hostile values are 422 naming the parameter; the maximum is accepted', async () => {
  const tasks = gets().flatMap(({ path, params }) =>
    params
      .filter((p) => p.in === 'query' && p.schema.type === 'integer')
      .flatMap((p) => {
        const { minimum = 0, maximum = Number.MAX_SAFE_INTEGER } = p.schema;
        const label = (r: Probe) => `${r.label}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`;
        const refused = [...HOSTILE, String(minimum - 1), String(maximum + 1)].map((v) => async () => {
          const r = await get(path, params, [p, v]);
          return r.status === 422 && names(r).includes(p.name) ? null : label(r);
        });
        // answered, or refused naming the parameter (a service may hold it to a smaller bound)
        const accepted = ['', String(minimum), String(maximum)].map((v) => async () => {
          const r = await get(path, params, [p, v]);
          return r.status < 500 && (r.status !== 422 || names(r).includes(p.name)) ? null : label(r);
        });
        const tolerated = TOLERATED.map((v) => async () => {
          const r = await get(path, params, [p, v]);
          return r.status < 500 ? null : label(r);
        });
        return [...refused, ...accepted, ...tolerated];
      }),
  );
  expect(tasks.length).toBeGreaterThan(500);
  expect((await pool(tasks)).filter(Boolean)).toEqual([]);
});

test('path parameters of GET routes: hostile numbers are never a server error', async () => {
  const tasks = gets().flatMap(({ path, params }) =>
    params
      .filter((p) => p.in === 'path')
      .flatMap((p) =>
        [...HOSTILE, ...TOLERATED, '2147483648', '99999999999'].map((v) => async () => {
          const r = await get(path, params, [p, v]);
          return r.status < 500 ? null : `${r.label}: ${r.status}`;
        }),
      ),
  );
  expect((await pool(tasks)).filter(Boolean)).toEqual([]);
});

/** A request with a raw JSON body (numbers JSON.stringify cannot write, such as 1e400). */
async function raw(method: string, path: string, body: string) {
  const res = await fetch(`${t.url}/api/v2${path}`, {
    method,
    headers: { authorization: `Bearer ${w.admin.key}`, 'content-type': 'application/json' },
    body,
  });
  const text = await res.text();
  return { status: res.status, text };
}

test('sizes in bodies and byte numbers in Range and Content-Range headers: 4xx, never a server error', async () => {
  const file = `/datasets/${w.dataset}/files`;
  const problems: string[] = [];
  for (const v of ['1e400', `1${'0'.repeat(309)}`, '-1', '1.5', String(2 ** 53), '"12"', '"0x10"']) {
    for (const [method, path, body] of [
      ['POST', `/datasets/${w.dataset}/upload/initiate`, `{"filename":"b.bin","size":${v}}`],
      ['POST', file, `{"filename":"r.bin","storage_backend":"globus","size":${v}}`],
      ['PATCH', `/files/${w.file}`, `{"size":${v}}`],
    ]) {
      const r = await raw(method, path, body);
      if (r.status !== 422 || !r.text.includes('"field":"size"'))
        problems.push(`${method} ${path} size=${v}: ${r.status} ${r.text.slice(0, 200)}`);
    }
  }
  const init = await rest(t.url, 'POST', `/datasets/${w.dataset}/upload/initiate`, {
    key: w.admin.key,
    body: { filename: 'bounds.bin', size: 10 },
  });
  const session = (init.body as { resumable_uri: string }).resumable_uri.replace(
    t.app.config.publicBaseUrl,
    t.url,
  );
  const huge = `1${'0'.repeat(309)}`;
  for (const range of [
    `bytes 0-9999999999999999/9999999999999999`,
    `bytes */9999999999999999`,
    `bytes 0-1/${huge}`,
    `bytes ${huge}-1/10`,
  ]) {
    const r = await fetch(session, { method: 'PUT', headers: { 'content-range': range }, body: 'ab' });
    const text = await r.text();
    // past 2^53 (16 digits reach it) the digits no longer make the number: refused naming the header
    if (r.status !== 422 || !text.includes('Content-Range'))
      problems.push(`PUT session Content-Range ${range.slice(0, 40)}: ${r.status} ${text.slice(0, 200)}`);
  }
  for (const range of [`bytes=${huge}-`, `bytes=0-${huge}`, `bytes=-${huge}`, `bytes=${2 ** 53 + 2}-`]) {
    const r = await fetch(`${t.url}/api/v2/files/${w.file}/download`, {
      headers: { authorization: `Bearer ${w.admin.key}`, range },
    });
    await r.arrayBuffer();
    if (r.status >= 500) problems.push(`GET download Range ${range.slice(0, 40)}: ${r.status}`);
  }
  expect(problems).toEqual([]);
});

// ---- GraphQL --------------------------------------------------------------------------------

/** Sends a raw JSON body, so that numbers JSON.stringify cannot write (1e400) reach the server. */
async function gqlRaw(query: string, variablesJson: string): Promise<GqlReply> {
  const res = await fetch(`${t.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${w.admin.key}` },
    body: `{"query":${JSON.stringify(query)},"variables":${variablesJson}}`,
  });
  const json = (await res.json()) as Omit<GqlReply, 'status'>;
  return { status: res.status, ...json };
}

const NUMERIC = new Set(['Int', 'Float', 'SafeInt']);
/** List-shaped arguments: out of range is an input error naming them. */
const LIST_ARGS = new Set(['first', 'limit', 'offset', 'depth']);

/** A value for a required argument that is not under test. */
function argValue(field: string, arg: GraphQLArgument): string | null {
  const type = getNamedType(arg.type).name;
  if (type === 'ID') return JSON.stringify(field.startsWith('webhook') ? webhook : w.dataset);
  if (type === 'String') return JSON.stringify(arg.name === 'id' ? w.projectId : w.tag.slice(0, 8));
  if (type === 'Int') return '1';
  return null;
}

/** `field(arg: $v, other required args)` with `{ __typename }` when it returns an object. */
function call(field: GraphQLField<unknown, unknown>, target: GraphQLArgument): string | null {
  const args: string[] = [];
  for (const a of field.args) {
    if (a === target) args.push(`${a.name}: $${a.name}`);
    else if (isNonNullType(a.type) && a.defaultValue === undefined) {
      const v = argValue(field.name, a);
      if (v === null) return null;
      args.push(`${a.name}: ${v}`);
    }
  }
  const selection = isCompositeType(getNamedType(field.type)) ? ' { __typename }' : '';
  return `${field.name}(${args.join(', ')})${selection}`;
}

/** Root queries with numeric arguments, and numeric arguments of fields of a record a root query reads by id. */
function numericCalls(schema: GraphQLSchema): { at: string; arg: GraphQLArgument; query: string }[] {
  const out: { at: string; arg: GraphQLArgument; query: string }[] = [];
  const root = schema.getQueryType()!;
  const ids: Record<string, string> = {
    Dataset: `dataset(id: ${JSON.stringify(w.dataset)})`,
    Sample: `sample(id: ${JSON.stringify(w.sample)})`,
    Project: `project(id: ${JSON.stringify(w.projectId)})`,
    Instrument: `instrument(id: ${JSON.stringify(w.instrumentId)})`,
  };
  const add = (at: string, field: GraphQLField<unknown, unknown>, wrap: (s: string) => string) => {
    for (const arg of field.args) {
      if (!NUMERIC.has(getNamedType(arg.type).name)) continue;
      const inner = call(field, arg);
      const type = String(arg.type);
      if (inner)
        out.push({ at: `${at}(${arg.name})`, arg, query: `query($${arg.name}: ${type}) { ${wrap(inner)} }` });
    }
  };
  for (const field of Object.values(root.getFields())) add(`Query.${field.name}`, field, (s) => s);
  for (const [name, read] of Object.entries(ids)) {
    const type = schema.getType(name);
    if (!isObjectType(type)) continue;
    for (const field of Object.values(type.getFields()))
      add(`${name}.${field.name}`, field, (s) => `${read} { ${s} }`);
  }
  return out;
}

test('GraphQL numeric arguments: out-of-range values are input errors naming the argument, never internal', async () => {
  const calls = numericCalls(await buildGraphqlSchema(RESOLVERS));
  expect(calls.filter((c) => LIST_ARGS.has(c.arg.name)).length).toBeGreaterThan(20);
  const values = [
    '1e400',
    `1${'0'.repeat(309)}`,
    '-1',
    '1.5',
    String(2 ** 53),
    '2147483648',
    '"0x10"',
    '" 12"',
    '""',
    '"NaN"',
    '"Infinity"',
    'null',
    '0',
    '2147483647',
  ];
  const tasks = calls.flatMap(({ at, arg, query }) =>
    values.map((v) => async () => {
      const r = await gqlRaw(query, `{${JSON.stringify(arg.name)}:${v}}`);
      const errors = r.errors ?? [];
      const label = `${at} = ${v}: ${r.status} ${JSON.stringify(errors).slice(0, 300)}`;
      if (r.status >= 500 || errors.some((e) => e.extensions?.code === 'INTERNAL_SERVER_ERROR')) return label;
      const inRange = ['null', '0', '2147483647'].includes(v);
      const outOfRange = !inRange && !(v === '-1' && !LIST_ARGS.has(arg.name));
      if (!outOfRange) return null;
      const named = errors.some(
        (e) =>
          ['BAD_USER_INPUT', 'GRAPHQL_VALIDATION_FAILED'].includes(e.extensions?.code ?? '') &&
          (e.extensions?.fields?.some((f) => f.field === arg.name) || e.message.includes(`$${arg.name}`)),
      );
      return named ? null : label;
    }),
  );
  expect((await pool(tasks)).filter(Boolean)).toEqual([]);
});

test('GraphQL cursors carrying huge numbers (offsets, ids, depths) are input errors or empty pages, never internal', async () => {
  const schema = await buildGraphqlSchema(RESOLVERS);
  const forged = ['o:999999999999', 'o:2147483648', 'r:999999999999999', `g:99999:dataset:${w.dataset}`].map(
    (c) => Buffer.from(c, 'utf8').toString('base64url'),
  );
  const problems: string[] = [];
  for (const field of Object.values(schema.getQueryType()!.getFields())) {
    const after = field.args.find((a) => a.name === 'after');
    const inner = after && call(field, after);
    if (!inner) continue;
    for (const cursor of forged) {
      const r = await gqlRaw(`query($after: String) { ${inner} }`, JSON.stringify({ after: cursor }));
      if (r.status >= 500 || (r.errors ?? []).some((e) => e.extensions?.code === 'INTERNAL_SERVER_ERROR'))
        problems.push(`${field.name}(after: ${cursor}): ${r.status} ${JSON.stringify(r.errors)}`);
    }
  }
  expect(problems).toEqual([]);
});
