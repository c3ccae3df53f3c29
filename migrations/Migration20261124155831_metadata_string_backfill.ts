import { Migration } from '@mikro-orm/migrations';
import { indexedStrings } from './metadata-index';

/** Fills the string side index (`metadata_string`) of the documents stored before it existed. */
export class Migration20261124155831_metadata_string_backfill extends Migration {
  override async up(): Promise<void> {
    let after = '';
    for (;;) {
      const rows = (await this.execute(
        'select resource_id, data from scientific_metadata where resource_id > ? order by resource_id limit 500',
        [after],
      )) as { resource_id: string; data: unknown }[];
      if (rows.length === 0) return;
      for (const row of rows) {
        const strings = indexedStrings(row.data);
        for (let start = 0; start < strings.length; start += 1000) {
          const chunk = strings.slice(start, start + 1000);
          await this.execute(
            `insert into metadata_string (resource_id, path, str) values ${chunk.map(() => '(?, ?, ?)').join(', ')}`,
            chunk.flatMap((v) => [row.resource_id, v.path, v.str]),
          );
        }
      }
      after = rows[rows.length - 1].resource_id;
    }
  }

  override async down(): Promise<void> {
    this.addSql('delete from metadata_string;');
  }
}
