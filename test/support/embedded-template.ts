import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * A migrated, empty embedded database, made once and kept in node_modules/.cache (keyed by the
 * PGlite and MikroORM versions and the migrations): `pgdata.tar` (PGlite's dump of its data
 * directory) and `pgdata/` (that dump opened as a data directory). The suite's database starts
 * from the tar instead of running initdb and every migration (global-setup.ts); end-to-end
 * tests whose subject is not a first start copy the directory into their DATA_DIR.
 */
const ROOT = path.resolve(__dirname, '../..');
const TEMPLATE_ENV = 'TEST_EMBEDDED_TEMPLATE';

function version(pkg: string): string {
  const file = path.join(ROOT, 'node_modules', pkg, 'package.json');
  return (JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string }).version;
}

/** The cache directory of the template for this PGlite, MikroORM and set of migrations. */
export function templateDir(): string {
  const hash = createHash('sha256');
  for (const pkg of ['@electric-sql/pglite', '@mikro-orm/core', '@mikro-orm/migrations']) {
    hash.update(`${pkg}@${version(pkg)}\n`);
  }
  const migrations = path.join(ROOT, 'migrations');
  for (const name of fs.readdirSync(migrations).sort()) {
    hash.update(`${name}\n`).update(fs.readFileSync(path.join(migrations, name)));
  }
  const key = hash.digest('hex').slice(0, 16);
  return path.join(ROOT, 'node_modules', '.cache', 'catalog-test', `embedded-${key}`);
}

/** A template of other migrations left alone for this long is removed (see {@link announceTemplate}). */
const UNUSED_TEMPLATE_MS = 60 * 60 * 1000;

/**
 * Hands the template's directory to the test workers (called by global-setup.ts), marks it used
 * now, and removes the templates of other migration sets (about 80 MB each) that no run has used
 * for an hour: one is left behind by every change of a migration. An hour spares a template that
 * another run of this checkout (another branch's migrations) is using: each run marks its own at
 * its start and lasts minutes.
 */
export function announceTemplate(dir: string): void {
  process.env[TEMPLATE_ENV] = dir;
  const now = new Date();
  fs.utimesSync(dir, now, now);
  const cache = path.dirname(dir);
  for (const name of fs.readdirSync(cache)) {
    const other = path.join(cache, name);
    if (!/^embedded-[0-9a-f]+(\.tmp-\d+)?$/.test(name) || other === dir) continue;
    try {
      if (now.getTime() - fs.statSync(other).mtimeMs > UNUSED_TEMPLATE_MS)
        fs.rmSync(other, { recursive: true, force: true });
    } catch {
      // removed by another run meanwhile
    }
  }
}

/**
 * Puts a copy of the migrated, empty embedded database into `dataDir` (as `db/`, where the
 * service keeps it), so a first start there skips initdb and the migrations.
 */
export function seedEmbeddedDb(dataDir: string): void {
  const dir = process.env[TEMPLATE_ENV];
  if (!dir)
    throw new Error(`${TEMPLATE_ENV} is not set: run the tests with jest (test/support/global-setup.ts)`);
  fs.cpSync(path.join(dir, 'pgdata'), path.join(dataDir, 'db'), { recursive: true });
}
