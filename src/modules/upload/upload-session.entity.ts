import {
  BigIntType,
  BlobType,
  Entity,
  Enum,
  Index,
  ManyToOne,
  OptionalProps,
  PrimaryKey,
  Property,
  type Rel,
} from '@mikro-orm/core';
import type { PartRef } from '../../core/storage/object-store';
import { Dataset } from '../dataset/dataset.entity';

export const UPLOAD_STATUSES = ['open', 'stored', 'completed'] as const;
/** open: receiving chunks; stored: every byte is in the store; completed: the file record exists */
export type UploadStatus = (typeof UPLOAD_STATUSES)[number];

/**
 * A resumable upload (the legacy session protocol). All of its state lives here, so any API
 * replica can take any chunk: bytes received, the store's multipart write and its parts, the
 * running SHA-256 and CRC32C, and (for S3) bytes held back until they fill a minimum-size part.
 * The session URI's token is the credential for chunk PUTs; only its SHA-256 is kept.
 */
@Entity({ tableName: 'upload_session' })
@Index({ properties: ['expiresAt'] })
export class UploadSession {
  [OptionalProps]?:
    | 'received'
    | 'parts'
    | 'status'
    | 'creationTime'
    | 'pending'
    | 'sha256State'
    | 'crc32cState'
    | 'multipartId'
    | 'sha256'
    | 'crc32c'
    | 'leaseUntil'
    | 'leaseHolder';

  /** the upload_id clients echo to /upload/complete */
  @PrimaryKey({ length: 26 })
  uniqueId!: string;

  @Property({ length: 64, unique: true })
  tokenHash!: string;

  @ManyToOne(() => Dataset, { fieldName: 'dataset_mfid', deleteRule: 'cascade', index: true })
  dataset!: Rel<Dataset>;

  /** who started it: only they may complete it */
  @Property({ length: 32 })
  userId!: string;

  @Property({ length: 255 })
  filename!: string;

  @Property({ length: 255 })
  contentType!: string;

  @Property({ length: 100, nullable: true })
  ingestor?: string | null;

  @Property({ type: new BigIntType('number') })
  size!: number;

  /** the SHA-256 announced at initiation, if any */
  @Property({ length: 64, nullable: true })
  expectedSha256?: string | null;

  /** the MFID the file record will get, and the object key its bytes go to */
  @Property({ length: 26 })
  fileMfid!: string;

  @Property({ length: 300 })
  storageKey!: string;

  @Property({ type: new BigIntType('number'), default: 0 })
  received: number = 0;

  @Property({ length: 1024, nullable: true })
  multipartId?: string | null;

  @Property({ type: 'json', default: '[]' })
  parts: PartRef[] = [];

  /** received bytes not yet written as a part (smaller than the store's minimum part size) */
  @Property({ type: BlobType, nullable: true })
  pending?: Buffer | null;

  /**
   * the running digests' saved state; both null while a process keeps a native SHA-256 of the
   * received bytes instead (filesystem store: see ChunkReceiver.digest)
   */
  @Property({ type: BlobType, nullable: true, fieldName: 'sha256_state' })
  sha256State?: Buffer | null;

  @Property({ type: BlobType, nullable: true })
  crc32cState?: Buffer | null;

  /** final values, once every byte is stored */
  @Property({ length: 64, nullable: true })
  sha256?: string | null;

  @Property({ length: 12, nullable: true })
  crc32c?: string | null;

  @Enum({ items: () => UPLOAD_STATUSES, default: 'open' })
  status: UploadStatus = 'open';

  /** a request holds the session until then (one writer at a time) */
  @Property({ type: 'timestamptz', nullable: true })
  leaseUntil?: Date | null;

  /** the process of that request (core/db/liveness.ts): when it is gone, the lease is free */
  @Property({ type: 'integer', nullable: true })
  leaseHolder?: number | null;

  @Property({ type: 'timestamptz' })
  expiresAt!: Date;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  creationTime: Date = new Date();
}
