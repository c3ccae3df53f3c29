import { Migration } from '@mikro-orm/migrations';
import { indexedValues } from './metadata-index';

/**
 * Rebuilds the numeric side index of the documents holding arrays within arrays: it used to
 * unwrap every level of them, so a number condition matched values the document's jsonpath does
 * not reach (a number three arrays deep, an object inside an array inside an array).
 */
export class Migration20261124213000_metadata_value_reach extends Migration {
  override async up(): Promise<void> {
    let after = '';
    for (;;) {
      const rows = (await this.execute(
        `select resource_id, data from scientific_metadata where resource_id > ?
           and jsonb_path_exists(data, 'strict $.**[*] \\? (@.type() == "array")', '{}', true)
         order by resource_id limit 500`,
        [after],
      )) as { resource_id: string; data: unknown }[];
      if (rows.length === 0) return;
      for (const row of rows) {
        const id = row.resource_id;
        await this.execute('delete from metadata_value where resource_id = ?', [id]);
        const values = indexedValues(row.data).map((v) => [id, v.path, v.dim, v.num]);
        for (let start = 0; start < values.length; start += 1000) {
          const chunk = values.slice(start, start + 1000);
          await this.execute(
            `insert into metadata_value (resource_id, path, dim, num) values ${chunk.map(() => '(?, ?, ?, ?)').join(', ')}`,
            chunk.flat(),
          );
        }
      }
      after = rows[rows.length - 1].resource_id;
    }
  }

  override async down(): Promise<void> {
    // the rebuilt rows are what the index holds from now on; nothing to undo
  }
}
