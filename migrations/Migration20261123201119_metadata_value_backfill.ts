import { Migration } from '@mikro-orm/migrations';
import { indexedValues } from './metadata-index';

/** Fills the typed side index (`metadata_value`) of the documents stored before it existed. */
export class Migration20261123201119_metadata_value_backfill extends Migration {
  override async up(): Promise<void> {
    let after = '';
    for (;;) {
      const rows = (await this.execute(
        'select resource_id, data from scientific_metadata where resource_id > ? order by resource_id limit 500',
        [after],
      )) as { resource_id: string; data: unknown }[];
      if (rows.length === 0) return;
      for (const row of rows) {
        const values = indexedValues(row.data);
        for (let start = 0; start < values.length; start += 1000) {
          const chunk = values.slice(start, start + 1000);
          await this.execute(
            `insert into metadata_value (resource_id, path, dim, num) values ${chunk.map(() => '(?, ?, ?, ?)').join(', ')}`,
            chunk.flatMap((v) => [row.resource_id, v.path, v.dim, v.num]),
          );
        }
      }
      after = rows[rows.length - 1].resource_id;
    }
  }

  override async down(): Promise<void> {
    this.addSql('delete from metadata_value;');
  }
}
