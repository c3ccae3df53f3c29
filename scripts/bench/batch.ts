import { rawQuery } from '../../src/core/db/raw';
import { newMfid } from '../../src/core/ids';
import { benchService, ok, webhookReceiver } from './lib';

/**
 * Batch edits at size (issue 27, item 5; docs/web-app.md, "Edit many at once"): `BENCH_SIZE`
 * (default 10 000) datasets of one owner, on the database of DATABASE_URL, else the embedded
 * one; then preview, apply and undo, timed from the client over HTTP, for every kind of batch
 * the page offers (`BENCH_KINDS`, comma-separated, to choose): a keyword added to all of them
 * (the targets named by a search: all results of their session) and removed again, a field set,
 * a metadata merge, a grant and the public flag (the targets named by their list of MFIDs).
 * Prints the figures; with `BENCH_STATEMENTS=1`, also the time each statement took, summed by
 * its text, per phase (the slowest first). With `BENCH_WEBHOOK=1` a webhook subscription for
 * every event type (the owner's, so it matches every event the batch writes) posts to a local
 * receiver, the service's dispatcher runs, and each apply and undo is also timed until its
 * events have all been delivered (the fan-out of one batch's events, and the delivery rate).
 */
const SIZE = Number(process.env.BENCH_SIZE ?? 10_000);
const KINDS = process.env.BENCH_KINDS?.split(',');
const STATEMENTS = process.env.BENCH_STATEMENTS === '1';
const WEBHOOK = process.env.BENCH_WEBHOOK === '1';

/** Statement times by phase and text, when `BENCH_STATEMENTS=1`. */
const spent = new Map<string, { ms: number; n: number }>();
let phase = 'seed';

async function main(): Promise<void> {
  const service = await benchService('bench_batch', {
    BATCH_MAX_TARGETS: String(Math.max(SIZE, 10_000)),
    // the receiver listens on loopback, which webhooks may not reach by default
    ...(WEBHOOK ? { WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8' } : {}),
  });
  const { app, base } = service;
  try {
    if (STATEMENTS) timeStatements(app.orm.em.getConnection());
    const em = app.orm.em.fork();
    const user = await app.services.user.create(em, { username: 'bench-batch' });
    const other = await app.services.user.create(em, { username: 'bench-batch-grantee' });
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
    const run = async (body: unknown, query = '') => {
      const preview = await call('/dataset_batches', body, query);
      return call(`/dataset_batches/${preview.batch_id}/apply`, { token: preview.token });
    };
    const cases: [string, string, unknown, string, (() => Promise<unknown>)?][] = [
      [
        'add_keyword',
        'add a keyword (all results of a search)',
        { all_results: true, operation: { kind: 'add_keyword', keyword: 'bench-batch' } },
        `?session_name=${session}`,
      ],
      [
        'remove_keyword',
        'remove a keyword (a list of MFIDs)',
        { dataset_ids: ids, operation: { kind: 'remove_keyword', keyword: 'bench-remove' } },
        '',
        // every target carries the keyword first (an applied batch, not timed)
        () => run({ dataset_ids: ids, operation: { kind: 'add_keyword', keyword: 'bench-remove' } }),
      ],
      [
        'set_field',
        'set a field (a list of MFIDs)',
        { dataset_ids: ids, operation: { kind: 'set_field', field: 'measurement', value: 'bench' } },
        '',
      ],
      [
        'merge_metadata',
        'merge metadata (a list of MFIDs)',
        {
          dataset_ids: ids,
          operation: { kind: 'merge_metadata', metadata: { temperature: '300 K', batch: 'x' } },
        },
        '',
      ],
      [
        'grant',
        'grant access (a list of MFIDs)',
        {
          dataset_ids: ids,
          operation: {
            kind: 'grant',
            principal_type: 'user',
            principal: other.uniqueId,
            permission: 'editor',
          },
        },
        '',
      ],
      [
        'set_public',
        'make public (a list of MFIDs)',
        { dataset_ids: ids, operation: { kind: 'set_public', public: true } },
        '',
      ],
    ];
    const hook = WEBHOOK ? await webhookReceiver() : undefined;
    if (hook) {
      await call('/webhooks', { url: hook.url });
      app.webhooks.start();
    }
    /** Waits until `n` more events than `before` have arrived; the seconds since `t`. */
    const delivered = async (before: number, n: number, t: bigint) => {
      const end = Date.now() + 600_000;
      while (hook && hook.arrived.size < before + n && Date.now() < end)
        await new Promise((r) => setTimeout(r, 20));
      return ms(t) / 1000;
    };
    console.log(
      `\n| operation | datasets | changed | preview ms | apply ms | undo ms | total s |${WEBHOOK ? ' apply delivered s | undo delivered s | events/s |' : ''}`,
    );
    console.log(`|---|---:|---:|---:|---:|---:|---:|${WEBHOOK ? '---:|---:|---:|' : ''}`);
    for (const [kind, label, body, query, setup] of cases) {
      if (KINDS && !KINDS.includes(kind)) continue;
      phase = `${kind} setup`;
      const beforeSetup = hook?.arrived.size ?? 0;
      const prepared = (await setup?.()) as { changed_count?: number } | undefined;
      // the setup's own events (an applied batch) delivered before anything is timed
      if (hook && prepared?.changed_count)
        await delivered(beforeSetup, prepared.changed_count, process.hrtime.bigint());
      phase = `${kind} preview`;
      t0 = process.hrtime.bigint();
      const preview = await call('/dataset_batches', body, query);
      const tPreview = ms(t0);
      phase = `${kind} apply`;
      const beforeApply = hook?.arrived.size ?? 0;
      t0 = process.hrtime.bigint();
      const applied = await call(`/dataset_batches/${preview.batch_id}/apply`, { token: preview.token });
      const tApply = ms(t0);
      const applyDelivered = await delivered(beforeApply, applied.changed_count, t0);
      phase = `${kind} undo`;
      const beforeUndo = hook?.arrived.size ?? 0;
      t0 = process.hrtime.bigint();
      const undone = await call(`/dataset_batches/${preview.batch_id}/undo`, {});
      const tUndo = ms(t0);
      const undoDelivered = await delivered(beforeUndo, applied.changed_count, t0);
      if (applied.status !== 'applied' || undone.status !== 'undone')
        throw new Error(`${label}: not applied and undone`);
      const hooked = hook
        ? ` ${applyDelivered.toFixed(1)} | ${undoDelivered.toFixed(1)} | ${((2 * applied.changed_count) / (applyDelivered + undoDelivered)).toFixed(0)} |`
        : '';
      console.log(
        `| ${label} | ${SIZE} | ${preview.changed_count} | ${tPreview.toFixed(0)} | ${tApply.toFixed(0)} | ${tUndo.toFixed(0)} | ${((tPreview + tApply + tUndo) / 1000).toFixed(1)} |${hooked}`,
      );
    }
    if (STATEMENTS) printStatements();
    await hook?.close();
  } finally {
    await service.close();
  }
}

/** Wraps the connection's `execute` to sum each statement's time by phase and text. */
function timeStatements(connection: { execute: (...args: never[]) => Promise<unknown> }): void {
  const execute = connection.execute.bind(connection) as (...args: unknown[]) => Promise<unknown>;
  (connection as { execute: unknown }).execute = async (...args: unknown[]) => {
    const t0 = process.hrtime.bigint();
    try {
      return await execute(...args);
    } finally {
      const text = typeof args[0] === 'string' ? args[0].replace(/\s+/g, ' ').slice(0, 110) : '(query)';
      const entry = spent.get(`${phase}\t${text}`) ?? { ms: 0, n: 0 };
      entry.ms += ms(t0);
      entry.n += 1;
      spent.set(`${phase}\t${text}`, entry);
    }
  };
}

function printStatements(): void {
  console.log('\n| phase | statement | count | ms |');
  console.log('|---|---|---:|---:|');
  const rows = [...spent.entries()].filter(([key, v]) => !key.startsWith('seed') && v.ms >= 50);
  rows.sort((a, b) => a[0].split('\t')[0].localeCompare(b[0].split('\t')[0]) || b[1].ms - a[1].ms);
  for (const [key, v] of rows) {
    const [p, text] = key.split('\t');
    console.log(`| ${p} | \`${text.replace(/\|/g, '\\|')}\` | ${v.n} | ${v.ms.toFixed(0)} |`);
  }
}

const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
