import type { Config } from '../core/config';
import type { Logger } from '../core/logger';
import { AccessService } from './access/access.service';
import { UserService } from './user/user.service';
import { UserPolicy } from './user/user.policy';
import { UserAdminService } from './user/user-admin.service';
import { ProjectService } from './project/project.service';
import { ProjectPolicy } from './project/project.policy';
import { InstrumentService } from './instrument/instrument.service';
import { InstrumentPolicy } from './instrument/instrument.policy';
import { DatasetService } from './dataset/dataset.service';
import { DatasetPolicy } from './dataset/dataset.policy';
import { KeywordService } from './keyword/keyword.service';
import { AccountService } from './account/account.service';
import { SampleService } from './sample/sample.service';
import { SamplePolicy } from './sample/sample.policy';
import { ResourceService } from './resource/resource.service';
import { MetadataService } from './metadata/metadata.service';
import { LinkService } from './link/link.service';
import { DeletionService } from './deletion/deletion.service';
import { GraphService } from './graph/graph.service';
import { SearchService } from './search/search.service';
import { accessGrantRemoval } from './access/access.removal';
import { keywordRemoval } from './keyword/keyword.removal';
import { metadataRemoval } from './metadata/metadata.removal';
import { linkRemoval } from './link/link.removal';
import { datasetRecordRemoval } from './dataset/dataset.removal';
import { sampleRecordRemoval } from './sample/sample.removal';

export interface ServiceDeps {
  config: Config;
  log: Logger;
}

/** Builds the domain services once per process; they are stateless and take the context. */
export function createServices(_deps: ServiceDeps) {
  const access = new AccessService();
  const user = new UserService(new UserPolicy());
  const userAdmin = new UserAdminService(user, user.policy);
  const projectPolicy = new ProjectPolicy(access);
  const project = new ProjectService(user, projectPolicy);
  const instrument = new InstrumentService(user, new InstrumentPolicy(access));
  const dataset = new DatasetService({
    users: user,
    projects: project,
    instruments: instrument,
    access,
    policy: new DatasetPolicy(access),
  });
  const keyword = new KeywordService(dataset);
  const account = new AccountService(project);
  const sample = new SampleService({
    users: user,
    projects: project,
    access,
    policy: new SamplePolicy(access),
  });
  const resource = new ResourceService({
    datasets: dataset,
    samples: sample,
    projects: project,
    instruments: instrument,
  });
  const metadata = new MetadataService(resource, access, projectPolicy);
  const link = new LinkService(resource, dataset, sample);
  const graph = new GraphService(access, project);
  const search = new SearchService(access, project);
  const deletion = new DeletionService(resource);
  // dependents first (in this order), then the records themselves; other modules add theirs here
  for (const hook of [
    accessGrantRemoval,
    keywordRemoval,
    metadataRemoval,
    linkRemoval,
    datasetRecordRemoval,
    sampleRecordRemoval,
  ]) {
    deletion.removal.register(hook);
  }
  return {
    access,
    user,
    userAdmin,
    project,
    instrument,
    dataset,
    keyword,
    account,
    sample,
    resource,
    metadata,
    link,
    graph,
    search,
    deletion,
  };
}

export type Services = ReturnType<typeof createServices>;
