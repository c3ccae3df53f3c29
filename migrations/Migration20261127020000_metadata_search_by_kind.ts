import { Migration } from '@mikro-orm/migrations';

/**
 * A full-text index of the metadata of each kind of resource but datasets (whose metadata the
 * whole-table index serves): the metadata search has one branch per kind, and a term common in
 * datasets' metadata but absent from samples' left the sample branch nothing better than probing
 * the metadata of every readable sample (0.5–0.7 s at a million datasets and 100,000 samples);
 * with the sample-only index the branch finds its matches, or none, in under a millisecond
 * (docs/scale.md, "The metadata search").
 */
export class Migration20261127020000_metadata_search_by_kind extends Migration {
  override async up(): Promise<void> {
    for (const kind of ['sample', 'project', 'instrument']) {
      this.addSql(
        `create index "scientific_metadata_search_${kind}_idx" on "scientific_metadata" using gin ("search") where "resource_type" = '${kind}';`,
      );
    }
  }

  override async down(): Promise<void> {
    for (const kind of ['sample', 'project', 'instrument']) {
      this.addSql(`drop index if exists "scientific_metadata_search_${kind}_idx";`);
    }
  }
}
