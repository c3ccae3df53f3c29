import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv/dist/2020';
import { startTestApp, type TestApp } from '../support/app';
import { gql, rest } from '../support/http';
import { buildWorld, worldPathValue, type World } from '../contract/world';

/**
 * The OpenAPI document as an outside contract checker reads it: Redocly's recommended lint
 * passes with no warning; every documented GET, asked for a seeded world, answers a documented
 * status in a documented media type with a body that fits the schema; the signed URLs the
 * service hands out match a documented path; every 401 carries a `WWW-Authenticate` challenge.
 */
interface Operation {
  parameters?: { name: string; in: string; required?: boolean; schema?: { enum?: string[] } }[];
  security?: unknown[];
  responses: Record<string, { $ref?: string; content?: Record<string, unknown> }>;
}
interface Doc {
  info: { license?: { identifier?: string } };
  paths: Record<string, Record<string, Operation>>;
  components: { responses: Record<string, { content?: Record<string, unknown>; headers?: object }> };
}

const ROOT = path.resolve(__dirname, '../..');
let t: TestApp;
let w: World;
let doc: Doc;
let webhook: string;
let ajv: Ajv;
beforeAll(async () => {
  t = await startTestApp();
  w = await buildWorld(t);
  doc = (await rest<Doc>(t.url, 'GET', '/openapi.json')).body;
  const hook = await w.asAdmin('POST', '/webhooks', {
    body: { url: 'https://example.org/hook', active: false },
  });
  webhook = (hook.body as { unique_id: string }).unique_id;
  ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
  ajv.addSchema(doc, 'openapi');
}, 180_000);
afterAll(() => t.close());

const pointer = (...parts: string[]) =>
  parts.map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/** The documented path a concrete path under /api/v2 matches (a parameter is one segment). */
function documentedPath(concrete: string): string[] {
  return Object.keys(doc.paths).filter((template) => {
    const re = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+');
    return new RegExp(`^${re}$`).test(concrete);
  });
}

/** Whether a documented media type (or range) covers the answer's. */
const covers = (documented: string, actual: string) =>
  documented === actual ||
  documented === '*/*' ||
  (documented.endsWith('/*') && actual.startsWith(documented.slice(0, -1)));

interface Answer {
  status: number;
  type: string;
  body: unknown;
}

/**
 * What is wrong with `answer` as the answer of `method template`: an undocumented status, a
 * media type the status does not document, a JSON body outside its schema. Empty when nothing is.
 */
function mismatches(method: string, template: string, answer: Answer): string[] {
  const responses = doc.paths[template][method].responses;
  const status = String(answer.status);
  const key = status in responses ? status : `${status[0]}XX`;
  const name = `${method.toUpperCase()} ${template} ${status}`;
  if (!(key in responses)) return [`${name}: status not documented (${Object.keys(responses).join(', ')})`];
  const response = responses[key];
  const ref = response.$ref
    ? response.$ref.replace('#', 'openapi#')
    : `openapi#/${pointer('paths', template, method, 'responses', key)}`;
  const content = response.$ref
    ? doc.components.responses[response.$ref.split('/').pop()!].content
    : response.content;
  if (!content) return answer.type ? [`${name}: documents no body, answered ${answer.type}`] : [];
  const documented = Object.keys(content).find((type) => covers(type, answer.type));
  if (!documented) return [`${name}: ${answer.type} is not among ${Object.keys(content).join(', ')}`];
  if (documented !== 'application/json') return [];
  const validate = ajv.compile({ $ref: `${ref}/content/application~1json/schema` });
  if (validate(answer.body)) return [];
  return [
    `${name}: ${JSON.stringify(validate.errors?.slice(0, 3))} in ${JSON.stringify(answer.body).slice(0, 300)}`,
  ];
}

async function ask(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  const res = await fetch(url, { method, headers, redirect: 'manual' });
  const type = (res.headers.get('content-type') ?? '').split(';')[0].trim();
  const text = await res.text();
  return { status: res.status, type, body: type === 'application/json' && text ? JSON.parse(text) : text };
}

test('Redocly lint (recommended rules, redocly.yaml): no error and no warning', () => {
  const cli = path.join(ROOT, 'node_modules/@redocly/cli/bin/cli.js');
  const out = execFileSync(process.execPath, [cli, 'lint', 'openapi.json', '--format=json'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const report = JSON.parse(out.slice(out.indexOf('{'))) as {
    totals: { errors: number; warnings: number };
    problems: { ruleId: string; message: string }[];
  };
  expect(report.problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
  expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  // the committed document is the one served (openapi.test.ts): the lint read the served one
  expect(JSON.parse(fs.readFileSync(path.join(ROOT, 'openapi.json'), 'utf8'))).toEqual(doc);
});

test("the document names the package's licence", () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { license: string };
  expect(doc.info.license?.identifier).toBe(pkg.license);
});

/** Answers a GET may give in a seeded world besides 2xx, and why. */
const NOT_OK: Record<string, number> = {
  // the world has no analysis request: the route answers its documented NOT_FOUND
  '/analysis_requests/{id}': 404,
  // the id given is a person's: the service-account routes answer NOT_FOUND for people
  '/service_accounts/{id}': 404,
  // the world has no publication (test/integration/publications.test.ts reads them)
  '/publications/{id}': 404,
  '/publications/{id}/export/{format}': 404,
  // the world's dataset MFID in the format slot: not a format
  '/datasets/{id}/export/{format}': 422,
  // the id given is a batch nobody made (test/integration/batch.test.ts reads real ones)
  '/dataset_batches/{id}': 404,
  '/dataset_batches/{id}/items': 404,
  // the world's file is not an image: its documented NOT_FOUND (file-preview.test.ts reads images)
  '/files/{id}/preview/image': 404,
};

test('every documented GET answers a documented status, media type and body for a seeded world', async () => {
  const problems: string[] = [];
  let asked = 0;
  for (const [template, ops] of Object.entries(doc.paths)) {
    const op = ops.get;
    if (!op || template === '/signed/objects/{key}') continue;
    let concrete = template;
    const query = new URLSearchParams();
    for (const p of op.parameters ?? []) {
      if (p.in === 'path')
        concrete = concrete.replace(`{${p.name}}`, worldPathValue(w, template, p.name, webhook));
      else if (p.in === 'query' && p.required)
        query.set(p.name, p.schema?.enum?.[0] ?? (p.name === 'q' ? w.tag : 'x'));
    }
    const url = `${t.url}/api/v2${concrete}${query.size ? `?${query.toString()}` : ''}`;
    const answer = await ask(
      url,
      op.security?.length === 0 ? {} : { authorization: `Bearer ${w.admin.key}` },
    );
    asked++;
    problems.push(...mismatches('get', template, answer));
    const expected = NOT_OK[template];
    if ((answer.status >= 300 || expected !== undefined) && answer.status !== expected) {
      problems.push(`GET ${concrete}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`);
    }
  }
  expect(problems).toEqual([]);
  expect(asked).toBeGreaterThan(60);
});

test('the signed URLs the service hands out match a documented path, and answer as documented', async () => {
  // a file stored with its own media type (the world's is application/octet-stream)
  const form = new FormData();
  form.append('file', new Blob(['x,y\n3,4\n'], { type: 'text/csv' }), 'table.csv');
  const added = await fetch(`${t.url}/api/v2/datasets/${w.dataset}/files`, {
    method: 'POST',
    headers: { authorization: `Bearer ${w.user.key}` },
    body: form,
  });
  expect(added.status).toBe(201);
  const csv = ((await added.json()) as { mfid: string }).mfid;

  const link = await w.as('GET', `/files/${csv}/download_link`);
  const fromGraphql = await gql(t.url, w.user.key, `{ file(id: "${csv}") { downloadUrl } }`);
  const links = await w.as('GET', `/datasets/${w.dataset}/download_links`);
  const ofCsv = [
    (link.body as { url: string }).url,
    (fromGraphql.data as { file: { downloadUrl: string } }).file.downloadUrl,
  ];
  for (const handed of [...ofCsv, ...Object.values(links.body as Record<string, string>)]) {
    const url = new URL(handed);
    expect(url.origin).toBe(t.app.config.publicBaseUrl);
    expect(url.pathname.startsWith('/api/v2/')).toBe(true);
    expect(documentedPath(url.pathname.slice('/api/v2'.length))).toEqual(['/signed/objects/{key}']);
    const answer = await ask(`${t.url}${url.pathname}${url.search}`);
    expect(answer.status).toBe(200);
    if (ofCsv.includes(handed)) expect(answer.type).toBe('text/csv');
    expect(mismatches('get', '/signed/objects/{key}', answer)).toEqual([]);
    const range = await ask(`${t.url}${url.pathname}${url.search}`, { range: 'bytes=0-1' });
    expect(range.status).toBe(206);
    expect(mismatches('get', '/signed/objects/{key}', range)).toEqual([]);
  }
  // the download route itself answers the file's own media type, which the document allows
  const direct = await ask(`${t.url}/api/v2/files/${csv}/download`, {
    authorization: `Bearer ${w.user.key}`,
  });
  expect(direct.type).toBe('text/csv');
  expect(mismatches('get', '/files/{id}/download', direct)).toEqual([]);
});

describe('every 401 carries a WWW-Authenticate challenge and the documented body', () => {
  // a route open to anonymous callers too (`security: [{}, …]`) answers without a key, and
  // refuses a bad one like every other
  const anonymousToo = (op: { security?: unknown[] }) =>
    op.security?.some((s) => typeof s === 'object' && s !== null && Object.keys(s).length === 0) ?? false;
  const guarded = (withoutKey: boolean) =>
    Object.entries(doc.paths).flatMap(([template, ops]) =>
      Object.entries(ops)
        .filter(([, op]) => op.security?.length !== 0 && !(withoutKey && anonymousToo(op)))
        .map(([method]) => ({
          method,
          template,
          url: `${t.url}/api/v2${template.replace(/\{[^}]+\}/g, w.dataset)}`,
        })),
    );

  test.each([
    ['no key', {}, 'Bearer realm="catalog"'],
    [
      'an unknown key',
      { authorization: 'Bearer cat_not-a-key-0123456789abcdef' },
      'Bearer realm="catalog", error="invalid_token"',
    ],
    [
      'another scheme',
      { authorization: 'Basic dXNlcjpwYXNz' },
      'Bearer realm="catalog", error="invalid_token"',
    ],
  ])('%s: every route that needs a key', async (_name, headers: Record<string, string>, challenge) => {
    const problems: string[] = [];
    const routes = guarded(!('authorization' in headers));
    expect(routes.length).toBeGreaterThan(100);
    for (const { method, template, url } of routes) {
      const res = await fetch(url, { method: method.toUpperCase(), headers });
      const type = (res.headers.get('content-type') ?? '').split(';')[0];
      const text = await res.text();
      const answer = { status: res.status, type, body: text ? (JSON.parse(text) as unknown) : undefined };
      if (res.status !== 401) problems.push(`${method.toUpperCase()} ${template}: ${res.status}`);
      else if (res.headers.get('www-authenticate') !== challenge)
        problems.push(
          `${method.toUpperCase()} ${template}: WWW-Authenticate ${res.headers.get('www-authenticate')}`,
        );
      problems.push(...mismatches(method, template, answer));
    }
    expect(problems).toEqual([]);
  });

  test('the 401 response of the document declares the header', () => {
    expect(doc.components.responses.Unauthenticated.headers).toHaveProperty('WWW-Authenticate');
  });
});
