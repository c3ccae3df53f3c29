import path from 'node:path';
import { createObjectStore } from '../core/storage';
import { backup } from '../core/backup/dump';
import { restore } from '../core/backup/restore';
import { withDatabase } from './admin-db';
import type { AdminArgs } from './admin-users';
import { cliIo, line, printResult } from './output';

/** The objects a backup copies: every stored file's (thumbnails live in the database). */
const OBJECT_KEYS = 'select storage_key from associated_file where storage_key is not null';

function dirArg(a: AdminArgs, command: string): string {
  const dir = a.positional[0];
  if (!dir) throw new Error(`${command} needs a directory: admin ${command} <dir>`);
  return path.resolve(dir);
}

export const backupCommands: Record<string, (a: AdminArgs) => Promise<void>> = {
  backup: (a) =>
    withDatabase(async (orm, config) => {
      const dir = dirArg(a, 'backup');
      const m = await backup({ orm, store: createObjectStore(config), dir, objectKeysSql: OBJECT_KEYS });
      const rows = m.tables.reduce((n, t) => n + t.rows, 0);
      for (const key of m.objects.missing) {
        cliIo().err(`warning: object ${key} was removed before it could be copied\n`);
      }
      printResult(
        `Backed up ${rows} rows in ${m.tables.length} tables and ${m.objects.count} objects ` +
          `(${m.objects.bytes} bytes) at schema ${m.schemaRevision} into ${dir}.`,
        { dir, ...m, tables: m.tables.map(({ name, rows: n }) => ({ name, rows: n })) },
        a.json,
      );
    }),

  restore: (a) =>
    withDatabase(
      async (orm, config) => {
        const dir = dirArg(a, 'restore');
        const m = await restore({ orm, store: createObjectStore(config), dir });
        const rows = m.tables.reduce((n, t) => n + t.rows, 0);
        printResult(
          `Restored ${rows} rows in ${m.tables.length} tables and ${m.objects.count} objects from ${dir} ` +
            `(backup of ${m.createdAt}, schema ${m.schemaRevision}).`,
          { dir, createdAt: m.createdAt, schemaRevision: m.schemaRevision, rows, objects: m.objects.count },
          a.json,
        );
        if (!a.json && m.objects.missing.length) {
          line(`Note: ${m.objects.missing.length} object(s) were missing when the backup was made.`);
        }
      },
      // a backup is restored into an empty database, most often a new DATA_DIR
      { migrateFirst: false, mayCreate: true },
    ),
};
