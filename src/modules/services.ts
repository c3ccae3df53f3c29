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

export interface ServiceDeps {
  config: Config;
  log: Logger;
}

/** Builds the domain services once per process; they are stateless and take the context. */
export function createServices(_deps: ServiceDeps) {
  const access = new AccessService();
  const user = new UserService(new UserPolicy());
  const userAdmin = new UserAdminService(user, user.policy);
  const project = new ProjectService(user, new ProjectPolicy(access));
  const instrument = new InstrumentService(user, new InstrumentPolicy(access));
  const dataset = new DatasetService({
    users: user,
    projects: project,
    instruments: instrument,
    policy: new DatasetPolicy(access),
  });
  const keyword = new KeywordService(dataset);
  const account = new AccountService(project);
  return { access, user, userAdmin, project, instrument, dataset, keyword, account };
}

export type Services = ReturnType<typeof createServices>;
