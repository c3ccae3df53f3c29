import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261121215924_initial as M0 } from './Migration20261121215924_initial';

/** Every migration, in order. `npm run migration:create` rewrites this list. */
export const MIGRATIONS: MigrationObject[] = [
  { name: 'Migration20261121215924_initial', class: M0 },
];
