import { spawn } from 'node:child_process';
import http from 'node:http';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../lib/process';
import { percentile } from './lib';

/**
 * The liveness of the service while anonymous clients send it the largest documents and bodies
 * they can: `/health/live` p99 idle, then while BENCH_ABUSERS clients (default 4) loop over a
 * 9 MB GraphQL document (`{ __typename … }` 800,000 times), a GraphQL document at the anonymous
 * limits, a 10 MiB JSON body and a 9 MB text body to REST routes, none with an API key.
 * Target: p99 under abuse below 50 ms and within 5× of idle.
 * Usage: npm run bench:abuse  (BENCH_SAMPLES health probes per phase, default 500; the service
 * runs as its own process, on DATABASE_URL when set, otherwise on an embedded database).
 */
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 500);
const ABUSERS = Number(process.env.BENCH_ABUSERS ?? 4);
const MiB = 1024 * 1024;

async function startServer(): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'bench-abuse-'));
  const url = `http://127.0.0.1:${port}`;
  const proc = spawn(process.execPath, ['dist/src/main.js'], {
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`${url}/health/ready`)).ok) break;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    async stop() {
      proc.kill('SIGTERM');
      await new Promise((r) => proc.once('exit', r));
      await fsp.rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The probes keep a connection of their own (the abusers' connections are closed on them). */
const probeAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function probe(url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    http
      .get(`${url}/health/live`, { agent: probeAgent }, (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode === 200) resolve();
          else reject(new Error(`${res.statusCode}`));
        });
      })
      .on('error', reject);
  });
}

async function liveP99(url: string): Promise<{ p50: number; p99: number; max: number }> {
  const times: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const t0 = performance.now();
    await probe(url);
    times.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 5));
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99), max: times[times.length - 1] };
}

/** The abusive requests, each answered without reading or parsing what it does not need to. */
function payloads(url: string): { name: string; send: () => Promise<number> }[] {
  const huge = Buffer.from(JSON.stringify({ query: `{ ${'__typename '.repeat(800_000)}}` }));
  const atLimit = Buffer.from(JSON.stringify({ query: `{ ${'__typename '.repeat(490)}}` }));
  const bigJson = Buffer.from(JSON.stringify({ dataset_name: 'x'.repeat(10 * MiB - 30) }));
  const bigText = Buffer.alloc(9 * MiB, 'y');
  const post = (p: string, type: string, body: Buffer) => async () => {
    const res = await fetch(`${url}${p}`, { method: 'POST', headers: { 'content-type': type }, body });
    await res.arrayBuffer();
    return res.status;
  };
  return [
    { name: 'GraphQL 9 MB document', send: post('/graphql', 'application/json', huge) },
    { name: 'GraphQL document at the anonymous limits', send: post('/graphql', 'application/json', atLimit) },
    { name: 'REST 10 MiB JSON body', send: post('/api/v2/datasets', 'application/json', bigJson) },
    { name: 'REST 9 MB text body', send: post('/api/v2/instruments', 'text/plain', bigText) },
  ];
}

/** The control: as many clients sending small anonymous requests as fast as they can. */
function smallRequests(url: string): { name: string; send: () => Promise<number> }[] {
  return [
    {
      name: 'small anonymous GET',
      send: async () => {
        const res = await fetch(`${url}/api/v2/datasets`);
        await res.arrayBuffer();
        return res.status;
      },
    },
  ];
}

type Answers = Record<string, Record<number, number>>;

/** Probes /health/live while ABUSERS threads run `mode`; returns the latencies and the answers. */
async function underLoad(url: string, mode: 'abuse' | 'control') {
  const workers = Array.from(
    { length: ABUSERS },
    (_, k) => new Worker(__filename, { workerData: { url, first: k, mode } }),
  );
  await new Promise((r) => setTimeout(r, 1000));
  const started = performance.now();
  const latency = await liveP99(url);
  const seconds = (performance.now() - started) / 1000;
  const answers = await Promise.all(
    workers.map(
      (w) =>
        new Promise<Answers>((resolve) => {
          w.once('message', resolve);
          w.postMessage('stop');
        }),
    ),
  );
  await Promise.all(workers.map((w) => w.terminate()));
  const total: Answers = {};
  for (const a of answers) {
    for (const [name, counts] of Object.entries(a)) {
      for (const [status, n] of Object.entries(counts)) {
        const into = (total[name] ??= {});
        into[Number(status)] = (into[Number(status)] ?? 0) + n;
      }
    }
  }
  return { latency, seconds, total };
}

/** One abusive client, in a thread of its own (its work must not delay the probes). */
async function abuse(url: string, first: number, mode: 'abuse' | 'control'): Promise<void> {
  const only = process.env.BENCH_ONLY;
  const kinds = (mode === 'abuse' ? payloads(url) : smallRequests(url)).filter(
    (k) => !only || k.name.includes(only),
  );
  const answers: Answers = {};
  const port = parentPort;
  if (!port) throw new Error('the abuse client runs as a worker thread');
  const state = { stop: false };
  port.once('message', () => (state.stop = true));
  for (let i = first; !state.stop; i++) {
    const kind = kinds[i % kinds.length];
    const status = await kind.send().catch(() => 0);
    const counts = (answers[kind.name] ??= {});
    counts[status] = (counts[status] ?? 0) + 1;
  }
  port.postMessage(answers);
}

async function main(): Promise<void> {
  const server = await startServer();
  try {
    await liveP99(server.url); // warm-up
    const idle = await liveP99(server.url);
    const control = await underLoad(server.url, 'control');
    const abused = await underLoad(server.url, 'abuse');
    const loaded = abused.latency;
    console.log(`\n/health/live while ${ABUSERS} anonymous clients send maximum-size documents and bodies`);
    console.log('| phase | probes | p50 ms | p99 ms | max ms |');
    console.log('|---|---:|---:|---:|---:|');
    console.log(
      `| idle | ${SAMPLES} | ${idle.p50.toFixed(1)} | ${idle.p99.toFixed(1)} | ${idle.max.toFixed(1)} |`,
    );
    const c = control.latency;
    console.log(
      `| ${ABUSERS} clients sending small requests (control) | ${SAMPLES} | ${c.p50.toFixed(1)} | ${c.p99.toFixed(1)} | ${c.max.toFixed(1)} |`,
    );
    console.log(
      `| under abuse | ${SAMPLES} | ${loaded.p50.toFixed(1)} | ${loaded.p99.toFixed(1)} | ${loaded.max.toFixed(1)} |`,
    );
    const ratio = loaded.p99 / idle.p99;
    const ok = loaded.p99 < 50 && ratio <= 5;
    console.log(
      `\np99 under abuse ${loaded.p99.toFixed(1)} ms = ${ratio.toFixed(1)}x idle (target: < 50 ms and <= 5x): ${ok ? 'met' : 'NOT met'}`,
    );
    const total = abused.total;
    const seconds = abused.seconds;
    const sent = Object.values(total).reduce((n, c) => n + Object.values(c).reduce((a, b) => a + b, 0), 0);
    console.log(`${sent} abusive requests during the ${seconds.toFixed(1)} s of probes, answered:`);
    for (const [name, counts] of Object.entries(total)) console.log(`  ${name}: ${JSON.stringify(counts)}`);
  } finally {
    probeAgent.destroy();
    await server.stop();
  }
}

if (!isMainThread) {
  const { url, first, mode } = workerData as { url: string; first: number; mode: 'abuse' | 'control' };
  void abuse(url, first, mode);
} else
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
