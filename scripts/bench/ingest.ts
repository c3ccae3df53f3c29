import fs from 'node:fs';
import fsp from 'node:fs/promises';
import http from 'node:http';
import { freePort, procStatus, resetPeak, pidOf } from '../lib/process';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import sharp from 'sharp';
import { H5Session } from '../../src/ingestors/h5/session';

/**
 * Ingestion throughput and memory. An API process (role `api`) records uploads; a separate
 * worker process (`ROLE=worker`, WORKER_CONCURRENCY as configured, default 2) ingests them, so
 * its memory is measured alone. Both share the embedded database (served on a port) and the
 * filesystem store, or use DATABASE_URL when set.
 *
 * 1. Small images: BENCH_INGEST_IMAGES (default 200) distinct 640×480 PNGs are uploaded with the
 *    worker stopped; then the worker starts and the time until every request is final gives
 *    files per second.
 * 2. A large HDF5 file: a ScopeFoundry-shaped file of BENCH_INGEST_H5_MB (default 1024 MiB), a
 *    2-D float32 dataset the preview is drawn from, is uploaded and ingested; the worker's peak
 *    RSS (kernel high-water mark, reset just before) is reported with its resting RSS.
 *
 * Usage: npm run bench:ingest      (BENCH_INGEST_H5_MB=256 BENCH_INGEST_IMAGES=50 for a quick run;
 * BENCH_INGEST_H5_MB=0 skips the HDF5 case)
 */
const MiB = 1024 * 1024;
const IMAGES = Number(process.env.BENCH_INGEST_IMAGES ?? 200);
const H5_MB = Number(process.env.BENCH_INGEST_H5_MB ?? 1024);
/** `BENCH_INGEST_CPU_PROF=<dir>`: the worker writes a CPU profile there (`node --cpu-prof`) */
const PROFILE = process.env.BENCH_INGEST_CPU_PROF;
const ADMIN_KEY = `bench-admin-${randomBytes(16).toString('hex')}`;

const mib = (bytes: number) => (bytes / MiB).toFixed(1);

interface Proc {
  proc: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
}

async function start(env: Record<string, string>, until: string, nodeArgs: string[] = []): Promise<Proc> {
  const proc = spawn(process.execPath, [...nodeArgs, 'dist/src/main.js'], {
    env: { ...process.env, LOG_LEVEL: 'info', ADMIN_API_KEY: ADMIN_KEY, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-20000)));
  proc.stderr.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-20000)));
  for (let i = 0; i < 1200 && !out.includes(until); i++) {
    if (proc.exitCode !== null) throw new Error(`process exited:\n${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    proc,
    output: () => out,
    async stop() {
      if (proc.exitCode !== null) return;
      proc.kill('SIGTERM');
      await new Promise((r) => proc.once('exit', r));
    },
  };
}

async function api<T>(base: string, method: string, p: string, body?: unknown): Promise<T> {
  const res = await fetch(`${base}/api/v2${p}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json: unknown = await res.json();
  if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(json)}`);
  return json as T;
}

/** A form upload of a file on disk, streamed. */
function uploadFile(base: string, ds: string, file: string, name: string): Promise<number> {
  const boundary = `----bench${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n` +
      `Content-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const length = head.length + fs.statSync(file).size + tail.length;
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${base}/api/v2/datasets/${ds}/files`,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${ADMIN_KEY}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(length),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => {
          resolve(res.statusCode ?? 0);
        });
      },
    );
    req.on('error', reject);
    req.write(head);
    const stream = fs.createReadStream(file, { highWaterMark: MiB });
    stream.pipe(req, { end: false });
    stream.on('end', () => req.end(tail));
    stream.on('error', reject);
  });
}

async function statuses(base: string, ds: string): Promise<Map<string, number>> {
  const page = await api<{ items: { status: string }[] }>(
    base,
    'GET',
    `/ingestion_requests?dataset_id=${ds}&limit=1000`,
  );
  const counts = new Map<string, number>();
  for (const r of page.items) counts.set(r.status, (counts.get(r.status) ?? 0) + 1);
  return counts;
}

async function waitFinal(base: string, ds: string, total: number): Promise<Map<string, number>> {
  for (;;) {
    const counts = await statuses(base, ds);
    const open = (counts.get('requested') ?? 0) + (counts.get('started') ?? 0);
    if (open === 0 && [...counts.values()].reduce((a, b) => a + b, 0) >= total) return counts;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Writes a ScopeFoundry-shaped file with one 2-D float32 dataset of `mb` MiB (in the HDF5 thread). */
function writeBigH5(
  h5: unknown,
  _state: Record<string, unknown>,
  input: { path: string; mb: number },
): number {
  interface G {
    create_group(n: string): G;
    create_attribute(n: string, v: unknown): void;
    create_dataset(a: Record<string, unknown>): {
      resize(s: number[]): void;
      write_slice(r: number[][], d: unknown): void;
    };
  }
  const lib = h5 as { File: new (p: string, m: string) => G & { close(): void } };
  const f = new lib.File(input.path, 'w');
  f.create_attribute('time_id', 1_700_000_000);
  f.create_group('app').create_attribute('name', 'bench_app');
  const group = f.create_group('measurement').create_group('camera');
  group.create_attribute('exposure_s', 0.1);
  const cols = 1024;
  const block = 256;
  const blocks = Math.max(1, Math.round((input.mb * 1024 * 1024) / (cols * block * 4)));
  const data = new Float32Array(block * cols);
  const ds = group.create_dataset({
    name: 'frames',
    data,
    shape: [block, cols],
    maxshape: [null, cols],
    chunks: [block, cols],
  });
  for (let b = 1; b < blocks; b++) {
    for (let i = 0; i < data.length; i++) data[i] = Math.sin((b * block + i / cols) / 50) + (i % cols) / cols;
    ds.resize([(b + 1) * block, cols]);
    ds.write_slice(
      [
        [b * block, (b + 1) * block],
        [0, cols],
      ],
      data,
    );
  }
  f.close();
  return blocks * block;
}

async function main(): Promise<void> {
  const work = await fsp.mkdtemp(path.join(os.tmpdir(), 'bench-ingest-'));
  const dataDir = path.join(work, 'data');
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const dbPort = await freePort();
  const databaseUrl =
    process.env.DATABASE_URL ?? `postgresql://postgres:postgres@127.0.0.1:${dbPort}/postgres`;
  const common = { DATA_DIR: dataDir, JOB_POLL_INTERVAL_MS: '200', MAX_UPLOAD_BYTES: String(8 * 1024 * MiB) };
  const apiProc = await start(
    { ...common, ROLE: 'api', PORT: String(port), EMBEDDED_DB_PORT: String(dbPort), LOG_LEVEL: 'warn' },
    '',
  );
  const procs: Proc[] = [apiProc];
  try {
    for (let i = 0; i < 600; i++) {
      try {
        if ((await fetch(`${base}/health/ready`)).ok) break;
      } catch {
        /* not up yet */
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    const startWorker = async () => {
      const w = await start(
        { ...common, ROLE: 'worker', DATABASE_URL: databaseUrl },
        'worker started',
        PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE}`] : [],
      );
      procs.push(w);
      return w;
    };

    // 1. small images
    const images = await api<{ unique_id: string }>(base, 'POST', '/datasets', {
      dataset_name: 'bench images',
    });
    const png = path.join(work, 'image.png');
    for (let i = 0; i < IMAGES; i++) {
      // distinct content (no dedup), smooth enough to compress like a photo
      const noise = randomBytes(32 * 24 * 3);
      await sharp(noise, { raw: { width: 32, height: 24, channels: 3 } })
        .resize(640, 480, { kernel: 'cubic' })
        .png()
        .toFile(png);
      const status = await uploadFile(base, images.unique_id, png, `image-${i}.png`);
      if (status !== 201) throw new Error(`upload ${i}: ${status}`);
    }
    const pngSize = fs.statSync(png).size;
    let worker = await startWorker();
    const t0 = Date.now();
    const counts = await waitFinal(base, images.unique_id, IMAGES);
    const seconds = (Date.now() - t0) / 1000;
    const imageRss = procStatus(pidOf(worker.proc), 'VmHWM');
    await worker.stop();
    console.log(`images: ${IMAGES} in ${seconds.toFixed(2)} s, ${(IMAGES / seconds).toFixed(1)} files/s`);
    if (H5_MB === 0) return;

    // 2. a large HDF5 file
    const h5 = path.join(work, 'big_camera.h5');
    const session = new H5Session();
    const tg = Date.now();
    await session.call('writeBigH5', writeBigH5, { path: h5, mb: H5_MB });
    await session.close();
    const h5Size = fs.statSync(h5).size;
    const writeSeconds = (Date.now() - tg) / 1000;
    worker = await startWorker();
    const pid = pidOf(worker.proc);
    await new Promise((r) => setTimeout(r, 1000));
    const resting = procStatus(pid, 'VmRSS');
    resetPeak(pid);
    const big = await api<{ unique_id: string }>(base, 'POST', '/datasets', { dataset_name: 'bench hdf5' });
    const tu = Date.now();
    const status = await uploadFile(base, big.unique_id, h5, 'big_camera.h5');
    if (status !== 201) throw new Error(`upload of the HDF5 file: ${status}`);
    const uploadSeconds = (Date.now() - tu) / 1000;
    const ti = Date.now();
    const h5Counts = await waitFinal(base, big.unique_id, 1);
    const ingestSeconds = (Date.now() - ti) / 1000;
    const peak = procStatus(pid, 'VmHWM');
    const thumbs = await api<unknown[]>(base, 'GET', `/datasets/${big.unique_id}/thumbnails`);
    await worker.stop();

    console.log(
      `\nIngestion benchmark (${os.cpus().length} cores, ${process.env.DATABASE_URL ? 'PostgreSQL' : 'embedded database'}, filesystem store)`,
    );
    console.log('| case | files | bytes each | seconds | files/s | worker peak RSS | outcome |');
    console.log('|---|---:|---:|---:|---:|---:|---|');
    console.log(
      `| small PNG images (640×480) | ${IMAGES} | ${(pngSize / 1024).toFixed(0)} KiB | ${seconds.toFixed(2)} | ${(IMAGES / seconds).toFixed(1)} | ${mib(imageRss)} MiB | ${JSON.stringify(Object.fromEntries(counts))} |`,
    );
    console.log(
      `| ScopeFoundry HDF5, 2-D float32 | 1 | ${mib(h5Size)} MiB | ${ingestSeconds.toFixed(2)} | | ${mib(peak)} MiB (resting ${mib(resting)} MiB, +${mib(peak - resting)} MiB) | ${JSON.stringify(Object.fromEntries(h5Counts))}, ${thumbs.length} thumbnail |`,
    );
    console.log(
      `\n(HDF5 file written in ${writeSeconds.toFixed(1)} s, uploaded in ${uploadSeconds.toFixed(1)} s; the ingestion time includes spooling it from the store to a temporary file.)`,
    );
  } finally {
    for (const p of procs.reverse()) await p.stop();
    await fsp.rm(work, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
