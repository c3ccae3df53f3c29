import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261121215924_initial as M0 } from './Migration20261121215924_initial';
import { Migration20261121221738_entity_graph as M1 } from './Migration20261121221738_entity_graph';
import { Migration20261121222217_files as M2 } from './Migration20261121222217_files';
import { Migration20261122001217_access_control as M3 } from './Migration20261122001217_access_control';
import { Migration20261122001521_ingestion as M4 } from './Migration20261122001521_ingestion';
import { Migration20261123162353_user_disabled as M5 } from './Migration20261123162353_user_disabled';
import { Migration20261123162517_liveness as M6 } from './Migration20261123162517_liveness';
import { Migration20261123193833_domain_events as M7 } from './Migration20261123193833_domain_events';
import { Migration20261123201008_webhooks as M8 } from './Migration20261123201008_webhooks';

/** Every migration, in order. `npm run migration:create` rewrites this list. */
export const MIGRATIONS: MigrationObject[] = [
  { name: 'Migration20261121215924_initial', class: M0 },
  { name: 'Migration20261121221738_entity_graph', class: M1 },
  { name: 'Migration20261121222217_files', class: M2 },
  { name: 'Migration20261122001217_access_control', class: M3 },
  { name: 'Migration20261122001521_ingestion', class: M4 },
  { name: 'Migration20261123162353_user_disabled', class: M5 },
  { name: 'Migration20261123162517_liveness', class: M6 },
  { name: 'Migration20261123193833_domain_events', class: M7 },
  { name: 'Migration20261123201008_webhooks', class: M8 },
];
