import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Ajv from 'ajv/dist/2020';
import type { Express } from 'express';
import { startTestApp, type TestApp } from '../support/app';
import { rest } from '../support/http';
import { buildWorld, type World } from '../contract/world';
import { CONTRACT } from '../contract/routes';
import { apiDocument } from '../../src/modules/routes';
import { openapiPath } from '../../src/core/rest/openapi';

/**
 * The OpenAPI document (GET /api/v2/openapi.json) against the running service: it names every
 * mounted route and nothing else, real answers fit its response schemas, and it is a valid
 * OpenAPI 3.1 document.
 */
type Doc = {
  openapi: string;
  info: { version: string };
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>>;
};

let t: TestApp;
let doc: Doc;
beforeAll(async () => {
  t = await startTestApp();
  doc = (await rest<Doc>(t.url, 'GET', '/openapi.json')).body;
}, 120_000);
afterAll(() => t.close());

interface Layer {
  route?: { path: string; methods: Record<string, boolean> };
  handle: { stack?: Layer[] };
  match(path: string): boolean;
}

/** `METHOD /path` of every route Express answers under /api/v2, walking the mounted routers. */
function mountedRoutes(): string[] {
  const app = t.app.server.listeners('request')[0] as Express & { router: { stack: Layer[] } };
  const out = new Set<string>();
  const walk = (stack: Layer[], inApi: boolean) => {
    for (const layer of stack) {
      if (layer.route && inApi) {
        for (const [m, on] of Object.entries(layer.route.methods)) {
          if (on && m !== '_all') out.add(`${m.toUpperCase()} ${openapiPath(layer.route.path)}`);
        }
      } else if (layer.handle.stack) {
        // a router mounted at /api/v2 matches there and not at an unrelated path
        const api = inApi || (layer.match('/api/v2/x') && !layer.match('/not-the-api'));
        walk(layer.handle.stack, api);
      }
    }
  };
  walk(app.router.stack, false);
  return [...out].sort();
}

const documented = () =>
  Object.entries(doc.paths)
    .flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`))
    .sort();

test('the document is served without a key, versioned as the package', async () => {
  expect(doc.openapi).toMatch(/^3\.1\./);
  const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8')) as { version: string };
  expect(doc.info.version).toBe(pkg.version);
  const page = await fetch(`${t.url}/api/v2/docs`);
  expect(page.status).toBe(200);
  const html = await page.text();
  const script = /src="([^"]*swagger-ui-bundle\.js)"/.exec(html)?.[1];
  expect(script).toBeDefined();
  // the UI's assets come from this server (no CDN)
  expect(html).not.toMatch(/https?:\/\//);
  const asset = await fetch(`${t.url}${script}`);
  expect(asset.status).toBe(200);
  expect((await asset.text()).length).toBeGreaterThan(100_000);
});

test('every route mounted under /api/v2 is in the document, and nothing else', () => {
  const mounted = mountedRoutes();
  expect(mounted.length).toBeGreaterThan(100);
  expect(mounted.filter((r) => !documented().includes(r))).toEqual([]);
  expect(documented().filter((r) => !mounted.includes(r))).toEqual([]);
});

test('the committed openapi.json is the document the code serves', () => {
  expect(JSON.parse(fs.readFileSync('openapi.json', 'utf8'))).toEqual(doc);
  expect(apiDocument()).toEqual(doc);
});

test('the document is valid OpenAPI 3.1 (@seriousme/openapi-schema-validator)', () => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'openapi-')), 'openapi.json');
  fs.writeFileSync(file, JSON.stringify(doc));
  const cli = require.resolve('@seriousme/openapi-schema-validator/bin/validate-api-cli.js');
  const result = JSON.parse(execFileSync(process.execPath, [cli, file], { encoding: 'utf8' })) as {
    valid: boolean;
    errors?: unknown;
  };
  expect(result.errors).toBeUndefined();
  expect(result.valid).toBe(true);
});

describe('real answers fit the response schemas of the document', () => {
  let w: World;
  let ajv: Ajv;
  beforeAll(async () => {
    w = await buildWorld(t);
    ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
    ajv.addSchema(doc, 'openapi');
  }, 120_000);

  const normal = (p: string) => p.replace(/\{[^}]+\}/g, '{}');

  test.each(CONTRACT.map((row) => [`${row.ref} ${row.route}`, row] as const))('%s', async (_name, row) => {
    const [method, route] = row.route.split(' ');
    const entry = Object.entries(doc.paths).find(
      ([p, ops]) => normal(p) === normal(route) && ops[method.toLowerCase()],
    );
    if (!entry) throw new Error(`${row.route} is not in the document`);
    const [docPath, ops] = entry;
    const reply = await row.call(w);
    const responses = ops[method.toLowerCase()].responses;
    const status = String(reply.status);
    const key = status in responses ? status : `${status[0]}XX`;
    expect(Object.keys(responses)).toContain(key);
    const response = responses[key];
    const content = response.content ?? {};
    if (!('application/json' in content) && !('$ref' in response)) return;
    const pointer = ['paths', docPath, method.toLowerCase(), 'responses', key]
      .map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1'))
      .join('/');
    const ref =
      '$ref' in response
        ? (response as { $ref: string }).$ref.replace('#', 'openapi#')
        : `openapi#/${pointer}`;
    const validate = ajv.compile({ $ref: `${ref}/content/application~1json/schema` });
    if (!validate(reply.body)) {
      throw new Error(
        `${row.route} ${status}: ${JSON.stringify(validate.errors?.slice(0, 5))} in ${JSON.stringify(reply.body).slice(0, 400)}`,
      );
    }
  });
});
