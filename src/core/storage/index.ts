import path from 'node:path';
import type { Config } from '../config';
import type { Logger } from '../logger';
import { FileSystemObjectStore } from './fs-store';
import type { ObjectStore } from './object-store';
import { S3ObjectStore } from './s3-store';

/** The object store the configuration names: S3 when S3_BUCKET is set, else `DATA_DIR/objects`. */
export function createObjectStore(config: Config, log?: Logger): ObjectStore {
  if (config.s3) return new S3ObjectStore(config.s3, log);
  return new FileSystemObjectStore(path.join(config.dataDir, 'objects'), config.ingestion.localStoreName);
}

export type { ObjectStore } from './object-store';
