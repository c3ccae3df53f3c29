import { Migration } from '@mikro-orm/migrations';

export class Migration20261123220000_domain_events extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "domain_event" ("id" bigserial primary key, "event_id" varchar(26) not null, "type" varchar(60) not null, "occurred_at" timestamptz not null default now(), "actor_id" varchar(32) null, "resource_id" varchar(26) not null, "resource_type" varchar(20) not null, "project_mfid" varchar(26) null, "payload" jsonb not null, "dispatched" boolean not null default false);`);
    this.addSql(`alter table "domain_event" add constraint "domain_event_event_id_unique" unique ("event_id");`);
    this.addSql(`create index domain_event_undispatched_idx on domain_event (id) where not dispatched;`);
    this.addSql(`create index "domain_event_resource_id_id_index" on "domain_event" ("resource_id", "id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "domain_event" cascade;`);
  }

}
