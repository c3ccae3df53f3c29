import { Migration } from '@mikro-orm/migrations';

export class Migration20261126121223_sessions extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "user_identity" ("unique_id" varchar(36) not null, "issuer" varchar(500) not null, "subject" varchar(255) not null, "user_id" varchar(32) not null, "email" varchar(320) null, "linked_at" timestamptz not null default now(), "last_sign_in_at" timestamptz not null default now(), constraint "user_identity_pkey" primary key ("unique_id"));`);
    this.addSql(`create index "user_identity_user_id_index" on "user_identity" ("user_id");`);
    this.addSql(`alter table "user_identity" add constraint "user_identity_issuer_subject_unique" unique ("issuer", "subject");`);

    this.addSql(`create table "user_session" ("unique_id" varchar(36) not null, "hash" varchar(64) not null, "user_id" varchar(32) not null, "method" varchar(20) not null, "created_at" timestamptz not null default now(), "last_seen_at" timestamptz not null default now(), "expires_at" timestamptz not null, "revoked_at" timestamptz null, constraint "user_session_pkey" primary key ("unique_id"));`);
    this.addSql(`alter table "user_session" add constraint "user_session_hash_unique" unique ("hash");`);
    this.addSql(`create index "user_session_user_id_index" on "user_session" ("user_id");`);

    this.addSql(`alter table "user_identity" add constraint "user_identity_user_id_foreign" foreign key ("user_id") references "app_user" ("unique_id") on update cascade on delete cascade;`);

    this.addSql(`alter table "user_session" add constraint "user_session_user_id_foreign" foreign key ("user_id") references "app_user" ("unique_id") on update cascade on delete cascade;`);

    this.addSql(`alter table "app_user" add column "pending_since" timestamptz null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "user_identity" cascade;`);

    this.addSql(`drop table if exists "user_session" cascade;`);

    this.addSql(`alter table "app_user" drop column "pending_since";`);
  }

}
