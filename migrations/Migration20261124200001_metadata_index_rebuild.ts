import { Migration } from '@mikro-orm/migrations';
import { indexedStrings, indexedValues, MAX_INDEXED } from './metadata-index';

/**
 * Rebuilds the side indexes of the documents whose rows changed meaning: those with a key that
 * is empty or holds a dot (no longer indexed: no path names it) and those whose strings filled
 * the string index (they now carry the overflow marker).
 */
export class Migration20261124200001_metadata_index_rebuild extends Migration {
  override async up(): Promise<void> {
    const rows = (await this.execute(
      `select resource_id, data from scientific_metadata
       where jsonb_path_exists(data, 'strict $.** \\? (@.type() == "object").keyvalue() \\? (@.key like_regex "^$|[.]")')
          or resource_id in (select resource_id from metadata_string group by resource_id having count(*) >= ?)`,
      [MAX_INDEXED],
    )) as { resource_id: string; data: unknown }[];
    for (const row of rows) {
      const id = row.resource_id;
      await this.execute('delete from metadata_value where resource_id = ?', [id]);
      await this.execute('delete from metadata_string where resource_id = ?', [id]);
      const values = indexedValues(row.data).map((v) => [id, v.path, v.dim, v.num]);
      const strings = indexedStrings(row.data).map((v) => [id, v.path, v.str]);
      for (const [table, list] of [
        ['metadata_value (resource_id, path, dim, num)', values],
        ['metadata_string (resource_id, path, str)', strings],
      ] as const) {
        for (let start = 0; start < list.length; start += 1000) {
          const chunk = list.slice(start, start + 1000);
          await this.execute(
            `insert into ${table} values ${chunk.map((r) => `(${r.map(() => '?').join(', ')})`).join(', ')}`,
            chunk.flat(),
          );
        }
      }
    }
  }

  override async down(): Promise<void> {
    // the rebuilt rows are a subset of what the earlier writer stored; nothing to undo
  }
}
