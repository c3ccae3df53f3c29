import path from 'node:path';
import express, { Router } from 'express';
import { mount, openRoute, type RouteSpec } from './route';
import { Type } from './schema';
import { API_BASE } from './openapi';

/**
 * The OpenAPI document and an offline Swagger UI to browse it (assets from the installed
 * swagger-ui-dist, no CDN). Both open to everyone: the document says nothing about the data.
 */
const ASSETS_DIR = path.dirname(require.resolve('swagger-ui-dist/package.json'));

export const DOCUMENT_SPEC = {
  method: 'get',
  path: '/openapi.json',
  summary: 'This OpenAPI 3.1 document',
  tag: 'docs',
  auth: false,
  response: Type.Object({ openapi: Type.String() }, { additionalProperties: true }),
} as const satisfies RouteSpec;

export const DOCS_SPEC = {
  method: 'get',
  path: '/docs',
  summary: 'Swagger UI over this document (served offline)',
  tag: 'docs',
  auth: false,
  responseType: 'text/html',
} as const satisfies RouteSpec;

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Catalog REST API</title>
<link rel="stylesheet" href="${API_BASE}/docs/assets/swagger-ui.css">
<style>body{margin:0} #hint{padding:6px 12px;font:14px system-ui,sans-serif;background:#f3f5f8;border-bottom:1px solid #d8dde6}</style>
</head>
<body>
<div id="hint">The document loads without a key. To try calls, press <b>Authorize</b> and paste your API key
(no <code>Bearer</code> prefix). Raw document: <a href="${API_BASE}/openapi.json">${API_BASE}/openapi.json</a>.</div>
<div id="ui"></div>
<script src="${API_BASE}/docs/assets/swagger-ui-bundle.js"></script>
<script>
  window.ui = SwaggerUIBundle({ url: '${API_BASE}/openapi.json', dom_id: '#ui', deepLinking: true });
</script>
</body>
</html>`;

export function docsRouter(document: object): Router {
  const router = Router();
  const body = JSON.stringify(document);
  mount(router, [
    openRoute(DOCUMENT_SPEC, (_input, _req, res) => {
      res.type('application/json').send(body);
      return Promise.resolve();
    }),
    openRoute(DOCS_SPEC, (_input, _req, res) => {
      res.type('html').send(PAGE);
      return Promise.resolve();
    }),
  ]);
  router.use('/docs/assets', express.static(ASSETS_DIR, { index: false }));
  return router;
}
