import WebSocket from 'ws';
import { createClient } from 'graphql-ws';
import { rawQuery } from '../../src/core/db/raw';
import { benchService, ok, percentile, webhookReceiver as receiver } from './lib';

/**
 * Events, measured in one process on one database (DATABASE_URL, else embedded):
 * 1. the outbox's cost on writes: a dataset create and a metadata merge, p50 with events and
 *    with the event write replaced by a no-op on this process's EventService (the same code
 *    path otherwise), alternating, `BENCH_ROUNDS` (default 60) each;
 * 2. delivery latency from the write's response (after its commit) to a local webhook receiver,
 *    and to a GraphQL subscription client, p50/p99 over `BENCH_EVENTS` (default 200) writes;
 * 3. sustained delivery throughput to the receiver: `BENCH_BURST` (default 1000) events written
 *    8 at a time, events/s from the first write to the last delivery;
 * 4. the write path's p50 while a receiver never answers, against no receivers.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 60);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 200);
const BURST = Number(process.env.BENCH_BURST ?? 1000);

const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;
const p = (xs: number[], q: number) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    q,
  );

async function main(): Promise<void> {
  // the receivers listen on loopback, which webhooks may not reach by default
  const service = await benchService('bench_events', { WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8' });
  const { app, base } = service;
  const em = app.orm.em.fork();
  const user = await app.services.user.create(em, { username: 'bench-events' });
  await rawQuery(em, 'update app_user set platform_role = ? where unique_id = ?', ['admin', user.uniqueId]);
  const key = (await app.services.user.issueKey(em, user)).secret;
  const call = async (method: string, path: string, body?: unknown) =>
    ok(
      await fetch(`${base}/api/v2${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    ) as Promise<Record<string, unknown>>;
  const create = async (name: string) =>
    (await call('POST', '/datasets', { dataset_name: name })).unique_id as string;
  const events = app.services.events;
  const emit = events.emit.bind(events);
  const noEvents = () => {
    events.emit = () => Promise.resolve('');
  };
  const withEvents = () => {
    events.emit = emit;
  };
  try {
    // 1. the outbox's cost on writes
    const target = await create('merge target');
    const times: Record<string, number[]> = {
      'create, events': [],
      'create, none': [],
      'merge, events': [],
      'merge, none': [],
    };
    for (let i = 0; i <= ROUNDS; i++) {
      for (const on of i % 2 ? [true, false] : [false, true]) {
        if (on) withEvents();
        else noEvents();
        const label = on ? 'events' : 'none';
        let t0 = process.hrtime.bigint();
        await create(`overhead ${i}`);
        const c = ms(t0);
        t0 = process.hrtime.bigint();
        await call('PATCH', `/resources/${target}/metadata`, { [`k${i % 20}`]: i });
        const m = ms(t0);
        if (i > 0) {
          times[`create, ${label}`].push(c);
          times[`merge, ${label}`].push(m);
        }
      }
    }
    withEvents();
    console.log(`\nThe outbox on writes (${ROUNDS} alternating rounds, ms)`);
    console.log('| write | p50 with events | p50 without | ratio |');
    console.log('|---|---:|---:|---:|');
    for (const w of ['create', 'merge']) {
      const a = p(times[`${w}, events`], 50);
      const b = p(times[`${w}, none`], 50);
      console.log(
        `| ${w === 'create' ? 'dataset create' : 'metadata merge'} | ${a.toFixed(1)} | ${b.toFixed(1)} | ${(a / b).toFixed(2)} |`,
      );
    }

    // 2. delivery latency: a webhook receiver and a subscription client, one write at a time
    app.webhooks.start();
    const hook = await receiver();
    await call('POST', '/webhooks', { url: hook.url, event_types: ['dataset.created'] });
    const live = new Map<string, bigint>();
    const client = createClient({
      url: `${base.replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${key}` },
    });
    const written = new Map<string, bigint>();
    // subscriptions follow a resource each, up to the per-key limit
    const watched: string[] = [];
    for (let i = 0; i < app.config.subscriptions.perKey; i++) watched.push(await create(`latency ${i}`));
    // subscriptions follow one resource each: subscribe to the datasets, then change them
    const stops = watched.map(
      (id) =>
        new Promise<() => void>((resolve) => {
          const stop = client.subscribe<{ resourceEvents: { resourceId: string; uniqueId: string } }>(
            {
              query: 'subscription($r: ID) { resourceEvents(resource: $r) { uniqueId resourceId } }',
              variables: { r: id },
            },
            {
              next: (r) => {
                const e = r.data?.resourceEvents;
                if (e && !live.has(e.resourceId)) live.set(e.resourceId, process.hrtime.bigint());
              },
              error: () => undefined,
              complete: () => undefined,
            },
          );
          resolve(stop);
        }),
    );
    const unsubscribe = await Promise.all(stops);
    await new Promise((r) => setTimeout(r, 1000));
    hook.arrived.clear();
    const eventOf = new Map<string, string>();
    for (const id of watched) {
      await call('PATCH', `/datasets/${id}`, { dataset_name: `renamed ${id}` });
      written.set(id, process.hrtime.bigint());
      await new Promise((r) => setTimeout(r, 20));
    }
    const created: string[] = [];
    for (let i = 0; i < EVENTS; i++) {
      const id = await create(`delivered ${i}`);
      written.set(id, process.hrtime.bigint());
      created.push(id);
      const [row] = await rawQuery<{ event_id: string }>(
        em,
        `select event_id from domain_event where resource_id = ? and type = 'dataset.created'`,
        [id],
      );
      eventOf.set(row.event_id, id);
      await new Promise((r) => setTimeout(r, 20));
    }
    const deadline = Date.now() + 60_000;
    while (hook.arrived.size < EVENTS && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const hookLatency = [...hook.arrived].flatMap(([eid, at]) => {
      const id = eventOf.get(eid);
      const w = id ? written.get(id) : undefined;
      return w ? [Number(at - w) / 1e6] : [];
    });
    const liveLatency = [...live].flatMap(([id, at]) => {
      const w = written.get(id);
      return w ? [Number(at - w) / 1e6] : [];
    });
    for (const stop of unsubscribe) stop();
    await client.dispose();
    console.log(
      `\nDelivery latency from the write's response (poll intervals: webhooks ${app.config.webhooks.pollIntervalMs} ms, subscriptions ${app.config.subscriptions.pollIntervalMs} ms)`,
    );
    console.log('| to | n | p50 ms | p99 ms |');
    console.log('|---|---:|---:|---:|');
    console.log(
      `| webhook receiver | ${hookLatency.length} | ${p(hookLatency, 50).toFixed(0)} | ${p(hookLatency, 99).toFixed(0)} |`,
    );
    console.log(
      `| subscription client | ${liveLatency.length} | ${p(liveLatency, 50).toFixed(0)} | ${p(liveLatency, 99).toFixed(0)} |`,
    );

    // 3. sustained throughput
    hook.arrived.clear();
    const t0 = process.hrtime.bigint();
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < BURST) {
          next++;
          await create(`burst ${next}`);
        }
      }),
    );
    const wrote = ms(t0);
    const end = Date.now() + 300_000;
    while (hook.arrived.size < BURST && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    const all = ms(t0);
    console.log(
      `\n${BURST} events written 8 at a time in ${(wrote / 1000).toFixed(1)} s; ${hook.arrived.size} delivered in ${(all / 1000).toFixed(1)} s: ${((hook.arrived.size * 1000) / all).toFixed(0)} events/s`,
    );
    await hook.close();

    // 4. writes while a receiver hangs
    const hung = await receiver(true);
    const quiet: number[] = [];
    const hanging: number[] = [];
    await rawQuery(em, 'update webhook_subscription set active = false');
    for (let i = 0; i < ROUNDS; i++) {
      const t = process.hrtime.bigint();
      await create(`quiet ${i}`);
      quiet.push(ms(t));
    }
    await call('POST', '/webhooks', { url: hung.url });
    for (let i = 0; i < ROUNDS; i++) {
      const t = process.hrtime.bigint();
      await create(`hanging ${i}`);
      hanging.push(ms(t));
    }
    console.log('\nDataset create while a receiver never answers (ms)');
    console.log('| receivers | p50 | p95 |');
    console.log('|---|---:|---:|');
    console.log(`| none | ${p(quiet, 50).toFixed(1)} | ${p(quiet, 95).toFixed(1)} |`);
    console.log(`| one that hangs | ${p(hanging, 50).toFixed(1)} | ${p(hanging, 95).toFixed(1)} |`);
    await hung.close();
  } finally {
    withEvents();
    await app.webhooks.stop();
    await service.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
