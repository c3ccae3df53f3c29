import { Migration } from '@mikro-orm/migrations';

/**
 * `not_requested`: an ingestion request the uploader recorded as unwanted (the 3.2 client's
 * `skip_ingestion`), final at once and never queued. Analysis requests keep their statuses.
 */
export class Migration20261126151752_ingestion_not_requested extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "ingestion_request" drop constraint if exists "ingestion_request_status_check";`);
    this.addSql(
      `alter table "ingestion_request" add constraint "ingestion_request_status_check" check("status" in ('requested', 'started', 'complete', 'failed', 'not supported', 'file not found', 'not_requested'));`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`delete from "ingestion_request" where "status" = 'not_requested';`);
    this.addSql(`alter table "ingestion_request" drop constraint if exists "ingestion_request_status_check";`);
    this.addSql(
      `alter table "ingestion_request" add constraint "ingestion_request_status_check" check("status" in ('requested', 'started', 'complete', 'failed', 'not supported', 'file not found'));`,
    );
  }
}
