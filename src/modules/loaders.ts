import type { EntityManager } from '@mikro-orm/postgresql';
import { entityLoader } from '../core/db/loader';
import { User } from './user/user.entity';
import { Project } from './project/project.entity';
import { Instrument } from './instrument/instrument.entity';
import { keywordLoaders } from './keyword/keyword.loaders';

/** The DataLoaders of one request. Built fresh per request: nothing is cached across callers. */
export function createLoaders(em: EntityManager) {
  return {
    user: entityLoader(em, User, 'uniqueId'),
    project: entityLoader(em, Project, 'uniqueId'),
    instrument: entityLoader(em, Instrument, 'uniqueId'),
    keywords: keywordLoaders(em),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
