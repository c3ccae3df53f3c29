import { Migration } from '@mikro-orm/migrations';

export class Migration20261122001521_ingestion extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "job" ("id" serial primary key, "queue" varchar(100) not null, "payload" jsonb not null, "status" text check ("status" in ('queued', 'running', 'failed')) not null default 'queued', "attempts" int not null default 0, "max_attempts" int not null, "run_at" timestamptz not null default now(), "locked_by" varchar(100) null, "locked_until" timestamptz null, "last_error" text null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now());`);
    this.addSql(`create index job_running_idx on job (queue, locked_until) where status = 'running';`);
    this.addSql(`create index job_queued_idx on job (queue, run_at, id) where status = 'queued';`);

    this.addSql(`create table "ingestion_request" ("id" serial primary key, "status" text check ("status" in ('requested', 'started', 'complete', 'failed', 'not supported', 'file not found')) not null default 'requested', "file_mfid" varchar(26) not null, "dataset_mfid" varchar(26) not null, "ingestion_class" varchar(100) null, "ingestor_used" varchar(100) null, "ingestion_githash" varchar(100) null, "requester_id" varchar(32) null, "error_message" text null, "time_created" timestamptz not null default now(), "time_started" timestamptz null, "time_completed" timestamptz null);`);
    this.addSql(`create index "ingestion_request_file_mfid_id_index" on "ingestion_request" ("file_mfid", "id");`);
    this.addSql(`create index "ingestion_request_dataset_mfid_id_index" on "ingestion_request" ("dataset_mfid", "id");`);

    this.addSql(`create table "analysis_request" ("id" serial primary key, "dataset_mfid" varchar(26) not null, "analysis" text check ("analysis" in ('carrier_segmentation', 'insitu_spec_aggregation', 'rga_analysis', 'mosaic_stitch')) not null, "status" text check ("status" in ('requested', 'started', 'complete', 'failed', 'not supported', 'file not found')) not null default 'requested', "requester_id" varchar(32) null, "error_message" text null, "time_created" timestamptz not null default now(), "time_completed" timestamptz null);`);
    this.addSql(`create index "analysis_request_dataset_mfid_id_index" on "analysis_request" ("dataset_mfid", "id");`);

    this.addSql(`alter table "ingestion_request" add constraint "ingestion_request_dataset_mfid_foreign" foreign key ("dataset_mfid") references "dataset" ("unique_id") on update cascade on delete cascade;`);

    this.addSql(`alter table "analysis_request" add constraint "analysis_request_dataset_mfid_foreign" foreign key ("dataset_mfid") references "dataset" ("unique_id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "job" cascade;`);

    this.addSql(`drop table if exists "ingestion_request" cascade;`);

    this.addSql(`drop table if exists "analysis_request" cascade;`);
  }

}
