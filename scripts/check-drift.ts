import { spawnSync } from 'node:child_process';
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
 * differs from the schema the resolvers produce, when openapi.json differs from the document the
 * REST route specs produce, or when the web app's GraphQL operations do not validate against
 * schema.graphql or their generated types (web/src/gql) are out of date.
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

  // codegen validates every operation against the schema; --check fails when its output would change
  const codegen = spawnSync(
    path.join('node_modules', '.bin', 'graphql-codegen'),
    ['--config', 'web/codegen.ts', '--check', '--silent'],
    { encoding: 'utf8' },
  );
  if (codegen.status !== 0) {
    problems.push(
      `the web app's operations do not validate against schema.graphql, or web/src/gql is out of date: run \`npm run web:codegen\` (and fix the operations it reports)\n${codegen.stdout}${codegen.stderr}`,
    );
  }

  if (problems.length) {
    console.error(
      `Drift found:\n- ${problems.join('\n- ')}\n\nFix: npm run migration:create -- <name>; npm run schema:emit; npm run openapi:emit; npm run web:codegen`,
    );
    process.exit(1);
  }
  console.log(
    "No drift: migrations, entities, schema.graphql, openapi.json and the web app's operations agree.",
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
