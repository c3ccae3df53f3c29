import fs from 'node:fs';
import { buildGraphqlSchema, printSortedSchema } from '../src/core/graphql/schema';
import { RESOLVERS } from '../src/modules/resolvers';

/** Writes schema.graphql from the resolvers. `--check` fails instead when the file differs. */
async function main(): Promise<void> {
  const sdl = printSortedSchema(await buildGraphqlSchema(RESOLVERS));
  const check = process.argv.includes('--check');
  const current = fs.existsSync('schema.graphql') ? fs.readFileSync('schema.graphql', 'utf8') : '';
  if (check) {
    if (current !== sdl) {
      console.error('schema.graphql is out of date: run `npm run schema:emit` and commit the result.');
      process.exit(1);
    }
    console.log('schema.graphql matches the code.');
    return;
  }
  fs.writeFileSync('schema.graphql', sdl);
  console.log(current === sdl ? 'schema.graphql unchanged.' : 'schema.graphql written.');
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
