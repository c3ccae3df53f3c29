import type { NonEmptyArray } from 'type-graphql';
import { AccountResolver } from './account/account.resolver';
import { LiveEventsResolver } from './event/live.resolver';
import { UserResolver } from './user/user.resolver';
import { ProjectResolver } from './project/project.resolver';
import { InstrumentResolver } from './instrument/instrument.resolver';
import { DatasetResolver, ProjectDatasetsResolver } from './dataset/dataset.resolver';
import { ProjectSamplesResolver, SampleResolver } from './sample/sample.resolver';
import {
  DatasetMetadataField,
  InstrumentMetadataField,
  MetadataResolver,
  ProjectMetadataField,
  SampleMetadataField,
} from './metadata/metadata.resolver';
import { DatasetLinksResolver, LinkResolver, SampleLinksResolver } from './link/link.resolver';
import { GraphResolver } from './graph/graph.resolver';
import { SearchResolver } from './search/search.resolver';
import { ResourceResolver } from './resource/resource.resolver';
import {
  DatasetDeletionResolver,
  DeletionResolver,
  SampleDeletionResolver,
} from './deletion/deletion.resolver';
import { DatasetFilesResolver, FileResolver } from './file/file.resolver';
import { DatasetThumbnailsResolver, ThumbnailResolver } from './thumbnail/thumbnail.resolver';
import { AccessResolver } from './access/access.resolver';
import { JoinRequestResolver } from './join-request/join-request.resolver';
import { TransferResolver } from './transfer/transfer.resolver';
import { FileIngestionResolver, IngestionResolver } from './ingestion/ingestion.resolver';
import {
  DatasetHistoryResolver,
  HistoryResolver,
  InstrumentHistoryResolver,
  ProjectHistoryResolver,
  SampleHistoryResolver,
} from './event/history.resolver';
import { WebhookResolver } from './webhook/webhook.resolver';

/** Every GraphQL resolver class. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const RESOLVERS: NonEmptyArray<Function> = [
  AccountResolver,
  HistoryResolver,
  LiveEventsResolver,
  WebhookResolver,
  DatasetHistoryResolver,
  SampleHistoryResolver,
  ProjectHistoryResolver,
  InstrumentHistoryResolver,
  UserResolver,
  ProjectResolver,
  InstrumentResolver,
  DatasetResolver,
  ProjectDatasetsResolver,
  SampleResolver,
  ProjectSamplesResolver,
  MetadataResolver,
  DatasetMetadataField,
  SampleMetadataField,
  ProjectMetadataField,
  InstrumentMetadataField,
  LinkResolver,
  DatasetLinksResolver,
  SampleLinksResolver,
  GraphResolver,
  SearchResolver,
  ResourceResolver,
  DeletionResolver,
  DatasetDeletionResolver,
  SampleDeletionResolver,
  FileResolver,
  DatasetFilesResolver,
  ThumbnailResolver,
  DatasetThumbnailsResolver,
  AccessResolver,
  JoinRequestResolver,
  TransferResolver,
  IngestionResolver,
  FileIngestionResolver,
];
