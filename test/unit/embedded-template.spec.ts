import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { announceTemplate } from '../support/embedded-template';

/** The suite's cache of migrated embedded databases keeps what runs use and drops the rest. */
test('announcing a template removes the templates no run has used for an hour, nothing else', () => {
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'catalog-template-cache-'));
  const saved = process.env.TEST_EMBEDDED_TEMPLATE;
  try {
    const make = (name: string, ageMs: number) => {
      const dir = path.join(cache, name);
      fs.mkdirSync(dir);
      fs.writeFileSync(path.join(dir, 'pgdata.tar'), 'x');
      const at = new Date(Date.now() - ageMs);
      fs.utimesSync(dir, at, at);
      return dir;
    };
    const hours = (h: number) => h * 60 * 60 * 1000;
    const current = make('embedded-aaaa', hours(48));
    make('embedded-bbbb', hours(2)); // another migration set, unused: removed
    make('embedded-cccc', hours(0.5)); // another run's, in use: kept
    make('embedded-dddd.tmp-123', hours(3)); // a write abandoned long ago: removed
    make('embedded-eeee.tmp-456', 1_000); // a write in progress: kept
    make('node-compile-cache', hours(48)); // not a template: kept
    announceTemplate(current);
    expect(fs.readdirSync(cache).sort()).toEqual([
      'embedded-aaaa',
      'embedded-cccc',
      'embedded-eeee.tmp-456',
      'node-compile-cache',
    ]);
    // the current one is marked used now, so a later run of other migrations keeps it an hour
    expect(Date.now() - fs.statSync(current).mtimeMs).toBeLessThan(60_000);
    expect(process.env.TEST_EMBEDDED_TEMPLATE).toBe(current);
  } finally {
    if (saved === undefined) delete process.env.TEST_EMBEDDED_TEMPLATE;
    else process.env.TEST_EMBEDDED_TEMPLATE = saved;
    fs.rmSync(cache, { recursive: true, force: true });
  }
});
