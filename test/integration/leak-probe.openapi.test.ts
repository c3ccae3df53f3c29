import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestApp, type TestApp } from '../support/app';
import { gql, rest, type Reply } from '../support/http';
import { makeProject, makeUser, unique, type TestUser } from '../support/factories';
import { newDataset, newSample } from '../support/catalog';
import { formUpload } from '../support/files';
import { newMfid } from '../../src/core/ids';
import { toGlobalId } from '../../src/core/graphql/node';

/**
 * The cross-user probe, driven by the documents rather than by a list of routes: every GET path of
 * the OpenAPI document and every query field of the GraphQL schema is asked, by a user who may
 * read only some of the records, with every record's MFID in every identifier slot (path and
 * query). No answer may hold an MFID of a record the caller cannot read (besides the ones the
 * caller put in the request), or the private metadata's words; an unreadable record must answer
 * exactly as a never-issued MFID does; nothing answers 5xx. Creates through every documented body
 * with a `unique_id` (and every GraphQL input with `uniqueId`) are tried with the other user's
 * MFIDs; bob's unfiltered webhook log and the history of the record carol linked to are probed
 * after carol's private work. The GraphQL global ids (`nodeId`) of the records are probed like
 * their MFIDs: in every identifier argument, compared with a never-issued one of the same type,
 * and looked for in every answer.
 */
let t: TestApp;
let admin: TestUser;
let bob: TestUser;
let carol: TestUser;
const SECRET = 'secretalloy42';
/** carol's private records (bob may read none of them) */
const hidden: Record<string, string> = {};
/** records bob may read */
const open: Record<string, string> = {};
/** the global ids of carol's private records, with their types */
const hiddenNodes: { id: string; type: string }[] = [];
/** the global ids of records bob may read */
const openNodes: string[] = [];
let webhookId = '';
let receiver: http.Server;
/** the bodies bob's webhook receiver got */
const received: string[] = [];

interface Doc {
  components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: { name: string; in: string; required?: boolean; schema?: { type?: string } }[];
        requestBody?: {
          content?: Record<string, { schema?: { $ref?: string; properties?: Record<string, unknown> } }>;
        };
      }
    >
  >;
}

beforeAll(async () => {
  t = await startTestApp({ WEBHOOK_RETRY_BASE_MS: '0' });
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  admin = await makeUser(t.app, { admin: true });
  bob = await makeUser(t.app);
  carol = await makeUser(t.app);
  const project = await makeProject(t.app, carol.user, unique('probe'));

  const hook = await rest(t.url, 'POST', '/webhooks', {
    key: bob.key,
    body: { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook` },
  });
  expect(hook.status).toBe(201);
  webhookId = hook.body.unique_id as string;

  open.bobDataset = await newDataset(t.url, bob.key, { dataset_name: 'bob' });
  open.bobSample = await newSample(t.url, bob.key, { sample_name: 'bob' });
  open.publicDataset = await newDataset(t.url, carol.key, { dataset_name: 'pub', public: true });
  hidden.dataset = await newDataset(t.url, carol.key, {
    dataset_name: SECRET,
    project_id: project.projectId,
    scientific_metadata: { note: SECRET },
  });
  hidden.sample = await newSample(t.url, carol.key, {
    sample_name: SECRET,
    scientific_metadata: { note: SECRET },
  });
  // every user may read every project (docs/access-control.md §1): a project is not hidden
  open.project = project.uniqueId;
  const file = await formUpload(t.url, carol.key, hidden.dataset, [
    { name: `${SECRET}.txt`, data: Buffer.from(SECRET) },
  ]);
  hidden.file = file.body.mfid as string;
  await rest(t.url, 'POST', `/datasets/${hidden.dataset}/keywords`, {
    key: carol.key,
    query: { keyword: SECRET },
  });
  // carol's private records linked to what bob reads: the links' history is on bob's records too
  const link = (parent: string, child: string) =>
    rest(t.url, 'POST', '/resources/links', {
      key: admin.key,
      body: { parent_mfid: parent, child_mfid: child },
    });
  expect((await link(hidden.sample, open.publicDataset)).status).toBeLessThan(300);
  expect((await link(hidden.dataset, open.publicDataset)).status).toBeLessThan(300);
  expect((await link(hidden.sample, open.bobSample)).status).toBeLessThan(300);
  expect((await link(hidden.sample, open.bobDataset)).status).toBeLessThan(300);
  expect((await link(hidden.dataset, open.bobDataset)).status).toBeLessThan(300);
  await rest(t.url, 'POST', `/resources/${hidden.sample}/metadata`, {
    key: carol.key,
    body: { note: SECRET },
  });
  await t.app.webhooks.drain();
  const ingestion = await gql(
    t.url,
    carol.key,
    'query($id: ID) { ingestionRequests(datasetId: $id) { nodes { nodeId } } }',
    { id: hidden.dataset },
  );
  const ingestionId = ingestion.data.ingestionRequests.nodes[0].nodeId as string;
  hiddenNodes.push(
    { id: toGlobalId('Dataset', hidden.dataset), type: 'Dataset' },
    { id: toGlobalId('Sample', hidden.sample), type: 'Sample' },
    { id: toGlobalId('File', hidden.file), type: 'File' },
    { id: ingestionId, type: 'IngestionRequest' },
  );
  openNodes.push(
    toGlobalId('Dataset', open.bobDataset),
    toGlobalId('Sample', open.bobSample),
    toGlobalId('Dataset', open.publicDataset),
    toGlobalId('Project', open.project),
    toGlobalId('Webhook', webhookId),
  );
});

afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve));
  await t.close();
});

const MFID = /[0-9a-hjkmnp-tv-z]{25}[048cgmrw]/g;

/** What an answer shows bob that he may not see: hidden MFIDs he did not send, the secret words. */
function leaks(name: string, body: unknown, sent: string[]): string[] {
  const text = JSON.stringify(body ?? null);
  const problems: string[] = [];
  const hiddenIds = new Set(Object.values(hidden));
  for (const id of text.match(MFID) ?? []) {
    if (hiddenIds.has(id) && !sent.includes(id)) problems.push(`${name}: shows ${id}`);
  }
  for (const { id } of hiddenNodes) {
    // a sent id may begin with a hidden one's text (base64 of `IngestionRequest:2147483000` starts
    // with that of `IngestionRequest:2`): its echo is not a leak
    if (text.includes(id) && !sent.some((s) => s.includes(id))) problems.push(`${name}: shows ${id}`);
  }
  if (text.toLowerCase().includes(SECRET)) problems.push(`${name}: shows the secret`);
  return problems;
}

/** An answer with the MFID it was asked about replaced, to compare hidden with never-issued. */
const shape = (res: Reply, id: string) =>
  `${res.status} ${JSON.stringify(res.body ?? null)
    .split(id)
    .join('<id>')
    .replace(/"request_id":"[^"]*"/g, '')}`;

const idSlot = (name: string) => /(^id$|_id$|_mfid$|^mfid$|^pid$|^dsid$|^unique_id$)/.test(name);

test('every documented GET route, with every MFID in every identifier slot, shows bob nothing of carol', async () => {
  const doc = (await rest<Doc>(t.url, 'GET', '/openapi.json')).body;
  const ids = [
    ...Object.values(hidden),
    ...Object.values(open),
    webhookId,
    bob.user.uniqueId,
    carol.user.uniqueId,
  ];
  const problems: string[] = [];
  let asked = 0;
  const ask = async (path: string, query: Record<string, string>, sent: string[]) => {
    const res = await rest(t.url, 'GET', path, { key: bob.key, query });
    asked++;
    const name = `GET ${path}?${new URLSearchParams(query).toString()}`;
    if (res.status >= 500) problems.push(`${name}: ${res.status}`);
    problems.push(...leaks(name, res.body, sent));
    return res;
  };
  for (const [template, ops] of Object.entries(doc.paths)) {
    const op = ops.get;
    if (!op || template.startsWith('/signed/') || template === '/docs') continue;
    const params = op.parameters ?? [];
    const pathParams = params.filter((p) => p.in === 'path');
    const required: Record<string, string> = {};
    for (const p of params)
      if (p.in === 'query' && p.required) required[p.name] = p.name === 'q' ? SECRET : 'x';
    const fill = (id: string) => template.replace(/\{[^}]+\}/g, id);
    if (pathParams.length === 0) {
      await ask(template, required, []);
      for (const p of params.filter((q) => q.in === 'query' && idSlot(q.name))) {
        for (const id of Object.values(hidden)) {
          const asHidden = await ask(template, { ...required, [p.name]: id }, [id]);
          const fresh = newMfid();
          const asFresh = await ask(template, { ...required, [p.name]: fresh }, [fresh]);
          if (shape(asHidden, id) !== shape(asFresh, fresh)) {
            problems.push(`GET ${template}?${p.name}=<hidden ${id}> answers unlike a never-issued MFID`);
          }
        }
      }
      continue;
    }
    for (const id of ids) {
      const res = await ask(fill(id), required, [id]);
      if (Object.values(hidden).includes(id)) {
        const fresh = newMfid();
        const asFresh = await ask(fill(fresh), required, [fresh]);
        if (shape(res, id) !== shape(asFresh, fresh)) {
          problems.push(
            `GET ${template} with hidden ${id}: ${res.status} unlike a never-issued MFID (${asFresh.status})`,
          );
        }
      }
    }
  }
  expect(problems).toEqual([]);
  expect(asked).toBeGreaterThan(300);
});

interface TypeRef {
  kind: string;
  name: string | null;
  ofType: TypeRef | null;
}
interface Field {
  name: string;
  args: { name: string; type: TypeRef }[];
  type: TypeRef;
}
interface FullType {
  name: string;
  kind: string;
  fields: Field[] | null;
  inputFields: { name: string; type: TypeRef }[] | null;
  possibleTypes: { name: string }[] | null;
}
const INTROSPECT = `{ __schema { queryType { name } mutationType { name } types { name kind
  fields { name args { name type { ...T } } type { ...T } }
  inputFields { name type { ...T } } possibleTypes { name } } } }
  fragment T on __Type { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } }`;

const named = (t0: TypeRef): TypeRef => (t0.ofType ? named(t0.ofType) : t0);
/** A type as a variable declares it (`[ID!]!`). */
const printed = (t0: TypeRef): string =>
  t0.kind === 'NON_NULL'
    ? `${printed(t0.ofType!)}!`
    : t0.kind === 'LIST'
      ? `[${printed(t0.ofType!)}]`
      : t0.name!;
const required = (t0: TypeRef) => t0.kind === 'NON_NULL';

test('every GraphQL query field, with every MFID in every identifier argument, shows bob nothing of carol', async () => {
  const schema = (await gql(t.url, bob.key, INTROSPECT)).data.__schema as {
    queryType: { name: string };
    types: FullType[];
  };
  const types = new Map(schema.types.map((ty) => [ty.name, ty]));
  /** scalars of a type, and one level of its objects' scalars; fields with required arguments left out */
  /** `prefix`: aliases the fields (the members of a union or interface may share names of other types) */
  const selection = (name: string, depth: number, prefix = ''): string => {
    const ty = types.get(name)!;
    if (ty.kind === 'UNION' || ty.kind === 'INTERFACE') {
      return `__typename ${(ty.possibleTypes ?? []).map((p) => `... on ${p.name} { ${selection(p.name, depth, `${p.name}_`)} }`).join(' ')}`;
    }
    const parts: string[] = ['__typename'];
    for (const f of ty.fields ?? []) {
      if (f.args.some((a) => required(a.type))) continue;
      const inner = named(f.type);
      const innerKind = types.get(inner.name!)!.kind;
      const as = prefix ? `${prefix}${f.name}: ${f.name}` : f.name;
      if (innerKind === 'SCALAR' || innerKind === 'ENUM') parts.push(as);
      else if (depth > 0) parts.push(`${as} { ${selection(inner.name!, depth - 1)} }`);
    }
    return parts.join(' ');
  };
  const ids = [...Object.values(hidden), ...Object.values(open), webhookId];
  // global ids too: a never-issued one of the same type is what a hidden one must answer like
  const nodeIds = [...hiddenNodes.map((n) => n.id), ...openNodes];
  const freshOf = (id: string) => {
    const node = hiddenNodes.find((n) => n.id === id);
    if (node) return toGlobalId(node.type, node.type === 'IngestionRequest' ? '2147483000' : newMfid());
    return Object.values(hidden).includes(id) ? newMfid() : null;
  };
  const problems: string[] = [];
  let asked = 0;
  const ask = async (name: string, query: string, variables: Record<string, unknown>, sent: string[]) => {
    const res = await gql(t.url, bob.key, query, variables);
    asked++;
    if (res.status >= 500) problems.push(`${name}: ${res.status}`);
    for (const e of res.errors ?? []) {
      if (e.extensions?.code === 'INTERNAL_SERVER_ERROR') problems.push(`${name}: ${e.message}`);
    }
    problems.push(...leaks(name, { data: res.data, errors: res.errors }, sent));
    return res;
  };
  for (const field of types.get(schema.queryType.name)!.fields!) {
    const idArgs = field.args.filter(
      (a) => ['ID', 'String'].includes(named(a.type).name!) && /id$|Id$|^id|mfid|Mfid|project/i.test(a.name),
    );
    const otherRequired = field.args.filter((a) => required(a.type) && !idArgs.includes(a));
    if (otherRequired.some((a) => a.name !== 'q')) continue;
    const inner = named(field.type);
    const innerKind = types.get(inner.name!)!.kind;
    const sel = innerKind === 'SCALAR' || innerKind === 'ENUM' ? '' : `{ ${selection(inner.name!, 1)} }`;
    const decl = [...idArgs, ...otherRequired].map((a) => `$${a.name}: ${printed(a.type)}`);
    const call = [...idArgs, ...otherRequired].map((a) => `${a.name}: $${a.name}`);
    const query = `query${decl.length ? `(${decl.join(', ')})` : ''} { f: ${field.name}${call.length ? `(${call.join(', ')})` : ''} ${sel} }`;
    const base: Record<string, unknown> = {};
    for (const a of otherRequired) base[a.name] = SECRET;
    if (idArgs.length === 0) {
      await ask(field.name, query, base, []);
      continue;
    }
    for (const arg of idArgs) {
      for (const id of [...ids, ...nodeIds]) {
        const res = await ask(`${field.name}(${arg.name})`, query, { ...base, [arg.name]: id }, [id]);
        // a global id reaches its record through node and nodes: the probe reads, it is not refused
        if (['node', 'nodes'].includes(field.name) && nodeIds.includes(id) && res.errors) {
          problems.push(`${field.name}(${id}): ${res.errors[0].message}`);
        }
        const fresh = freshOf(id);
        if (fresh === null) continue;
        const asFresh = await ask(`${field.name}(${arg.name})`, query, { ...base, [arg.name]: fresh }, [
          fresh,
        ]);
        const strip = (r: typeof res, x: string) =>
          JSON.stringify({ d: r.data ?? null, e: r.errors?.map((e) => [e.message, e.extensions?.code]) })
            .split(x)
            .join('<id>');
        if (strip(res, id) !== strip(asFresh, fresh)) {
          problems.push(`${field.name}(${arg.name}: hidden ${id}) answers unlike a never-issued MFID`);
        }
      }
    }
  }
  expect(problems).toEqual([]);
  expect(asked).toBeGreaterThan(100);
  // the global ids went through node and nodes (and were found there by whoever may read them)
  for (const { id } of hiddenNodes) {
    const mine = await gql(t.url, carol.key, 'query($id: ID!) { node(id: $id) { nodeId } }', { id });
    expect(mine.data.node).toEqual({ nodeId: id });
    const many = await gql(t.url, bob.key, 'query($ids: [ID!]!) { nodes(ids: $ids) { nodeId } }', {
      ids: [id, ...openNodes],
    });
    expect(many.data.nodes[0]).toBeNull();
    expect(many.data.nodes.slice(1).every((n: unknown) => n !== null)).toBe(true);
  }
});

test("creates through every documented body and GraphQL input with a unique_id never take carol's MFIDs", async () => {
  const doc = (await rest<Doc>(t.url, 'GET', '/openapi.json')).body;
  const problems: string[] = [];
  let tried = 0;
  for (const [template, ops] of Object.entries(doc.paths)) {
    const op = ops.post;
    const schema = op?.requestBody?.content?.['application/json']?.schema;
    const props = schema?.$ref
      ? doc.components.schemas[schema.$ref.replace('#/components/schemas/', '')]?.properties
      : schema?.properties;
    if (!props || !('unique_id' in props) || template.includes('{')) continue;
    for (const id of Object.values(hidden)) {
      const res = await rest(t.url, 'POST', template, {
        key: bob.key,
        body: { unique_id: id, dataset_name: 'x', sample_name: 'x', username: unique('u') },
      });
      tried++;
      if (res.status < 400 || res.status >= 500) problems.push(`POST ${template} with ${id}: ${res.status}`);
      problems.push(...leaks(`POST ${template}`, res.body, [id]));
    }
  }
  const mutations = [
    ['createDataset', 'datasetName'],
    ['createSample', 'sampleName'],
  ];
  for (const [name, field] of mutations) {
    for (const id of Object.values(hidden)) {
      const res = await gql(
        t.url,
        bob.key,
        `mutation($id: String) { ${name}(input: { ${field}: "x", uniqueId: $id }) { uniqueId scientificMetadata } }`,
        { id },
      );
      tried++;
      if (res.errors?.[0]?.extensions?.code !== 'CONFLICT')
        problems.push(`${name} with ${id}: ${JSON.stringify(res.errors)}`);
      problems.push(...leaks(name, res, [id]));
    }
  }
  expect(problems).toEqual([]);
  expect(tried).toBeGreaterThanOrEqual(4 * Object.keys(hidden).length);
  // carol's records are still hers
  expect(
    (await rest(t.url, 'GET', `/resources/${hidden.sample}/metadata`, { key: carol.key })).body,
  ).toMatchObject({
    scientific_metadata: { note: SECRET },
  });
});

test("bob's unfiltered webhook (its log and what it posts) and the history of what he reads name none of carol's records", async () => {
  const deliveries = await rest(t.url, 'GET', `/webhooks/${webhookId}/deliveries`, {
    key: bob.key,
    query: { limit: '500' },
  });
  expect(deliveries.status).toBe(200);
  const viaGraphql = await gql(
    t.url,
    bob.key,
    'query($id: ID!) { webhookDeliveries(id: $id, first: 500) { eventId eventType resourceId status lastError } }',
    { id: webhookId },
  );
  expect(received.length).toBeGreaterThan(0);
  const problems = [
    ...leaks('webhook bodies', received, []),
    ...leaks('deliveries', deliveries.body, []),
    ...leaks('webhookDeliveries', viaGraphql, []),
  ];
  for (const id of [open.bobDataset, open.bobSample]) {
    const history = await rest(t.url, 'GET', `/resources/${id}/history`, {
      key: bob.key,
      query: { limit: '100' },
    });
    expect(history.status).toBe(200);
    expect(history.body.items.length).toBeGreaterThan(0);
    problems.push(...leaks(`history of ${id}`, history.body, []));
    const nested = await gql(
      t.url,
      bob.key,
      'query($id: ID!) { resource(id: $id) { ... on Dataset { history { nodes { type payload } } } ... on Sample { history { nodes { type payload } } } } }',
      { id },
    );
    problems.push(...leaks(`nested history of ${id}`, nested, []));
  }
  expect(problems).toEqual([]);
});
