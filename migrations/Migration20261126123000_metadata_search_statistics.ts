import { Migration } from '@mikro-orm/migrations';

/**
 * A larger statistics sample for the metadata's full-text vectors, as for `dataset_text`: the
 * metadata search pages newest first and starts from the GIN index only for terms the planner
 * knows to be rare; with the default sample (100) a term outside the most common elements is
 * estimated at hundreds of matches in a million documents (docs/scale.md, "The metadata search").
 */
export class Migration20261126123000_metadata_search_statistics extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "scientific_metadata" alter column "search" set statistics 1000;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "scientific_metadata" alter column "search" set statistics -1;`);
  }

}
