import { accountRoutes } from './account/account.rest';
import { userRoutes } from './user/user.rest';
import { serviceAccountRoutes } from './user/service-account.rest';
import { projectRoutes } from './project/project.rest';
import { instrumentRoutes } from './instrument/instrument.rest';
import { instrumentOperatorRoutes } from './access/instrument-operator.rest';
import { datasetRoutes } from './dataset/dataset.rest';
import { datasetInstrumentRoutes } from './dataset/dataset-instrument.rest';
import { keywordRoutes } from './keyword/keyword.rest';
import { batchRoutes } from './batch/batch.rest';
import { Router } from 'express';
import { mount, type Route } from '../core/rest/route';
import type { ContextFactory } from '../core/context-factory';
import { authenticateOptionally } from '../core/http/middleware';
import type { Logger } from '../core/logger';
import type { Services } from './services';
import type { RouteSpec } from '../core/rest/route';
import { openapiDocument } from '../core/rest/openapi';
import { DOCS_SPEC, DOCUMENT_SPEC } from '../core/rest/docs';
import { HEALTH_SPECS } from './health/health.rest';
import { packageVersion } from './health/health.service';
import { fileRoutes } from './file/file.rest';
import { previewRoutes } from './file/preview.rest';
import { SIGNED_DOWNLOAD_SPEC, signedDownloadRouter } from './file/file-public';
import { UPLOAD_CHUNK_SPEC, uploadRoutes, uploadSessionRouter } from './upload/upload.rest';
import { thumbnailRoutes } from './thumbnail/thumbnail.rest';
import { searchRoutes } from './search/search.rest';
import { sampleRoutes } from './sample/sample.rest';
import { metadataRoutes } from './metadata/metadata.rest';
import { linkRoutes } from './link/link.rest';
import { deletionRoutes } from './deletion/deletion.rest';
import { resourceRoutes } from './resource/resource.rest';
import { graphRoutes } from './graph/graph.rest';
import { accessGroupRoutes, accessRoutes } from './access/access.rest';
import { projectMemberRoutes } from './project/project-member.rest';
import { joinRequestRoutes } from './join-request/join-request.rest';
import { transferRoutes } from './transfer/transfer.rest';
import { ingestionRoutes } from './ingestion/ingestion.rest';
import { analysisRoutes } from './analysis/analysis.rest';
import { historyRoutes } from './event/event.rest';
import { webhookRoutes } from './webhook/webhook.rest';
import { publicationRoutes } from './publication/publication.rest';
import { datasetExportRoutes } from './publication/dataset-export.rest';
import { embargoRoutes } from './access/embargo.rest';

/**
 * Every authenticated REST route of the legacy shim, in mounting order: within a module,
 * literal segments (`/datasets/search`) come before parameters (`/datasets/:id`).
 */
export const API_ROUTES: readonly Route[] = [
  // literal `/<type>/search` paths first: they would otherwise match `/<type>/:id`
  ...searchRoutes,
  ...accountRoutes,
  ...userRoutes,
  ...serviceAccountRoutes,
  ...projectRoutes,
  ...instrumentRoutes,
  ...instrumentOperatorRoutes,
  ...batchRoutes,
  ...datasetExportRoutes,
  ...datasetRoutes,
  ...datasetInstrumentRoutes,
  ...embargoRoutes,
  ...keywordRoutes,
  ...thumbnailRoutes,
  ...uploadRoutes,
  ...ingestionRoutes,
  ...previewRoutes,
  ...fileRoutes,
  ...analysisRoutes,
  ...sampleRoutes,
  // `/resources/metadata/search` and `/resources/links` before `/resources/:id...`
  ...metadataRoutes,
  ...linkRoutes,
  ...deletionRoutes,
  ...accessRoutes,
  ...transferRoutes,
  ...historyRoutes,
  ...webhookRoutes,
  ...publicationRoutes,
  ...resourceRoutes,
  ...graphRoutes,
  ...accessGroupRoutes,
  ...projectMemberRoutes,
  ...joinRequestRoutes,
];

/** Mounts every authenticated REST route of the legacy shim. */
export function mountRoutes(router: Router): void {
  mount(
    router,
    API_ROUTES.filter((r) => r.spec.auth !== 'optional'),
  );
}

/**
 * The routes anonymous callers may read too (`auth: 'optional'`: published publications and
 * their exports, the exports of public datasets), mounted before the authentication middleware
 * with a caller when one is sent (docs/publications.md, "Landing pages").
 */
export function optionalAuthRoutes(contexts: ContextFactory): Router {
  const router = Router();
  mount(
    router,
    API_ROUTES.filter((r) => r.spec.auth === 'optional'),
    authenticateOptionally(contexts),
  );
  return router;
}

/**
 * Routes under /api/v2 that take no API key, mounted before the authentication middleware:
 * their credential is in the URL (an upload session token, a download signature).
 */
export function publicRoutes(services: Services, contexts: ContextFactory, log: Logger): Router {
  const router = Router();
  router.use(uploadSessionRouter(contexts));
  router.use(signedDownloadRouter(services.download, contexts, log));
  router.use(optionalAuthRoutes(contexts));
  return router;
}

/** Every route under /api/v2 as the OpenAPI document describes it, open routes included. */
export const ROUTE_SPECS: readonly RouteSpec[] = [
  HEALTH_SPECS.live,
  HEALTH_SPECS.ready,
  DOCUMENT_SPEC,
  DOCS_SPEC,
  UPLOAD_CHUNK_SPEC,
  SIGNED_DOWNLOAD_SPEC,
  ...API_ROUTES.map((r) => r.spec),
];

const TAGS: Record<string, string> = {
  health: 'Liveness and readiness (no key)',
  docs: 'This document and its browser (no key)',
  account: 'The caller: identity, key, profile',
  users: 'Users and service accounts',
  projects: 'Projects and their members',
  'join requests': 'Asking to join a project',
  instruments: 'Instruments',
  datasets: 'Datasets, their keywords and thumbnails',
  samples: 'Samples',
  files: 'Files: records, uploads in one request, downloads',
  uploads: 'Resumable uploads of large files',
  ingestion: 'Ingestors and ingestion requests',
  analysis: 'Analysis requests',
  metadata: 'Scientific metadata and its search',
  links: 'Links between datasets and samples',
  graph: 'Graphs of linked records',
  resources: 'Any record by MFID',
  access: 'Grants, visibility, ownership transfer and project reassignment',
  deletion: 'Deletion requests and the audit',
  events: 'The history of a resource (who did what) and its purge',
  webhooks: 'Signed webhook subscriptions and their delivery logs',
  search: 'Fuzzy search by name',
  publications: 'Publications: datasets made citable, frozen manifests, versions, withdrawal',
};

/** The OpenAPI 3.1 document of the REST shim (`GET /api/v2/openapi.json`, committed as openapi.json). */
export function apiDocument(): Record<string, unknown> {
  return openapiDocument(ROUTE_SPECS, {
    title: 'Catalog REST API (legacy shim)',
    version: packageVersion(),
    // package.json's `license` (openapi-contract.test.ts keeps them equal)
    license: 'BSD-3-Clause',
    description:
      'The REST shim under /api/v2 kept for the legacy Python client. Send `Authorization: Bearer <api key>`. ' +
      'Errors answer `{detail, code, fields?}` with the codes listed in the README ("Errors"). ' +
      'New clients: prefer the GraphQL API at /graphql.',
    tags: TAGS,
  });
}
