import type { EntityManager } from '@mikro-orm/postgresql';
import { rawQuery } from '../../core/db/raw';

/** Service-wide settings kept in the database, so every replica sees the same value. */
export class SettingService {
  /**
   * The value of `key`, created from `make()` on first use. Replicas starting together agree:
   * the first insert wins and everyone reads it back.
   */
  async getOrCreate(em: EntityManager, key: string, make: () => string): Promise<string> {
    await rawQuery(
      em,
      'insert into service_setting (key, value) values (?, ?) on conflict (key) do nothing',
      [key, make()],
    );
    const rows = await rawQuery<{ value: string }>(em, 'select value from service_setting where key = ?', [
      key,
    ]);
    return rows[0].value;
  }
}
