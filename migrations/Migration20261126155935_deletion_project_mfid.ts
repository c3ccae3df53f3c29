import { Migration } from '@mikro-orm/migrations';

/**
 * Deletion requests and audit entries keep the MFID of the resource's project beside its slug
 * (the 3.2 client filters and reads `project_mfid`). Existing rows get the MFID of the project
 * that still has the recorded slug; rows whose project is gone keep none.
 */
export class Migration20261126155935_deletion_project_mfid extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "deletion_audit" add column "project_mfid" varchar(26) null;`);
    this.addSql(`alter table "deletion_request" add column "project_mfid" varchar(26) null;`);
    this.addSql(
      `update "deletion_request" r set "project_mfid" = p."unique_id" from "project" p where p."project_id" = r."project_id";`,
    );
    this.addSql(
      `update "deletion_audit" a set "project_mfid" = p."unique_id" from "project" p where p."project_id" = a."project_id";`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "deletion_audit" drop column "project_mfid";`);
    this.addSql(`alter table "deletion_request" drop column "project_mfid";`);
  }
}
