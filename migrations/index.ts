import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261121215924_initial as M0 } from './Migration20261121215924_initial';
import { Migration20261121221738_entity_graph as M1 } from './Migration20261121221738_entity_graph';
import { Migration20261121222217_files as M2 } from './Migration20261121222217_files';
import { Migration20261122001217_access_control as M3 } from './Migration20261122001217_access_control';
import { Migration20261122001521_ingestion as M4 } from './Migration20261122001521_ingestion';
import { Migration20261123162353_user_disabled as M5 } from './Migration20261123162353_user_disabled';
import { Migration20261123162517_liveness as M6 } from './Migration20261123162517_liveness';
import { Migration20261123193859_dataset_text as M7 } from './Migration20261123193859_dataset_text';
import { Migration20261123195744_dataset_tally as M8 } from './Migration20261123195744_dataset_tally';
import { Migration20261123201118_metadata_value as M9 } from './Migration20261123201118_metadata_value';
import { Migration20261123201119_metadata_value_backfill as M10 } from './Migration20261123201119_metadata_value_backfill';
import { Migration20261123220000_domain_events as M11 } from './Migration20261123220000_domain_events';
import { Migration20261123220001_webhooks as M12 } from './Migration20261123220001_webhooks';
import { Migration20261123231111_ingestion_progress as M13 } from './Migration20261123231111_ingestion_progress';
import { Migration20261123232336_dataset_keyword_index as M14 } from './Migration20261123232336_dataset_keyword_index';
import { Migration20261124115529_remote_files_index as M15 } from './Migration20261124115529_remote_files_index';
import { Migration20261124120703_text_search_statistics as M16 } from './Migration20261124120703_text_search_statistics';
import { Migration20261124155830_metadata_string as M17 } from './Migration20261124155830_metadata_string';
import { Migration20261124155831_metadata_string_backfill as M18 } from './Migration20261124155831_metadata_string_backfill';
import { Migration20261124175110_keyword_tally as M19 } from './Migration20261124175110_keyword_tally';
import { Migration20261124200000_metadata_value_covering as M20 } from './Migration20261124200000_metadata_value_covering';
import { Migration20261124200001_metadata_index_rebuild as M21 } from './Migration20261124200001_metadata_index_rebuild';
import { Migration20261124201511_dataset_total as M22 } from './Migration20261124201511_dataset_total';
import { Migration20261124211500_dataset_tally_statement_trigger as M23 } from './Migration20261124211500_dataset_tally_statement_trigger';
import { Migration20261124212000_keyword_tally_statement_trigger as M24 } from './Migration20261124212000_keyword_tally_statement_trigger';
import { Migration20261124213000_metadata_value_reach as M25 } from './Migration20261124213000_metadata_value_reach';
import { Migration20261126090000_issued_mfid as M26 } from './Migration20261126090000_issued_mfid';
import { Migration20261126121223_sessions as M27 } from './Migration20261126121223_sessions';
import { Migration20261126123000_metadata_search_statistics as M28 } from './Migration20261126123000_metadata_search_statistics';
import { Migration20261126131302_platform_role as M29 } from './Migration20261126131302_platform_role';
import { Migration20261126151348_session_privilege_mode as M30 } from './Migration20261126151348_session_privilege_mode';
import { Migration20261126151752_ingestion_not_requested as M31 } from './Migration20261126151752_ingestion_not_requested';
import { Migration20261126152832_instrument_status as M32 } from './Migration20261126152832_instrument_status';
import { Migration20261126155935_deletion_project_mfid as M33 } from './Migration20261126155935_deletion_project_mfid';
import { Migration20261126164053_sort_time_indexes as M34 } from './Migration20261126164053_sort_time_indexes';
import { Migration20261126165353_sort_name_indexes as M35 } from './Migration20261126165353_sort_name_indexes';
import { Migration20261126183303_metadata_version as M36 } from './Migration20261126183303_metadata_version';
import { Migration20261126183357_publications as M37 } from './Migration20261126183357_publications';
import { Migration20261126183445_batch_edit as M38 } from './Migration20261126183445_batch_edit';
import { Migration20261126220000_search_forgives as M39 } from './Migration20261126220000_search_forgives';
import { Migration20261126220006_datacite as M40 } from './Migration20261126220006_datacite';
import { Migration20261126221736_embargo as M41 } from './Migration20261126221736_embargo';
import { Migration20261126230000_publication_sets as M42 } from './Migration20261126230000_publication_sets';
import { Migration20261127013000_facet_field_totals as M43 } from './Migration20261127013000_facet_field_totals';
import { Migration20261127020000_metadata_search_by_kind as M44 } from './Migration20261127020000_metadata_search_by_kind';
import { Migration20261127043745_file_structure as M45 } from './Migration20261127043745_file_structure';
import { Migration20261127050000_dataset_total_grouped as M46 } from './Migration20261127050000_dataset_total_grouped';

/** Every migration, in order. `npm run migration:create` rewrites this list. */
export const MIGRATIONS: MigrationObject[] = [
  { name: 'Migration20261121215924_initial', class: M0 },
  { name: 'Migration20261121221738_entity_graph', class: M1 },
  { name: 'Migration20261121222217_files', class: M2 },
  { name: 'Migration20261122001217_access_control', class: M3 },
  { name: 'Migration20261122001521_ingestion', class: M4 },
  { name: 'Migration20261123162353_user_disabled', class: M5 },
  { name: 'Migration20261123162517_liveness', class: M6 },
  { name: 'Migration20261123193859_dataset_text', class: M7 },
  { name: 'Migration20261123195744_dataset_tally', class: M8 },
  { name: 'Migration20261123201118_metadata_value', class: M9 },
  { name: 'Migration20261123201119_metadata_value_backfill', class: M10 },
  { name: 'Migration20261123220000_domain_events', class: M11 },
  { name: 'Migration20261123220001_webhooks', class: M12 },
  { name: 'Migration20261123231111_ingestion_progress', class: M13 },
  { name: 'Migration20261123232336_dataset_keyword_index', class: M14 },
  { name: 'Migration20261124115529_remote_files_index', class: M15 },
  { name: 'Migration20261124120703_text_search_statistics', class: M16 },
  { name: 'Migration20261124155830_metadata_string', class: M17 },
  { name: 'Migration20261124155831_metadata_string_backfill', class: M18 },
  { name: 'Migration20261124175110_keyword_tally', class: M19 },
  { name: 'Migration20261124200000_metadata_value_covering', class: M20 },
  { name: 'Migration20261124200001_metadata_index_rebuild', class: M21 },
  { name: 'Migration20261124201511_dataset_total', class: M22 },
  { name: 'Migration20261124211500_dataset_tally_statement_trigger', class: M23 },
  { name: 'Migration20261124212000_keyword_tally_statement_trigger', class: M24 },
  { name: 'Migration20261124213000_metadata_value_reach', class: M25 },
  { name: 'Migration20261126090000_issued_mfid', class: M26 },
  { name: 'Migration20261126121223_sessions', class: M27 },
  { name: 'Migration20261126123000_metadata_search_statistics', class: M28 },
  { name: 'Migration20261126131302_platform_role', class: M29 },
  { name: 'Migration20261126151348_session_privilege_mode', class: M30 },
  { name: 'Migration20261126151752_ingestion_not_requested', class: M31 },
  { name: 'Migration20261126152832_instrument_status', class: M32 },
  { name: 'Migration20261126155935_deletion_project_mfid', class: M33 },
  { name: 'Migration20261126164053_sort_time_indexes', class: M34 },
  { name: 'Migration20261126165353_sort_name_indexes', class: M35 },
  { name: 'Migration20261126183303_metadata_version', class: M36 },
  { name: 'Migration20261126183357_publications', class: M37 },
  { name: 'Migration20261126183445_batch_edit', class: M38 },
  { name: 'Migration20261126220000_search_forgives', class: M39 },
  { name: 'Migration20261126220006_datacite', class: M40 },
  { name: 'Migration20261126221736_embargo', class: M41 },
  { name: 'Migration20261126230000_publication_sets', class: M42 },
  { name: 'Migration20261127013000_facet_field_totals', class: M43 },
  { name: 'Migration20261127020000_metadata_search_by_kind', class: M44 },
  { name: 'Migration20261127043745_file_structure', class: M45 },
  { name: 'Migration20261127050000_dataset_total_grouped', class: M46 },
];
