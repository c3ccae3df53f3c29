import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../core/config';
import type { Logger } from '../core/logger';
import { AccessService } from './permission/access.service';
import { AccessSelectors } from './project/access-selectors';
import { AccessGroupService } from './access/access-group.service';
import { GrantService } from './access/grant.service';
import { GrantPolicy } from './access/grant.policy';
import { InstrumentOperatorService } from './access/instrument-operator.service';
import { EmbargoGate } from './access/embargo';
import { EmbargoService } from './access/embargo.service';
import { JoinRequestService } from './join-request/join-request.service';
import { JoinRequestPolicy } from './join-request/join-request.policy';
import { TransferService } from './transfer/transfer.service';
import { BatchService } from './batch/batch.service';
import { UserService } from './user/user.service';
import { UserPolicy } from './user/user.policy';
import { UserAdminService } from './user/user-admin.service';
import { ServiceAccountService } from './user/service-account.service';
import { ApiKeyAdminService } from './user/api-key-admin.service';
import { UserRemovalService } from './user/user-removal.service';
import { UserAccessService } from './dataset/dataset-access.service';
import { PROJECT_OWNERSHIP, ProjectService } from './project/project.service';
import { ProjectPolicy } from './project/project.policy';
import { ProjectLookup } from './project/project-lookup';
import { ProjectMemberService } from './project/project-member.service';
import { INSTRUMENT_OWNERSHIP, InstrumentService } from './instrument/instrument.service';
import { InstrumentPolicy } from './instrument/instrument.policy';
import { DATASET_OWNERSHIP, DatasetService } from './dataset/dataset.service';
import { DatasetPolicy } from './dataset/dataset.policy';
import { KeywordService } from './keyword/keyword.service';
import { AccountService } from './account/account.service';
import { SAMPLE_OWNERSHIP, SampleService } from './sample/sample.service';
import { SamplePolicy } from './sample/sample.policy';
import { ResourceService } from './resource/resource.service';
import { MetadataService } from './metadata/metadata.service';
import { MetadataStore } from './metadata-store/metadata-store';
import { LinkService } from './link/link.service';
import { LinkPolicy } from './link/link.policy';
import { DeletionService } from './deletion/deletion.service';
import { DeletionPolicy } from './deletion/deletion.policy';
import { GraphService } from './graph/graph.service';
import { SearchService } from './search/search.service';
import { accessGrantRemoval, userGrantRemoval } from './access/access.removal';
import { keywordRemoval } from './keyword/keyword.removal';
import { metadataRemoval } from './metadata-store/metadata.removal';
import { linkRemoval } from './link/link.removal';
import { datasetRecordRemoval } from './dataset/dataset.removal';
import { sampleRecordRemoval } from './sample/sample.removal';
import { createObjectStore } from '../core/storage';
import { startDigestThread } from '../core/storage/digest-thread';
import { UrlSigner } from '../core/storage/url-signer';
import { SettingService } from './setting/setting.service';
import { FileService } from './file/file.service';
import { FilePolicy } from './file/file.policy';
import { DownloadService } from './file/download.service';
import { UploadService } from './upload/upload.service';
import { ThumbnailService } from './thumbnail/thumbnail.service';
import { fileRemoval } from './file/file.removal';
import { thumbnailRemoval } from './thumbnail/thumbnail.removal';
import { uploadSessionRemoval } from './upload/upload.removal';
import { JobQueue } from '../core/jobs/queue';
import { IngestionService, INGESTION_QUEUE } from './ingestion/ingestion.service';
import { IngestionPolicy } from './ingestion/ingestion.policy';
import { jobRemoval } from './ingestion/ingestion.removal';
import { ingestionOnStore } from './ingestion/ingestion-stored';
import { AnalysisService, ANALYSIS_QUEUES } from './analysis/analysis.service';
import { EventService } from './outbox/event.service';
import { EventPolicy } from './event/event.policy';
import { HistoryService } from './event/history.service';
import { EventFeed } from './event/event-feed';
import { LiveEvents } from './event/live-events';
import { RecordReferences } from './event/record-references';
import { allowedNetworks, ReceiverAddresses } from './webhook/receiver-address';
import { WebhookService } from './webhook/webhook.service';
import { WebhookPolicy } from './webhook/webhook.policy';
import { PublicationService } from './publication/publication.service';
import { PublicationPolicy } from './publication/publication.policy';
import { DataciteClient } from './publication/datacite-client';
import { DataciteRegistrar } from './publication/datacite-registration';
import { OaiService } from './publication/oai.service';
import { SitemapService } from './publication/sitemap.service';
import { SessionService } from './session/session.service';

export interface ServiceDeps {
  config: Config;
  log: Logger;
}

/**
 * Users, projects and their members: the part of the services that needs neither configuration
 * nor storage (the admin command line builds just these).
 */
export function createPeopleServices() {
  const events = new EventService();
  const access = new AccessService();
  const user = new UserService(new UserPolicy());
  const projectPolicy = new ProjectPolicy(access);
  const projectLookup = new ProjectLookup();
  const selectors = new AccessSelectors({ access, users: user, projects: projectLookup, projectPolicy });
  const project = new ProjectService(user, projectPolicy, projectLookup, selectors);
  const projectMember = new ProjectMemberService({
    users: user,
    projects: project,
    lookup: projectLookup,
    policy: projectPolicy,
    events,
  });
  const owners = {
    dataset: DATASET_OWNERSHIP,
    sample: SAMPLE_OWNERSHIP,
    project: PROJECT_OWNERSHIP,
    instrument: INSTRUMENT_OWNERSHIP,
  };
  const apiKeyAdmin = new ApiKeyAdminService(user, user.policy, events);
  const userAdmin = new UserAdminService(user, user.policy, projectMember, events);
  const serviceAccounts = new ServiceAccountService(user, user.policy, apiKeyAdmin);
  const userRemoval = new UserRemovalService(owners, userGrantRemoval);
  return {
    events,
    access,
    user,
    projectPolicy,
    projectLookup,
    selectors,
    project,
    projectMember,
    userAdmin,
    serviceAccounts,
    apiKeyAdmin,
    userRemoval,
  };
}

/** Builds the domain services once per process; they are stateless and take the context. */
export function createServices({ config, log }: ServiceDeps) {
  const {
    events,
    access,
    user,
    projectPolicy,
    selectors,
    project,
    projectMember,
    userAdmin,
    serviceAccounts,
    apiKeyAdmin,
    userRemoval,
  } = createPeopleServices();
  const metadataStore = new MetadataStore();
  const accessGroup = new AccessGroupService({ users: user, projects: project, members: projectMember });
  const joinRequest = new JoinRequestService({
    projects: project,
    members: projectMember,
    policy: new JoinRequestPolicy(projectPolicy),
  });
  const instrument = new InstrumentService(user, new InstrumentPolicy(access));
  const dataset = new DatasetService({
    users: user,
    projects: project,
    instruments: instrument,
    access,
    selectors,
    policy: new DatasetPolicy(access),
    metadata: metadataStore,
    events,
  });
  const userAccess = new UserAccessService({ users: user, datasets: dataset });
  const keyword = new KeywordService(dataset, events);
  const account = new AccountService(projectMember, accessGroup);
  const setting = new SettingService();
  const store = createObjectStore(config, log);
  const file = new FileService({
    config,
    store,
    datasets: dataset,
    policy: new FilePolicy(dataset.policy),
    events,
  });
  const embargoGate = new EmbargoGate(access);
  const embargo = new EmbargoService({ datasets: dataset, gate: embargoGate, events });
  const download = new DownloadService({
    config,
    store,
    signer: new UrlSigner(config.publicBaseUrl),
    files: file,
    embargo: embargoGate,
  });
  const upload = new UploadService({ config, store, files: file });
  const thumbnail = new ThumbnailService(dataset, embargoGate);
  const sample = new SampleService({
    users: user,
    projects: project,
    access,
    selectors,
    policy: new SamplePolicy(access),
    metadata: metadataStore,
    events,
  });
  const resource = new ResourceService({
    datasets: dataset,
    samples: sample,
    projects: project,
    instruments: instrument,
    events,
  });
  const grant = new GrantService({
    resources: resource,
    users: user,
    projects: project,
    groups: accessGroup,
    policy: new GrantPolicy(),
    events,
  });
  const instrumentOperator = new InstrumentOperatorService({
    grants: grant,
    users: user,
    instruments: instrument,
  });
  const transfer = new TransferService({
    resources: resource,
    users: user,
    projects: project,
    grants: grant,
    access,
    events,
  });
  const batch = new BatchService({
    datasets: dataset,
    keywords: keyword,
    metadata: metadataStore,
    grants: grant,
    access,
    events,
    maxTargets: config.limits.batchMaxTargets,
  });
  const metadata = new MetadataService(resource, access, projectPolicy, metadataStore, events);
  const link = new LinkService(resource, dataset, sample, new LinkPolicy(resource), events);
  const graph = new GraphService(access, project);
  const search = new SearchService(access, project);
  const deletion = new DeletionService(resource, new DeletionPolicy(resource), events);
  const references = new RecordReferences(access);
  const history = new HistoryService(new EventPolicy(resource), references);
  const eventFeed = new EventFeed(config.subscriptions.pollIntervalMs);
  const session = new SessionService(config.sessions);
  const liveEvents = new LiveEvents({
    feed: eventFeed,
    resources: resource,
    users: user,
    sessions: session,
    references,
  });
  const webhook = new WebhookService({
    resources: resource,
    projects: project,
    policy: new WebhookPolicy(),
    addresses: new ReceiverAddresses(allowedNetworks(config.webhooks.allowNetworks)),
  });
  const jobs = new JobQueue({
    prefix: config.jobs.queuePrefix,
    maxAttempts: config.jobs.maxAttempts,
    retryBaseMs: config.jobs.retryBaseMs,
  });
  // DOIs through DataCite when configured (docs/publications.md, "DOIs through DataCite")
  const dataciteClient = config.datacite ? new DataciteClient(config.datacite) : null;
  const datacite = new DataciteRegistrar({
    client: dataciteClient,
    queue: jobs,
    baseUrl: config.publicBaseUrl,
    publisher: config.publisherName,
  });
  const publication = new PublicationService({
    baseUrl: config.publicBaseUrl,
    publisher: config.publisherName,
    datasets: dataset,
    files: file,
    policy: new PublicationPolicy(resource),
    events,
    datacite,
  });
  const oai = new OaiService({
    baseUrl: config.publicBaseUrl,
    publisher: config.publisherName,
    adminEmail: config.oai.adminEmail,
    pageSize: config.oai.pageSize,
    settings: setting,
  });
  const sitemap = new SitemapService({ baseUrl: config.publicBaseUrl, fileUrls: config.oai.sitemapFileUrls });
  const ingestion = new IngestionService({
    queue: jobs,
    files: file,
    datasets: dataset,
    policy: new IngestionPolicy(file.policy),
    events,
  });
  const analysis = new AnalysisService({ queue: jobs, datasets: dataset });
  // a new stored file gets its ingestion request: the file module does not depend on ingestion
  file.stored.register(ingestionOnStore(ingestion));
  // dependents first (in this order), then the records themselves; other modules add theirs here
  for (const hook of [
    jobRemoval(jobs, [INGESTION_QUEUE, ...ANALYSIS_QUEUES]),
    fileRemoval(store),
    thumbnailRemoval,
    uploadSessionRemoval(store),
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
    events,
    history,
    references,
    eventFeed,
    liveEvents,
    webhook,
    publication,
    dataciteClient,
    datacite,
    oai,
    sitemap,
    access,
    embargoGate,
    embargo,
    selectors,
    grant,
    instrumentOperator,
    accessGroup,
    joinRequest,
    transfer,
    batch,
    user,
    userAdmin,
    serviceAccounts,
    apiKeyAdmin,
    userRemoval,
    userAccess,
    project,
    projectMember,
    instrument,
    dataset,
    keyword,
    account,
    sample,
    resource,
    metadata,
    metadataStore,
    link,
    graph,
    search,
    deletion,
    setting,
    file,
    download,
    upload,
    thumbnail,
    jobs,
    ingestion,
    analysis,
    session,
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
