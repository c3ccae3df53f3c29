import { Migration } from '@mikro-orm/migrations';

/**
 * A larger statistics sample for the full-text vectors: with the default (100), a term outside
 * the most common elements is estimated at about 2 000 matches in a million datasets, so a rare
 * term's page walked the whole dataset_text primary key newest first looking for them (240 ms at
 * 1 000 000 datasets for a term in ten). With 1 000, rare terms are estimated low and found
 * through the GIN index (0.4 ms); common terms still walk newest first (docs/scale.md).
 */
export class Migration20261124120703_text_search_statistics extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "dataset_text" alter column "search" set statistics 1000;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "dataset_text" alter column "search" set statistics -1;`);
  }

}
