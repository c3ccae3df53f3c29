import { Migration } from '@mikro-orm/migrations';

/** The tables whose rows carry an MFID (`unique_id`), and the kind of record each row is. */
const ISSUING: [table: string, kind: string][] = [
  ['dataset', 'dataset'],
  ['sample', 'sample'],
  ['project', 'project'],
  ['instrument', 'instrument'],
  ['app_user', 'user'],
  ['associated_file', 'file'],
  ['webhook_subscription', 'webhook'],
  ['api_key', 'api_key'],
  ['upload_session', 'upload_session'],
];

/** Tables that name records by MFID and type and outlive them: what removed records held. */
const REFERRING: [table: string, type: string][] = [
  ['domain_event', 'resource_type'],
  ['scientific_metadata', 'resource_type'],
  ['access_grant', 'resource_type'],
  ['deletion_request', 'resource_type'],
  ['deletion_audit', 'resource_type'],
];

const LIVE = ISSUING.map(([table, kind]) => `select unique_id::text as mfid, '${kind}'::text as kind from ${table}`);
const PAST = REFERRING.map(([table, type]) => `select resource_id::text as mfid, ${type}::text as kind from ${table}`);

/**
 * The MFIDs held for more than one record, with what held them. A claim is a live record, a
 * removed record of a kind no live record with that MFID has, or a removal followed by a new
 * record of the same kind (its history then reads as the new one's).
 */
export const FIND_COLLISIONS = `with live(mfid, kind) as (${LIVE.join(' union all ')}),
  past(mfid, kind) as (${PAST.join(' union ')}),
  recreated(mfid, kind) as (
    select distinct r.resource_id::text, r.resource_type::text from domain_event r
    where r.type = 'resource.removed' and exists (
      select 1 from domain_event c
      where c.resource_id = r.resource_id and c.id > r.id and c.type = r.resource_type || '.created'))
  select mfid, string_agg(what, ', ' order by what) as detail from (
    select mfid, kind as what from live
    union all
    select p.mfid, 'removed ' || p.kind from past p
    where not exists (select 1 from live l where l.mfid = p.mfid and l.kind = p.kind)
    union all
    select mfid, 'removed ' || kind from recreated
  ) claims group by mfid having count(*) > 1`;

/**
 * An MFID names one record, forever (`issued_mfid`, src/core/db/issued-mfid.entity.ts): every
 * MFID held by a record or named by what outlives removed ones is registered, statement triggers
 * register each new one in its creating transaction, and any MFID the database already held for
 * more than one record is written to `mfid_collision` (reported at start, docs/operations.md).
 */
export class Migration20261126090000_issued_mfid extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "issued_mfid" ("mfid" varchar(32) not null, "kind" varchar(20) not null, "issued_at" timestamptz not null default now(), constraint "issued_mfid_pkey" primary key ("mfid"));`,
    );
    this.addSql(
      `create table "mfid_collision" ("mfid" varchar(32) not null, "detail" text not null, "found_at" timestamptz not null default now(), constraint "mfid_collision_pkey" primary key ("mfid"));`,
    );
    this.addSql(`insert into issued_mfid (mfid, kind)
      select distinct on (mfid) mfid, kind from (${LIVE.join(' union all ')}) l order by mfid, kind;`);
    this.addSql(`insert into issued_mfid (mfid, kind)
      select distinct on (mfid) mfid, kind from (${PAST.join(' union ')}) p order by mfid, kind
      on conflict (mfid) do nothing;`);
    this.addSql(`insert into mfid_collision (mfid, detail) ${FIND_COLLISIONS};`);
    this.addSql(`create function issue_mfids() returns trigger language plpgsql as $$
      begin
        insert into issued_mfid (mfid, kind) select unique_id, tg_argv[0] from added;
        return null;
      end
    $$;`);
    for (const [table, kind] of ISSUING) {
      this.addSql(`create trigger ${table}_issue_mfid after insert on "${table}"
        referencing new table as added for each statement execute function issue_mfids('${kind}');`);
    }
  }

  override async down(): Promise<void> {
    for (const [table] of ISSUING) this.addSql(`drop trigger if exists ${table}_issue_mfid on "${table}";`);
    this.addSql('drop function if exists issue_mfids();');
    this.addSql('drop table if exists "mfid_collision";');
    this.addSql('drop table if exists "issued_mfid";');
  }
}
