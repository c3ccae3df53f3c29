import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../lib/process';
import { percentile } from './lib';

/**
 * The responsiveness of the service while anonymous clients send it the largest documents and
 * bodies they can. Two probes, one after the other: `/health/live`, and an authorized GraphQL
 * query (`{ me { orcid } }` with an API key). Phases: idle; BENCH_ABUSERS clients (default 4)
 * sending small anonymous requests (control); the same number looping over a 9 MB GraphQL
 * document (`{ __typename … }` 800,000 times), a GraphQL document at the anonymous limits, a
 * 10 MiB JSON body and a 9 MB text body to REST routes, none with an API key (abuse). The phases
 * alternate BENCH_ROUNDS times (default 3) so that a shared machine's load falls on all of them;
 * the table gives each phase's median p99 over the rounds and its ratio to idle.
 * Target: p99 under abuse below 50 ms and within 5× of idle, for both probes.
 * Usage: npm run bench:abuse  (BENCH_SAMPLES probes of each kind per phase and round, default
 * 200; the service runs as its own process, on DATABASE_URL when set, otherwise on an embedded
 * database; BENCH_NODE_ARGS adds node options to it, e.g. `--cpu-prof --cpu-prof-dir=/tmp/p`).
 */
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 200);
const ABUSERS = Number(process.env.BENCH_ABUSERS ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const MiB = 1024 * 1024;
const ADMIN_KEY = `bench-${randomBytes(24).toString('hex')}`;

async function startServer(): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'bench-abuse-'));
  const url = `http://127.0.0.1:${port}`;
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const proc = spawn(process.execPath, [...nodeArgs, 'dist/src/main.js'], {
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ADMIN_API_KEY: ADMIN_KEY,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  // a loaded machine can take a minute or more to start the embedded database
  for (let i = 0; ; i++) {
    if (i === 3000) throw new Error('the service did not become ready within 5 minutes');
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

const controlAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const CONTROL = JSON.stringify({ query: '{ me { orcid } }' });

/** The authorized control query: GraphQL with an API key (authentication, Apollo, a resolver). */
function controlQuery(url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${url}/graphql`,
      {
        method: 'POST',
        agent: controlAgent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(CONTROL),
          authorization: `Bearer ${ADMIN_KEY}`,
        },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => {
          if (res.statusCode === 200 && text.includes('orcid')) resolve();
          else reject(new Error(`${res.statusCode} ${text}`));
        });
      },
    );
    req.on('error', reject);
    req.end(CONTROL);
  });
}

interface Latency {
  p50: number;
  p99: number;
  max: number;
}
const summary = (times: number[]): Latency => {
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99), max: times[times.length - 1] };
};

/** SAMPLES probes of each kind, alternating health and control. */
async function probeBoth(url: string): Promise<{ live: Latency; control: Latency }> {
  const live: number[] = [];
  const control: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    let t0 = performance.now();
    await probe(url);
    live.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 3));
    t0 = performance.now();
    await controlQuery(url);
    control.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 3));
  }
  return { live: summary(live), control: summary(control) };
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

type Phase = 'idle' | 'control' | 'abuse';

/** Probes while ABUSERS threads run `mode` (none when idle); returns the latencies and the answers. */
async function phase(url: string, mode: Phase) {
  const workers =
    mode === 'idle'
      ? []
      : Array.from(
          { length: ABUSERS },
          (_, k) => new Worker(__filename, { workerData: { url, first: k, mode } }),
        );
  if (workers.length) await new Promise((r) => setTimeout(r, 1000));
  const started = performance.now();
  const latency = await probeBoth(url);
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

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** One abusive client, in a thread of its own (its work must not delay the probes). */
async function abuse(url: string, first: number, mode: Exclude<Phase, 'idle'>): Promise<void> {
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
  const load = () =>
    os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ');
  try {
    const loadBefore = load();
    await probeBoth(server.url); // warm-up
    const phases: Phase[] = ['idle', 'control', 'abuse'];
    const runs: Record<Phase, { live: Latency; control: Latency }[]> = { idle: [], control: [], abuse: [] };
    const answered: Answers = {};
    let abusiveSent = 0;
    let abusiveSeconds = 0;
    for (let round = 0; round < ROUNDS; round++) {
      for (const p of phases) {
        const r = await phase(server.url, p);
        runs[p].push(r.latency);
        if (p === 'abuse') {
          abusiveSeconds += r.seconds;
          for (const [name, counts] of Object.entries(r.total)) {
            for (const [status, n] of Object.entries(counts)) {
              const byStatus = (answered[name] ??= {}) as Record<number, number | undefined>;
              byStatus[Number(status)] = (byStatus[Number(status)] ?? 0) + n;
              abusiveSent += n;
            }
          }
        }
      }
    }
    console.log(
      `\n${ROUNDS} rounds of idle / ${ABUSERS} small-request clients (control) / ${ABUSERS} abusive clients, ${SAMPLES} probes of each kind per phase; load average before: ${loadBefore}, after: ${load()} (${os.cpus().length} CPUs)`,
    );
    console.log(
      '| phase | /health/live p50 | p99 (median of rounds) | x idle | GraphQL { me } p50 | p99 (median of rounds) | x idle | p99 per round (live; me) |',
    );
    console.log('|---|---:|---:|---:|---:|---:|---:|---|');
    const p99 = (p: Phase, k: 'live' | 'control') => median(runs[p].map((r) => r[k].p99));
    const p50 = (p: Phase, k: 'live' | 'control') => median(runs[p].map((r) => r[k].p50));
    for (const p of phases) {
      const rounds = runs[p].map((r) => `${r.live.p99.toFixed(0)}; ${r.control.p99.toFixed(0)}`).join(' / ');
      console.log(
        `| ${p} | ${p50(p, 'live').toFixed(1)} | ${p99(p, 'live').toFixed(1)} | ${(p99(p, 'live') / p99('idle', 'live')).toFixed(1)} | ${p50(p, 'control').toFixed(1)} | ${p99(p, 'control').toFixed(1)} | ${(p99(p, 'control') / p99('idle', 'control')).toFixed(1)} | ${rounds} |`,
      );
    }
    for (const k of ['live', 'control'] as const) {
      const abused = p99('abuse', k);
      const ratio = abused / p99('idle', k);
      const ok = abused < 50 && ratio <= 5;
      console.log(
        `${k === 'live' ? '/health/live' : 'GraphQL { me }'}: p99 under abuse ${abused.toFixed(1)} ms = ${ratio.toFixed(1)}x idle (target: < 50 ms and <= 5x): ${ok ? 'met' : 'NOT met'}`,
      );
    }
    console.log(`${abusiveSent} abusive requests during ${abusiveSeconds.toFixed(1)} s of probes, answered:`);
    for (const [name, counts] of Object.entries(answered))
      console.log(`  ${name}: ${JSON.stringify(counts)}`);
  } finally {
    probeAgent.destroy();
    controlAgent.destroy();
    await server.stop();
  }
}

if (!isMainThread) {
  const { url, first, mode } = workerData as { url: string; first: number; mode: Exclude<Phase, 'idle'> };
  void abuse(url, first, mode);
} else
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
