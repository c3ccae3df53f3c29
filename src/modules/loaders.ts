import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../core/context';
import { entityLoader } from '../core/db/loader';
import { statementBatch } from '../core/db/statement-batch';
import type { AccessService } from './permission/access.service';
import { User } from './user/user.entity';
import { Project } from './project/project.entity';
import { Instrument } from './instrument/instrument.entity';
import { keywordLoaders } from './keyword/keyword.loaders';
import { linkLoaders } from './link/link.loaders';
import { metadataLoader } from './metadata-store/metadata.loaders';
import { deletionLoader } from './deletion/deletion.loaders';
import { rowLoader } from './owned-record/owned-record-row';
import { DATASET_ROWS } from './dataset/dataset-row';
import { SAMPLE_ROWS } from './sample/sample-row';
import { fileLoaders } from './file/file.loaders';
import { thumbnailLoaders } from './thumbnail/thumbnail.loaders';
import { projectMemberLoader } from './project/project.loaders';
import { AssociatedFile } from './file/file.entity';
import { ingestionLoaders } from './ingestion/ingestion.loaders';

/** What the loaders need besides the request: the access rules, for loaders that filter by visibility. */
export interface LoaderDeps {
  access: AccessService;
}

/**
 * The DataLoaders of one request. Built fresh per request: nothing is cached across callers.
 * Loaders that filter by visibility reach the request context through `context`.
 */
export function createLoaders(deps: LoaderDeps, em: EntityManager, context: () => RequestContext) {
  // the loaders of one execution wave (a page's owners, projects, instruments, keywords, first
  // thumbnails, file counts) share one statement (docs/performance.md)
  const batch = statementBatch(em);
  return {
    user: entityLoader(em, User, 'uniqueId', batch),
    project: entityLoader(em, Project, 'uniqueId', batch),
    instrument: entityLoader(em, Instrument, 'uniqueId', batch),
    keywords: keywordLoaders(batch),
    links: linkLoaders(em, context, deps.access),
    metadata: metadataLoader(em),
    pendingDeletion: deletionLoader(em),
    /** rows with the relations their reads left out (owned-record-row.ts) */
    datasetRows: rowLoader(em, DATASET_ROWS),
    sampleRows: rowLoader(em, SAMPLE_ROWS),
    files: fileLoaders(em, batch),
    thumbnails: thumbnailLoaders(em, batch),
    projectMembers: projectMemberLoader(em),
    file: entityLoader(em, AssociatedFile, 'uniqueId'),
    ingestion: ingestionLoaders(em),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
