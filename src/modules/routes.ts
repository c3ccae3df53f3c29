import type { Router } from 'express';
import { accountRoutes } from './account/account.rest';
import { userRoutes } from './user/user.rest';
import { projectRoutes } from './project/project.rest';
import { instrumentRoutes } from './instrument/instrument.rest';
import { datasetRoutes } from './dataset/dataset.rest';
import { keywordRoutes } from './keyword/keyword.rest';

/**
 * Mounts every authenticated REST route of the legacy shim. Within a module, literal segments
 * (`/datasets/search`) are registered before parameters (`/datasets/:id`).
 */
export function mountRoutes(router: Router): void {
  accountRoutes(router);
  userRoutes(router);
  projectRoutes(router);
  instrumentRoutes(router);
  datasetRoutes(router);
  keywordRoutes(router);
}
