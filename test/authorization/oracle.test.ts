import { newMfid } from '../../src/core/ids';
import { rest } from '../support/http';
import { startTestApp, type TestApp } from '../support/app';
import { expected } from './rules';
import { TABLE, type Fresh, type Row, type World } from './table';
import { buildCast, buildWorld, freshRecords, type Cast } from './world';

/**
 * The existence oracle: for every operation of the authorization table (table.ts) that a caller
 * without access answers 404 on a private record, the answer for another user's private record
 * equals the answer for made-up ids of the same shape (status and body, the ids substituted):
 * neither existence nor type leaks. REST routes and GraphQL operations alike.
 */
let t: TestApp;
let cast: Cast;
let real: World;
let ghost: World;

/** A made-up numeric id: far above any sequence the tests reach. */
let nextNumber = 1_900_000_000;
const madeUpNumber = () => nextNumber++;

beforeAll(async () => {
  t = await startTestApp();
  cast = await buildCast(t);
  real = await buildWorld(t, cast, 'private');
  ghost = {
    ...real,
    dataset: newMfid(),
    dataset2: newMfid(),
    sample: newMfid(),
    sample2: newMfid(),
    storedFile: newMfid(),
    remoteFile: newMfid(),
    thumbnail: madeUpNumber(),
    ingestionRequest: madeUpNumber(),
    analysisRequest: madeUpNumber(),
    webhook: newMfid(),
    webhookDelivery: madeUpNumber(),
  };
}, 180_000);
afterAll(() => t.close());

/** What a call sends: its path, query and body, or its GraphQL variables. */
function request(row: Row, w: World, fresh: Fresh): string {
  return row.rest ? JSON.stringify(row.rest(w, fresh)) : JSON.stringify(row.graphql!.vars?.(w, fresh) ?? {});
}

/**
 * The [real, made-up] id pairs a call uses: the tokens where the request on the real world and
 * the one on the made-up world differ.
 */
function idPairs(real: string, made: string): [string, string][] {
  const tokens = (text: string) => text.split(/[^A-Za-z0-9_-]+/);
  const [a, b] = [tokens(real), tokens(made)];
  expect(a.length).toBe(b.length);
  const out = new Map<string, string>();
  a.forEach((token, i) => token !== b[i] && out.set(token, b[i]));
  return [...out];
}

/** The text with every real id the call used replaced by its made-up twin (whole tokens only). */
function substitute(text: string, ids: [string, string][]): string {
  let out = text;
  for (const [from, to] of ids) out = out.replace(new RegExp(`(?<![\\w-])${from}(?![\\w-])`, 'g'), to);
  return out;
}

function ghostFresh(fresh: Fresh): Fresh {
  const out: Fresh = {};
  if (fresh.dataset) out.dataset = newMfid();
  if (fresh.file) out.file = newMfid();
  if (fresh.webhook) out.webhook = newMfid();
  if (fresh.apiKey) out.apiKey = newMfid();
  // a made-up batch: a new MFID and a token of the same length (base64url, every letter x)
  if (fresh.draft) out.draft = newMfid();
  if (fresh.publication) out.publication = newMfid();
  if (fresh.batch) out.batch = { id: newMfid(), token: fresh.batch.token.replace(/[A-Za-z0-9]/g, 'x') };
  for (const k of ['thumbnail', 'deletionRequest', 'joinRequest'] as const) {
    if (fresh[k] !== undefined) out[k] = madeUpNumber();
  }
  return out;
}

interface Answer {
  status: number;
  body: string;
}

async function callRest(row: Row, w: World, fresh: Fresh): Promise<Answer> {
  const call = row.rest!(w, fresh);
  const reply = await rest(t.url, row.op.split(' ')[0], call.path, {
    key: cast.users.stranger.key,
    query: call.query,
    body: call.body,
    headers: call.headers,
  });
  return { status: reply.status, body: JSON.stringify(reply.body) };
}

async function callGraphql(row: Row, w: World, fresh: Fresh): Promise<Answer> {
  const { doc, vars } = row.graphql!;
  const res = await fetch(`${t.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${cast.users.stranger.key}` },
    body: JSON.stringify({ query: doc, variables: vars?.(w, fresh) ?? {} }),
  });
  const json = (await res.json()) as {
    data?: unknown;
    errors?: { message: string; path?: unknown; extensions?: { code?: string } }[];
  };
  const errors = json.errors?.map((e) => ({ message: e.message, path: e.path, code: e.extensions?.code }));
  return { status: res.status, body: JSON.stringify({ data: json.data, errors }) };
}

/** Operations a caller without access answers 404 on a private record (uploads excluded: multipart). */
const PROBED = TABLE.filter(
  (row) => expected(row.rule, 'stranger', 'private') === 404 && !row.graphql?.upload,
);

test('the table has operations to probe', () => {
  expect(PROBED.length).toBeGreaterThan(40);
});

test.each(PROBED.map((row) => [row.op, row] as const))('%s', async (_op, row) => {
  const fresh = await freshRecords(t, cast, real, 'private', row.fresh);
  const made = ghostFresh(fresh);
  const ids = idPairs(request(row, real, fresh), request(row, ghost, made));
  const call = row.rest ? callRest : callGraphql;
  const onReal = await call(row, real, fresh);
  const onGhost = await call(row, ghost, made);
  if (row.rest) expect(onReal.status).toBe(404);
  else expect(onReal.body).toContain('NOT_FOUND');
  expect({ status: onReal.status, body: substitute(onReal.body, ids) }).toEqual(onGhost);
});

test('DELETE /datasets/{A}/samples/{S} does not tell which of the two exists', async () => {
  // the stranger's own dataset, and the owner's private sample or an id nothing has
  const own = await rest(t.url, 'POST', '/datasets', {
    key: cast.users.stranger.key,
    body: { dataset_name: 'oracle' },
  });
  expect(own.status).toBeLessThan(300);
  const mine = own.body.unique_id as string;
  const other = await rest(t.url, 'DELETE', `/datasets/${mine}/samples/${real.sample}`, {
    key: cast.users.stranger.key,
  });
  const none = await rest(t.url, 'DELETE', `/datasets/${mine}/samples/${ghost.sample}`, {
    key: cast.users.stranger.key,
  });
  expect(other.status).toBe(404);
  expect(other.body.detail).toBe(`Sample ${real.sample} not found`);
  expect({ status: none.status, detail: none.body.detail }).toEqual({
    status: 404,
    detail: `Sample ${ghost.sample} not found`,
  });
  // and the other way round: the owner's private dataset with the stranger's own sample
  const sample = await rest(t.url, 'POST', '/samples', {
    key: cast.users.stranger.key,
    body: { sample_name: 'oracle' },
  });
  const s = sample.body.unique_id as string;
  const a = await rest(t.url, 'DELETE', `/datasets/${real.dataset}/samples/${s}`, {
    key: cast.users.stranger.key,
  });
  const b = await rest(t.url, 'DELETE', `/datasets/${ghost.dataset}/samples/${s}`, {
    key: cast.users.stranger.key,
  });
  expect([a.status, a.body.detail]).toEqual([404, `Dataset ${real.dataset} not found`]);
  expect([b.status, b.body.detail]).toEqual([404, `Dataset ${ghost.dataset} not found`]);
});

test('the generic routes do not tell a private dataset from a missing id, nor its type', async () => {
  for (const path of ['', '/type', '/metadata', '/links', '/access', '/access_groups']) {
    const other = await rest(t.url, 'GET', `/resources/${real.dataset}${path}`, {
      key: cast.users.stranger.key,
    });
    expect([path, other.status, other.body.detail]).toEqual([
      path,
      404,
      `Resource ${real.dataset} not found`,
    ]);
  }
});
