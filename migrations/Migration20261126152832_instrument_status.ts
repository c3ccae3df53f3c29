import { Migration } from '@mikro-orm/migrations';

/**
 * Instrument statuses become the 3.2 client's lifecycle: active, maintenance, decommissioned.
 * A stored free-text status that spells one of them (any case, spaces around) is kept in that
 * spelling; anything else becomes `active` (the instrument stays listed; its owner sets the
 * status again).
 */
export class Migration20261126152832_instrument_status extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `update "instrument" set "status" = case when lower(btrim("status")) in ('active', 'maintenance', 'decommissioned') then lower(btrim("status")) else 'active' end;`,
    );
    this.addSql(`alter table "instrument" alter column "status" type text using ("status"::text);`);
    this.addSql(
      `alter table "instrument" add constraint "instrument_status_check" check("status" in ('active', 'maintenance', 'decommissioned'));`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "instrument" drop constraint if exists "instrument_status_check";`);
    this.addSql(`alter table "instrument" alter column "status" type varchar(50) using ("status"::varchar(50));`);
  }
}
