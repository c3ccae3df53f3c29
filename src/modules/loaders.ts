import type { EntityManager } from '@mikro-orm/postgresql';
import { entityLoader } from '../core/db/loader';
import { User } from './user/user.entity';
import { Project } from './project/project.entity';
import { Instrument } from './instrument/instrument.entity';
import { keywordLoaders } from './keyword/keyword.loaders';
import { Dataset } from './dataset/dataset.entity';
import { fileLoaders } from './file/file.loaders';
import { thumbnailLoaders } from './thumbnail/thumbnail.loaders';

/** The DataLoaders of one request. Built fresh per request: nothing is cached across callers. */
export function createLoaders(em: EntityManager) {
  return {
    user: entityLoader(em, User, 'uniqueId'),
    project: entityLoader(em, Project, 'uniqueId'),
    instrument: entityLoader(em, Instrument, 'uniqueId'),
    keywords: keywordLoaders(em),
    dataset: entityLoader(em, Dataset, 'uniqueId'),
    files: fileLoaders(em),
    thumbnails: thumbnailLoaders(em),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
