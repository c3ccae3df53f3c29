import { Migration } from '@mikro-orm/migrations';
import { indexedValues, STRING, TRUNCATED } from '../src/modules/metadata/metadata-quantities';

/**
 * Adds the strings (and the marker of documents with more strings than are indexed) of the
 * documents stored before `metadata_value` held strings; their numbers and quantities are there.
 */
export class Migration20261124173115_metadata_value_strings_backfill extends Migration {
  override async up(): Promise<void> {
    let after = '';
    for (;;) {
      const rows = (await this.execute(
        'select resource_id, data from scientific_metadata where resource_id > ? order by resource_id limit 500',
        [after],
      )) as { resource_id: string; data: unknown }[];
      if (rows.length === 0) return;
      const values = rows.flatMap((row) =>
        indexedValues(row.data)
          .filter((v) => v.dim === STRING || v.dim === TRUNCATED)
          .map((v) => [row.resource_id, v.path, v.dim, v.num, v.str ?? null]),
      );
      for (let start = 0; start < values.length; start += 1000) {
        const chunk = values.slice(start, start + 1000);
        await this.execute(
          `insert into metadata_value (resource_id, path, dim, num, str) values ${chunk.map(() => '(?, ?, ?, ?, ?)').join(', ')}`,
          chunk.flat(),
        );
      }
      after = rows[rows.length - 1].resource_id;
    }
  }

  override async down(): Promise<void> {
    this.addSql(`delete from metadata_value where dim in ('string', 'truncated');`);
  }
}
