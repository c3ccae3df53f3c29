import { Migration } from '@mikro-orm/migrations';

export class Migration20261122001217_access_control extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "access_group" ("id" serial primary key, "name" varchar(100) not null, "creation_time" timestamptz not null default now());`);
    this.addSql(`alter table "access_group" add constraint "access_group_name_unique" unique ("name");`);

    this.addSql(`create table "join_request" ("id" serial primary key, "project_mfid" varchar(26) not null, "requester_id" varchar(32) not null, "reason" text null, "status" text check ("status" in ('pending', 'approved', 'rejected')) not null default 'pending', "request_time" timestamptz not null default now(), "reviewer_id" varchar(32) null, "reviewer_notes" text null, "review_time" timestamptz null);`);
    this.addSql(`create unique index join_request_one_pending_idx on join_request (project_mfid, requester_id) where status = 'pending';`);
    this.addSql(`create index "join_request_requester_id_id_index" on "join_request" ("requester_id", "id");`);
    this.addSql(`create index "join_request_project_mfid_id_index" on "join_request" ("project_mfid", "id");`);

    this.addSql(`create table "access_group_member" ("id" serial primary key, "group_id" int not null, "user_id" varchar(32) not null, "creation_time" timestamptz not null default now());`);
    this.addSql(`create index "access_group_member_user_id_index" on "access_group_member" ("user_id");`);
    this.addSql(`alter table "access_group_member" add constraint "access_group_member_group_id_user_id_unique" unique ("group_id", "user_id");`);

    this.addSql(`alter table "join_request" add constraint "join_request_project_mfid_foreign" foreign key ("project_mfid") references "project" ("unique_id") on update cascade on delete cascade;`);
    this.addSql(`alter table "join_request" add constraint "join_request_requester_id_foreign" foreign key ("requester_id") references "app_user" ("unique_id") on update cascade on delete cascade;`);

    this.addSql(`alter table "access_group_member" add constraint "access_group_member_group_id_foreign" foreign key ("group_id") references "access_group" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "access_group_member" add constraint "access_group_member_user_id_foreign" foreign key ("user_id") references "app_user" ("unique_id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "access_group_member" drop constraint "access_group_member_group_id_foreign";`);

    this.addSql(`drop table if exists "access_group" cascade;`);

    this.addSql(`drop table if exists "join_request" cascade;`);

    this.addSql(`drop table if exists "access_group_member" cascade;`);
  }

}
