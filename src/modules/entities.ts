import { TimedRecord } from '../core/db/timed-record.entity';
import { OwnedRecordEntity } from './owned-record/owned-record.entity';
import { ReviewedRequest } from './reviewed-request/reviewed-request.entity';
import { ProvenanceLink } from './link/provenance-link.entity';
import { User } from './user/user.entity';
import { ApiKey } from './user/api-key.entity';
import { Project } from './project/project.entity';
import { ProjectMember } from './project/project-member.entity';
import { Instrument } from './instrument/instrument.entity';
import { Dataset } from './dataset/dataset.entity';
import { DatasetText } from './dataset/dataset-text.entity';
import { DatasetTally } from './dataset/dataset-tally.entity';
import { DatasetTotal } from './dataset/dataset-total.entity';
import { VisibilityTotal } from './permission/visibility-total.entity';
import { SampleTotal } from './sample/sample-total.entity';
import { KeywordTally } from './keyword/keyword-tally.entity';
import { AccessGrant } from './access/access-grant.entity';
import { Keyword } from './keyword/keyword.entity';
import { DatasetKeyword } from './keyword/dataset-keyword.entity';
import { Sample } from './sample/sample.entity';
import { DatasetLink } from './link/dataset-link.entity';
import { SampleLink } from './link/sample-link.entity';
import { DatasetSample } from './link/dataset-sample.entity';
import { ScientificMetadata } from './metadata-store/scientific-metadata.entity';
import { MetadataString } from './metadata-store/metadata-string.entity';
import { MetadataValue } from './metadata-store/metadata-value.entity';
import { MetadataVersion } from './metadata-store/metadata-version.entity';
import { DeletionRequest } from './deletion/deletion-request.entity';
import { DeletionAudit } from './deletion/deletion-audit.entity';
import { AssociatedFile } from './file/file.entity';
import { FileStructure } from './file/file-structure.entity';
import { UploadSession } from './upload/upload-session.entity';
import { Thumbnail } from './thumbnail/thumbnail.entity';
import { ServiceSetting } from './setting/setting.entity';
import { BatchEdit, BatchEditItem } from './batch/batch.entity';
import { AccessGroup, AccessGroupMember } from './access/access-group.entity';
import { JoinRequest } from './join-request/join-request.entity';
import { Job } from '../core/jobs/job.entity';
import { IssuedMfid, MfidCollision } from '../core/db/issued-mfid.entity';
import { IngestionRequest } from './ingestion/ingestion-request.entity';
import { AnalysisRequest } from './analysis/analysis-request.entity';
import { DomainEvent } from './outbox/event.entity';
import { WebhookDelivery, WebhookSubscription } from './webhook/webhook.entity';
import { UserSession } from './session/session.entity';
import { UserIdentity } from './session/identity.entity';
import { Publication } from './publication/publication.entity';
import { PublicationSet } from './publication/publication-set.entity';

/**
 * Every MikroORM entity, listed explicitly (no globbing: the same list in jest and in dist), the
 * abstract bases first.
 */
export const ENTITIES = [
  TimedRecord,
  OwnedRecordEntity,
  ReviewedRequest,
  ProvenanceLink,
  VisibilityTotal,
  User,
  ApiKey,
  Project,
  ProjectMember,
  Instrument,
  Dataset,
  DatasetText,
  DatasetTally,
  DatasetTotal,
  SampleTotal,
  AccessGrant,
  Keyword,
  DatasetKeyword,
  KeywordTally,
  Sample,
  DatasetLink,
  SampleLink,
  DatasetSample,
  ScientificMetadata,
  MetadataValue,
  MetadataVersion,
  MetadataString,
  DeletionRequest,
  DeletionAudit,
  AssociatedFile,
  FileStructure,
  UploadSession,
  Thumbnail,
  ServiceSetting,
  BatchEdit,
  BatchEditItem,
  AccessGroup,
  AccessGroupMember,
  JoinRequest,
  Job,
  IssuedMfid,
  MfidCollision,
  IngestionRequest,
  AnalysisRequest,
  DomainEvent,
  WebhookSubscription,
  WebhookDelivery,
  UserSession,
  UserIdentity,
  Publication,
  PublicationSet,
];
