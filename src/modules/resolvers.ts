import type { NonEmptyArray } from 'type-graphql';
import { NodeRegistry, nodeResolver } from '../core/graphql/node';
import { API_KEY_NODE, AccountResolver } from './account/account.resolver';
import { LiveEventsResolver } from './event/live.resolver';
import { USER_NODE, UserResolver } from './user/user.resolver';
import { PROJECT_NODE, ProjectResolver } from './project/project.resolver';
import { INSTRUMENT_NODE, InstrumentResolver } from './instrument/instrument.resolver';
import { DATASET_NODE, DatasetResolver, ProjectDatasetsResolver } from './dataset/dataset.resolver';
import { ProjectSamplesResolver, SAMPLE_NODE, SampleResolver } from './sample/sample.resolver';
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
  DELETION_AUDIT_NODE,
  DELETION_REQUEST_NODE,
  DeletionResolver,
  SampleDeletionResolver,
} from './deletion/deletion.resolver';
import { DatasetFilesResolver, FILE_NODE, FileResolver } from './file/file.resolver';
import { DatasetEmbargoResolver } from './access/embargo.resolver';
import { FilePreviewResolver } from './file/preview.resolver';
import { DatasetThumbnailsResolver, THUMBNAIL_NODE, ThumbnailResolver } from './thumbnail/thumbnail.resolver';
import { AccessGrantResolver, AccessResolver } from './access/access.resolver';
import { InstrumentOperatorResolver } from './access/instrument-operator.resolver';
import { JOIN_REQUEST_NODE, JoinRequestResolver } from './join-request/join-request.resolver';
import { TransferResolver } from './transfer/transfer.resolver';
import { BatchResolver } from './batch/batch.resolver';
import {
  FileIngestionResolver,
  INGESTION_REQUEST_NODE,
  IngestionResolver,
} from './ingestion/ingestion.resolver';
import {
  DatasetHistoryResolver,
  HistoryResolver,
  InstrumentHistoryResolver,
  ProjectHistoryResolver,
  RESOURCE_EVENT_NODE,
  SampleHistoryResolver,
} from './event/history.resolver';
import { WEBHOOK_DELIVERY_NODE, WEBHOOK_NODE, WebhookResolver } from './webhook/webhook.resolver';
import { PUBLICATION_NODE, PublicationResolver } from './publication/publication.resolver';

/**
 * Every object type implementing `Node`, with how its module fetches it by global id
 * (docs/api.md, "Global ids"): `node(id:)` and `nodes(ids:)` know no other.
 */
export const NODE_TYPES = new NodeRegistry().register(
  DATASET_NODE,
  SAMPLE_NODE,
  PROJECT_NODE,
  INSTRUMENT_NODE,
  USER_NODE,
  FILE_NODE,
  THUMBNAIL_NODE,
  INGESTION_REQUEST_NODE,
  DELETION_REQUEST_NODE,
  DELETION_AUDIT_NODE,
  JOIN_REQUEST_NODE,
  WEBHOOK_NODE,
  WEBHOOK_DELIVERY_NODE,
  API_KEY_NODE,
  RESOURCE_EVENT_NODE,
  PUBLICATION_NODE,
);

/** Every GraphQL resolver class. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const RESOLVERS: NonEmptyArray<Function> = [
  AccountResolver,
  HistoryResolver,
  LiveEventsResolver,
  WebhookResolver,
  PublicationResolver,
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
  FilePreviewResolver,
  DatasetFilesResolver,
  ThumbnailResolver,
  DatasetThumbnailsResolver,
  DatasetEmbargoResolver,
  AccessResolver,
  InstrumentOperatorResolver,
  AccessGrantResolver,
  JoinRequestResolver,
  BatchResolver,
  TransferResolver,
  IngestionResolver,
  FileIngestionResolver,
  nodeResolver(NODE_TYPES),
];
