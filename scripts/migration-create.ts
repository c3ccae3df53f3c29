import fs from 'node:fs';
import path from 'node:path';
import { migrate } from '../src/core/db/orm';
import { scratchOrm } from './lib/db';

/**
 * Creates a migration for the difference between the entities and the schema the committed
 * migrations build, on a throwaway database, then rewrites migrations/index.ts.
 * Usage: npm run migration:create [-- <name>]
 */
async function main(): Promise<void> {
  const name = process.argv[2];
  const { orm, close } = await scratchOrm();
  try {
    await migrate(orm);
    const executed = await orm.migrator.getExecutedMigrations();
    const migrator = orm.migrator;
    const result = await migrator.createMigration('migrations', false, executed.length === 0, name);
    if (!result.fileName) {
      console.log('No changes: the migrations already match the entities.');
      return;
    }
    writeIndex();
    console.log(`Created migrations/${result.fileName}`);
  } finally {
    await close();
  }
}

export function writeIndex(dir = 'migrations'): void {
  const files = fs
    .readdirSync(dir)
    .filter((f) => /^Migration\d{14}.*\.ts$/.test(f))
    .sort();
  const imports = files.map(
    (f, i) => `import { ${className(dir, f)} as M${i} } from './${f.replace(/\.ts$/, '')}';`,
  );
  const entries = files.map((f, i) => `  { name: '${f.replace(/\.ts$/, '')}', class: M${i} },`);
  const body = [
    "import type { MigrationObject } from '@mikro-orm/core';",
    ...imports,
    '',
    '/** Every migration, in order. `npm run migration:create` rewrites this list. */',
    'export const MIGRATIONS: MigrationObject[] = [',
    ...entries,
    '];',
    '',
  ];
  fs.writeFileSync(path.join(dir, 'index.ts'), body.join('\n'));
}

function className(dir: string, file: string): string {
  const match = /export class (\w+)/.exec(fs.readFileSync(path.join(dir, file), 'utf8'));
  if (!match) throw new Error(`no exported class in ${file}`);
  return match[1];
}

if (require.main === module) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
