import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../core/config';
import type { Logger } from '../core/logger';
import { AccessService } from './access/access.service';
import { UserService } from './user/user.service';
import { ProjectService } from './project/project.service';
import { ProjectPolicy } from './project/project.policy';
import { InstrumentService } from './instrument/instrument.service';
import { InstrumentPolicy } from './instrument/instrument.policy';
import { DatasetService } from './dataset/dataset.service';
import { DatasetPolicy } from './dataset/dataset.policy';
import { KeywordService } from './keyword/keyword.service';
import { AccountService } from './account/account.service';
import { createObjectStore } from '../core/storage';
import { startDigestThread } from '../core/storage/digest-thread';
import { UrlSigner } from '../core/storage/url-signer';
import { SettingService } from './setting/setting.service';
import { FileService } from './file/file.service';
import { FilePolicy } from './file/file.policy';
import { DownloadService } from './file/download.service';
import { UploadService } from './upload/upload.service';
import { ThumbnailService } from './thumbnail/thumbnail.service';

export interface ServiceDeps {
  config: Config;
  log: Logger;
}

/** Builds the domain services once per process; they are stateless and take the context. */
export function createServices({ config, log }: ServiceDeps) {
  const access = new AccessService();
  const user = new UserService();
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
  const setting = new SettingService();
  const store = createObjectStore(config, log);
  const file = new FileService({ config, store, datasets: dataset, policy: new FilePolicy(dataset.policy) });
  const download = new DownloadService({
    config,
    store,
    signer: new UrlSigner(config.publicBaseUrl),
    files: file,
  });
  const upload = new UploadService({ config, store, files: file });
  const thumbnail = new ThumbnailService(dataset);
  return {
    access,
    user,
    project,
    instrument,
    dataset,
    keyword,
    account,
    setting,
    file,
    download,
    upload,
    thumbnail,
  };
}

export type Services = ReturnType<typeof createServices>;

/**
 * Prepares what the services need before serving: the object store (directories or bucket),
 * the thread that hashes resumable uploads, and the URL signing secret (URL_SIGNING_SECRET, else one generated once and kept in the
 * database, so every replica signs and verifies alike).
 */
export async function initServices(services: Services, em: EntityManager, config: Config): Promise<void> {
  await services.file.store.init();
  startDigestThread();
  const secret =
    config.urlSigningSecret ??
    (await services.setting.getOrCreate(em, 'url_signing_secret', () =>
      randomBytes(32).toString('base64url'),
    ));
  services.download.signer.useSecret(secret);
}
