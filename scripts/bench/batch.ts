import { rawQuery } from '../../src/core/db/raw';
import { newMfid } from '../../src/core/ids';
import { benchService, ok } from './lib';

/**
 * Batch edits at size (issue 27, item 5; docs/web-app.md, "Edit many at once"): `BENCH_SIZE`
 * (default 10 000) datasets of one owner, on the database of DATABASE_URL, else the embedded
 * one; then preview, apply and undo, timed from the client over HTTP, for two operations: a
 * keyword added to all of them (the targets named by a search: all results of their session)
 * and a metadata merge (the targets named by their list of MFIDs). Prints the figures.
 */
const SIZE = Number(process.env.BENCH_SIZE ?? 10_000);

async function main(): Promise<void> {
  const service = await benchService('bench_batch', { BATCH_MAX_TARGETS: String(Math.max(SIZE, 10_000)) });
  const { app, base } = service;
  try {
    const em = app.orm.em.fork();
    const user = await app.services.user.create(em, { username: 'bench-batch' });
    const key = (await app.services.user.issueKey(em, user)).secret;
    const session = `batch-${Date.now()}`;
    const ids = Array.from({ length: SIZE }, () => newMfid());
    let t0 = process.hrtime.bigint();
    await em.transactional(async (tx) => {
      for (let start = 0; start < ids.length; start += 5000) {
        const rows = ids.slice(start, start + 5000).map((id, i) => ({
          id,
          name: `bench ${start + i}`,
          meta: { temperature: `${250 + ((start + i) % 100)} K`, run: start + i },
        }));
        await rawQuery(
          tx,
          `insert into dataset (unique_id, dataset_name, owner_id, session_name)
           select r.id, r.name, ?, ? from jsonb_to_recordset(?::jsonb) as r(id text, name text)`,
          [user.uniqueId, session, JSON.stringify(rows)],
        );
        await rawQuery(
          tx,
          `insert into scientific_metadata (resource_id, resource_type, data)
           select r.id, 'dataset', r.meta from jsonb_to_recordset(?::jsonb) as r(id text, meta jsonb)`,
          [JSON.stringify(rows)],
        );
      }
    });
    console.log(`seeded ${SIZE} datasets in ${ms(t0).toFixed(0)} ms`);

    const call = async (path: string, body: unknown, query = '') =>
      ok(
        await fetch(`${base}/api/v2${path}${query}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }),
      ) as Promise<{ batch_id: string; token: string; changed_count: number; status: string }>;
    const cases: [string, unknown, string][] = [
      [
        'add keyword (all results of a search)',
        { all_results: true, operation: { kind: 'add_keyword', keyword: 'bench-batch' } },
        `?session_name=${session}`,
      ],
      [
        'merge metadata (a list of MFIDs)',
        {
          dataset_ids: ids,
          operation: { kind: 'merge_metadata', metadata: { temperature: '300 K', batch: 'x' } },
        },
        '',
      ],
    ];
    console.log('\n| operation | datasets | changed | preview ms | apply ms | undo ms | total s |');
    console.log('|---|---:|---:|---:|---:|---:|---:|');
    for (const [label, body, query] of cases) {
      t0 = process.hrtime.bigint();
      const preview = await call('/dataset_batches', body, query);
      const tPreview = ms(t0);
      t0 = process.hrtime.bigint();
      const applied = await call(`/dataset_batches/${preview.batch_id}/apply`, { token: preview.token });
      const tApply = ms(t0);
      t0 = process.hrtime.bigint();
      const undone = await call(`/dataset_batches/${preview.batch_id}/undo`, {});
      const tUndo = ms(t0);
      if (applied.status !== 'applied' || undone.status !== 'undone')
        throw new Error(`${label}: not applied and undone`);
      console.log(
        `| ${label} | ${SIZE} | ${preview.changed_count} | ${tPreview.toFixed(0)} | ${tApply.toFixed(0)} | ${tUndo.toFixed(0)} | ${((tPreview + tApply + tUndo) / 1000).toFixed(1)} |`,
      );
    }
  } finally {
    await service.close();
  }
}

const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
