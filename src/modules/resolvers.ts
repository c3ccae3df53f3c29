import type { NonEmptyArray } from 'type-graphql';
import { AccountResolver } from './account/account.resolver';
import { UserResolver } from './user/user.resolver';
import { ProjectResolver } from './project/project.resolver';
import { InstrumentResolver } from './instrument/instrument.resolver';
import { DatasetResolver, ProjectDatasetsResolver } from './dataset/dataset.resolver';
import { DatasetFilesResolver, FileResolver } from './file/file.resolver';
import { DatasetThumbnailsResolver, ThumbnailResolver } from './thumbnail/thumbnail.resolver';

/** Every GraphQL resolver class. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const RESOLVERS: NonEmptyArray<Function> = [
  AccountResolver,
  UserResolver,
  ProjectResolver,
  InstrumentResolver,
  DatasetResolver,
  ProjectDatasetsResolver,
  FileResolver,
  DatasetFilesResolver,
  ThumbnailResolver,
  DatasetThumbnailsResolver,
];
