import fs from 'node:fs';
import path from 'node:path';
import { migrate } from '../src/core/db/orm';
import { buildGraphqlSchema, printSortedSchema } from '../src/core/graphql/schema';
import { RESOLVERS } from '../src/modules/resolvers';
import { scratchOrm } from './lib/db';
import { openapiText } from './emit-openapi';

/**
 * CI guard: builds a fresh database from the committed migrations and fails when the entities
 * would need more SQL, when migrations/index.ts misses a migration file, or when schema.graphql
 * (openapi.json) differs from the schema the resolvers (the REST route specs) produce.
 */
async function main(): Promise<void> {
  const problems: string[] = [];

  const files = fs.readdirSync('migrations').filter((f) => /^Migration\d{14}.*\.ts$/.test(f));
  const index = fs.readFileSync(path.join('migrations', 'index.ts'), 'utf8');
  for (const f of files) {
    if (!index.includes(`'${f.replace(/\.ts$/, '')}'`))
      problems.push(`migrations/index.ts does not list ${f}`);
  }

  const { orm, close } = await scratchOrm();
  try {
    await migrate(orm);
    const diff = await orm.schema.getUpdateSchemaSQL({ wrap: false, safe: false, dropTables: true });
    if (diff.trim()) {
      problems.push(`the migrations do not build the schema the entities describe; missing SQL:\n${diff}`);
    }
  } finally {
    await close();
  }

  const sdl = printSortedSchema(await buildGraphqlSchema(RESOLVERS));
  if (!fs.existsSync('schema.graphql') || fs.readFileSync('schema.graphql', 'utf8') !== sdl) {
    problems.push('schema.graphql is out of date: run `npm run schema:emit` and commit it');
  }

  if (!fs.existsSync('openapi.json') || fs.readFileSync('openapi.json', 'utf8') !== openapiText()) {
    problems.push('openapi.json is out of date: run `npm run openapi:emit` and commit it');
  }

  if (problems.length) {
    console.error(
      `Drift found:\n- ${problems.join('\n- ')}\n\nFix: npm run migration:create -- <name>; npm run schema:emit; npm run openapi:emit`,
    );
    process.exit(1);
  }
  console.log('No drift: migrations, entities, schema.graphql and openapi.json agree.');
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
