import { Migration } from '@mikro-orm/migrations';

export class Migration20261121221738_entity_graph extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create extension if not exists pg_trgm;`);

    this.addSql(`create table "deletion_audit" ("id" serial primary key, "request_id" int null, "resource_id" varchar(26) not null, "resource_type" varchar(20) not null, "resource_name" varchar(500) null, "project_id" varchar(100) null, "requester_id" varchar(32) null, "reason" text null, "request_time" timestamptz null, "reviewer_id" varchar(32) not null, "reviewer_notes" text null, "review_time" timestamptz null, "deleted_at" timestamptz not null default now());`);
    this.addSql(`create index "deletion_audit_resource_id_index" on "deletion_audit" ("resource_id");`);

    this.addSql(`create table "deletion_request" ("id" serial primary key, "resource_id" varchar(26) not null, "resource_type" text check ("resource_type" in ('dataset', 'sample')) not null, "resource_name" varchar(500) null, "project_id" varchar(100) null, "requester_id" varchar(32) not null, "reason" text null, "status" text check ("status" in ('pending', 'approved', 'rejected')) not null default 'pending', "request_time" timestamptz not null default now(), "reviewer_id" varchar(32) null, "reviewer_notes" text null, "review_time" timestamptz null);`);
    this.addSql(`create unique index deletion_request_one_pending_idx on deletion_request (resource_id) where status = 'pending';`);
    this.addSql(`create index "deletion_request_status_id_index" on "deletion_request" ("status", "id");`);
    this.addSql(`create index "deletion_request_resource_id_index" on "deletion_request" ("resource_id");`);

    this.addSql(`create table "scientific_metadata" ("resource_id" varchar(26) not null, "resource_type" text check ("resource_type" in ('dataset', 'sample', 'project', 'instrument')) not null, "data" jsonb not null, "search" tsvector generated always as (jsonb_to_tsvector('english', data, '["all"]')) stored not null, "creation_time" timestamptz not null default now(), "modification_time" timestamptz not null default now(), constraint "scientific_metadata_pkey" primary key ("resource_id"));`);
    this.addSql(`create index scientific_metadata_search_idx on scientific_metadata using gin (search);`);
    this.addSql(`create index scientific_metadata_data_idx on scientific_metadata using gin (data jsonb_path_ops);`);

    this.addSql(`create table "sample" ("unique_id" varchar(26) not null, "sample_name" varchar(500) null, "sample_type" varchar(200) null, "description" text null, "timestamp" varchar(64) null, "public" boolean not null default false, "owner_id" varchar(32) not null, "project_mfid" varchar(26) null, "creation_time" timestamptz not null default now(), "modification_time" timestamptz not null default now(), constraint "sample_pkey" primary key ("unique_id"));`);
    this.addSql(`create index "sample_sample_type_index" on "sample" ("sample_type");`);
    this.addSql(`create index sample_name_trgm_idx on sample using gin (sample_name gin_trgm_ops);`);
    this.addSql(`create index "sample_owner_id_unique_id_index" on "sample" ("owner_id", "unique_id");`);
    this.addSql(`create index "sample_project_mfid_unique_id_index" on "sample" ("project_mfid", "unique_id");`);

    this.addSql(`create table "sample_link" ("parent_mfid" varchar(26) not null, "child_mfid" varchar(26) not null, "relationship_type" text check ("relationship_type" in ('is_derived_from', 'is_part_of')) null, "creation_time" timestamptz not null default now(), constraint "sample_link_pkey" primary key ("parent_mfid", "child_mfid"));`);
    this.addSql(`create index "sample_link_child_mfid_index" on "sample_link" ("child_mfid");`);

    this.addSql(`create table "dataset_sample" ("dataset_mfid" varchar(26) not null, "sample_mfid" varchar(26) not null, "creation_time" timestamptz not null default now(), constraint "dataset_sample_pkey" primary key ("dataset_mfid", "sample_mfid"));`);
    this.addSql(`create index "dataset_sample_sample_mfid_index" on "dataset_sample" ("sample_mfid");`);

    this.addSql(`create table "dataset_link" ("parent_mfid" varchar(26) not null, "child_mfid" varchar(26) not null, "relationship_type" text check ("relationship_type" in ('is_derived_from', 'is_part_of')) null, "creation_time" timestamptz not null default now(), constraint "dataset_link_pkey" primary key ("parent_mfid", "child_mfid"));`);
    this.addSql(`create index "dataset_link_child_mfid_index" on "dataset_link" ("child_mfid");`);

    this.addSql(`alter table "sample" add constraint "sample_owner_id_foreign" foreign key ("owner_id") references "app_user" ("unique_id") on update cascade;`);
    this.addSql(`alter table "sample" add constraint "sample_project_mfid_foreign" foreign key ("project_mfid") references "project" ("unique_id") on update cascade on delete set null;`);

    this.addSql(`alter table "sample_link" add constraint "sample_link_parent_mfid_foreign" foreign key ("parent_mfid") references "sample" ("unique_id") on update cascade on delete cascade;`);
    this.addSql(`alter table "sample_link" add constraint "sample_link_child_mfid_foreign" foreign key ("child_mfid") references "sample" ("unique_id") on update cascade on delete cascade;`);

    this.addSql(`alter table "dataset_sample" add constraint "dataset_sample_dataset_mfid_foreign" foreign key ("dataset_mfid") references "dataset" ("unique_id") on update cascade on delete cascade;`);
    this.addSql(`alter table "dataset_sample" add constraint "dataset_sample_sample_mfid_foreign" foreign key ("sample_mfid") references "sample" ("unique_id") on update cascade on delete cascade;`);

    this.addSql(`alter table "dataset_link" add constraint "dataset_link_parent_mfid_foreign" foreign key ("parent_mfid") references "dataset" ("unique_id") on update cascade on delete cascade;`);
    this.addSql(`alter table "dataset_link" add constraint "dataset_link_child_mfid_foreign" foreign key ("child_mfid") references "dataset" ("unique_id") on update cascade on delete cascade;`);

    this.addSql(`create index app_user_search_trgm_idx on app_user using gin ((coalesce(username, '') || ' ' || coalesce(first_name, '') || ' ' || coalesce(last_name, '')) gin_trgm_ops);`);

    this.addSql(`create index project_search_trgm_idx on project using gin ((coalesce(title, '') || ' ' || project_id) gin_trgm_ops);`);

    this.addSql(`create index instrument_search_trgm_idx on instrument using gin ((instrument_name || ' ' || coalesce(instrument_type, '') || ' ' || coalesce(manufacturer, '')) gin_trgm_ops);`);

    this.addSql(`create index dataset_name_trgm_idx on dataset using gin (dataset_name gin_trgm_ops);`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "sample_link" drop constraint "sample_link_parent_mfid_foreign";`);

    this.addSql(`alter table "sample_link" drop constraint "sample_link_child_mfid_foreign";`);

    this.addSql(`alter table "dataset_sample" drop constraint "dataset_sample_sample_mfid_foreign";`);

    this.addSql(`drop table if exists "deletion_audit" cascade;`);

    this.addSql(`drop table if exists "deletion_request" cascade;`);

    this.addSql(`drop table if exists "scientific_metadata" cascade;`);

    this.addSql(`drop table if exists "sample" cascade;`);

    this.addSql(`drop table if exists "sample_link" cascade;`);

    this.addSql(`drop table if exists "dataset_sample" cascade;`);

    this.addSql(`drop table if exists "dataset_link" cascade;`);

    this.addSql(`drop index "app_user_search_trgm_idx";`);

    this.addSql(`drop index "dataset_name_trgm_idx";`);

    this.addSql(`drop index "instrument_search_trgm_idx";`);

    this.addSql(`drop index "project_search_trgm_idx";`);
  }

}
