import { accountRoutes } from './account/account.rest';
import { userRoutes } from './user/user.rest';
import { projectRoutes } from './project/project.rest';
import { instrumentRoutes } from './instrument/instrument.rest';
import { datasetRoutes } from './dataset/dataset.rest';
import { keywordRoutes } from './keyword/keyword.rest';
import { Router } from 'express';
import type { ContextFactory } from '../core/context-factory';
import type { Logger } from '../core/logger';
import type { Services } from './services';
import { fileRoutes } from './file/file.rest';
import { signedDownloadRouter } from './file/file.public';
import { uploadRoutes, uploadSessionRouter } from './upload/upload.rest';
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

/**
 * Mounts every authenticated REST route of the legacy shim. Within a module, literal segments
 * (`/datasets/search`) are registered before parameters (`/datasets/:id`).
 */
export function mountRoutes(router: Router): void {
  // literal `/<type>/search` paths first: they would otherwise match `/<type>/:id`
  searchRoutes(router);
  accountRoutes(router);
  userRoutes(router);
  projectRoutes(router);
  instrumentRoutes(router);
  datasetRoutes(router);
  keywordRoutes(router);
  thumbnailRoutes(router);
  uploadRoutes(router);
  ingestionRoutes(router);
  fileRoutes(router);
  analysisRoutes(router);
  sampleRoutes(router);
  // `/resources/metadata/search` and `/resources/links` before `/resources/:id...`
  metadataRoutes(router);
  linkRoutes(router);
  deletionRoutes(router);
  accessRoutes(router);
  transferRoutes(router);
  historyRoutes(router);
  webhookRoutes(router);
  resourceRoutes(router);
  graphRoutes(router);
  accessGroupRoutes(router);
  projectMemberRoutes(router);
  joinRequestRoutes(router);
}

/**
 * Routes under /api/v2 that take no API key, mounted before the authentication middleware:
 * their credential is in the URL (an upload session token, a download signature).
 */
export function publicRoutes(services: Services, contexts: ContextFactory, log: Logger): Router {
  const router = Router();
  router.use(uploadSessionRouter(contexts));
  router.use(signedDownloadRouter(services.download, log));
  return router;
}
