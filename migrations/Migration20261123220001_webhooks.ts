import { Migration } from '@mikro-orm/migrations';

export class Migration20261123220001_webhooks extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "webhook_delivery" ("id" bigserial primary key, "subscription_id" varchar(26) not null, "event_seq" bigint not null, "event_id" varchar(26) not null, "event_type" varchar(60) not null, "resource_id" varchar(26) not null, "status" text check ("status" in ('pending', 'delivered', 'failed', 'skipped')) not null default 'pending', "attempts" int not null default 0, "next_attempt_at" timestamptz not null default now(), "locked_until" timestamptz null, "last_status_code" int null, "last_error" text null, "delivered_at" timestamptz null, "created_at" timestamptz not null default now());`);
    this.addSql(`create index "webhook_delivery_subscription_id_resource_id_event_seq_index" on "webhook_delivery" ("subscription_id", "resource_id", "event_seq");`);
    this.addSql(`create index webhook_delivery_due_idx on webhook_delivery (next_attempt_at, event_seq) where status = 'pending';`);

    this.addSql(`create table "webhook_subscription" ("unique_id" varchar(26) not null, "owner_id" varchar(32) not null, "url" varchar(2000) not null, "secret" varchar(100) not null, "description" varchar(500) null, "event_types" jsonb not null, "project_mfid" varchar(26) null, "resource_id" varchar(26) null, "search" jsonb null, "active" boolean not null default true, "failure_streak" int not null default 0, "disabled_reason" text null, "creation_time" timestamptz not null default now(), "modification_time" timestamptz not null default now(), constraint "webhook_subscription_pkey" primary key ("unique_id"));`);
    this.addSql(`create index "webhook_subscription_owner_id_index" on "webhook_subscription" ("owner_id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "webhook_delivery" cascade;`);

    this.addSql(`drop table if exists "webhook_subscription" cascade;`);
  }

}
