import fs from 'node:fs';
import fsp from 'node:fs/promises';
import http from 'node:http';
import { freePort, procStatus, resetPeak, pidOf } from '../lib/process';
import os from 'node:os';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';

/**
 * Streams one file (BENCH_UPLOAD_MB, default 1024 MiB) through each upload path (GraphQL
 * multipart, plain form upload, legacy resumable session) to each store (filesystem, a local
 * S3 server) and prints throughput and the server's peak RSS growth, next to a plain copy of
 * the same file to the same store (a stream copy with fsync; for S3 both lib-storage's Upload
 * and a raw multipart of file ranges, the faster counting). The server runs as its own process
 * (`node dist/src/main.js`) on the embedded database, or on DATABASE_URL when set. Each store
 * gets BENCH_UPLOAD_ROUNDS rounds (default 3); in each, every path runs right after a plain
 * copy of its own and is compared with it; the table gives medians and the median of the
 * per-round ratios.
 *
 * Usage: npm run bench:upload            (BENCH_UPLOAD_MB=256 npm run bench:upload for a quick run)
 */
const MiB = 1024 * 1024;
const SIZE_MB = Number(process.env.BENCH_UPLOAD_MB ?? 1024);
/** rounds per store (BENCH_UPLOAD_ROUNDS); each round copies the file plainly, then through each path */
const ROUNDS = Number(process.env.BENCH_UPLOAD_ROUNDS ?? 3);

/** only these stores / paths (comma separated), e.g. BENCH_UPLOAD_STORES=filesystem BENCH_UPLOAD_PATHS=resumable */
const STORES = (process.env.BENCH_UPLOAD_STORES ?? 'filesystem,s3').split(',');
const ONLY_PATHS = (process.env.BENCH_UPLOAD_PATHS ?? '').split(',').filter((p) => p !== '');

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const ADMIN_KEY = `bench-admin-${randomBytes(16).toString('hex')}`;

/**
 * s3rver in a process of its own (as S3 is in a deployment): in this one it would share the
 * event loop with the client sending the uploads, and the paths through the service (whose
 * bytes go client → service → S3) would pay for the client's work twice on one thread, unlike
 * the plain copies. Resolves with its port and a way to stop it.
 */
async function startS3rver(directory: string): Promise<{ port: number; close(): Promise<void> }> {
  const code = `
    const S3rver = require('s3rver');
    new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: ${JSON.stringify(directory)},
      configureBuckets: [{ name: 'bench' }] }).run().then(({ port }) => console.log(port));`;
  const proc = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    proc.stdout.once('data', (d: Buffer) => {
      resolve(Number(d.toString().trim()));
    });
    proc.once('exit', (c) => {
      reject(new Error(`s3rver exited (${c})`));
    });
  });
  return {
    port,
    close: async () => {
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      await exited;
    },
  };
}

interface Server {
  url: string;
  proc: ChildProcess;
  dataDir: string;
  stop(): Promise<void>;
}

async function startServer(env: Record<string, string>): Promise<Server> {
  const port = await freePort();
  const dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'bench-upload-'));
  const url = `http://127.0.0.1:${port}`;
  // BENCH_CPU_PROF=<dir>: the server writes its CPU profile there when it stops
  const prof = process.env.BENCH_CPU_PROF;
  const args = prof ? ['--cpu-prof', `--cpu-prof-dir=${prof}`, 'dist/src/main.js'] : ['dist/src/main.js'];
  const proc = spawn(process.execPath, args, {
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      PUBLIC_BASE_URL: url,
      ADMIN_API_KEY: ADMIN_KEY,
      LOG_LEVEL: 'warn',
      MAX_UPLOAD_BYTES: String(4 * 1024 * MiB),
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${url}/health/ready`)).ok) break;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    proc,
    dataDir,
    async stop() {
      proc.kill('SIGTERM');
      await new Promise((r) => proc.once('exit', r));
      await fsp.rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function api<T = Record<string, unknown>>(
  base: string,
  method: string,
  p: string,
  body?: unknown,
): Promise<T> {
  const res = await fetch(`${base}/api/v2${p}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json: unknown = await res.json();
  if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(json)}`);
  return json as T;
}

/** Sends `head`, the file, then `tail` as one request body; resolves with the response text. */
function send(
  url: string,
  method: string,
  headers: Record<string, string>,
  parts: { head?: Buffer; file: string; start?: number; end?: number; tail?: Buffer },
): Promise<{ status: number; text: string }> {
  const fileBytes =
    parts.end !== undefined
      ? parts.end - (parts.start ?? 0) + 1
      : fs.statSync(parts.file).size - (parts.start ?? 0);
  const length = (parts.head?.length ?? 0) + fileBytes + (parts.tail?.length ?? 0);
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method, headers: { ...headers, 'content-length': String(length) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, text });
        });
      },
    );
    req.on('error', reject);
    async function* body() {
      if (parts.head) yield parts.head;
      yield* fs.createReadStream(parts.file, { start: parts.start, end: parts.end, highWaterMark: MiB });
      if (parts.tail) yield parts.tail;
    }
    pipeline(Readable.from(body()), req).catch(reject);
  });
}

function multipart(fields: [string, string][], fileField: string, filename: string) {
  const boundary = `----bench${randomBytes(8).toString('hex')}`;
  const head =
    fields
      .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
      .join('') +
    `--${boundary}\r\nContent-Disposition: form-data; name="${fileField}"; filename="${filename}"\r\n` +
    'Content-Type: application/octet-stream\r\n\r\n';
  return {
    head: Buffer.from(head),
    tail: Buffer.from(`\r\n--${boundary}--\r\n`),
    type: `multipart/form-data; boundary=${boundary}`,
  };
}

/** The source file, and its SHA-256 (the legacy client hashes before it uploads). */
interface Source {
  file: string;
  sha256: string;
}

type Path = (server: Server, src: Source, datasetId: string) => Promise<void>;

const PATHS: Record<string, Path> = {
  graphql: async (server, { file }, ds) => {
    const operations = JSON.stringify({
      query:
        'mutation ($d: ID!, $f: Upload!) { addDatasetFile(dataset: $d, file: $f) { created file { size } } }',
      variables: { d: ds, f: null },
    });
    const m = multipart(
      [
        ['operations', operations],
        ['map', '{"0":["variables.f"]}'],
      ],
      '0',
      'bench.bin',
    );
    const r = await send(
      `${server.url}/graphql`,
      'POST',
      { 'content-type': m.type, authorization: `Bearer ${ADMIN_KEY}`, 'apollo-require-preflight': 'true' },
      { head: m.head, file, tail: m.tail },
    );
    if (r.status !== 200 || r.text.includes('"errors"')) throw new Error(`graphql: ${r.status} ${r.text}`);
  },
  form: async (server, { file }, ds) => {
    const m = multipart([], 'file', 'bench.bin');
    const r = await send(
      `${server.url}/api/v2/datasets/${ds}/files`,
      'POST',
      { 'content-type': m.type, authorization: `Bearer ${ADMIN_KEY}` },
      { head: m.head, file, tail: m.tail },
    );
    if (r.status !== 201) throw new Error(`form: ${r.status} ${r.text}`);
  },
  resumable: async (server, { file, sha256 }, ds) => {
    const size = fs.statSync(file).size;
    const init = await api<{ upload_id: string; resumable_uri: string; chunk_size_hint: number }>(
      server.url,
      'POST',
      `/datasets/${ds}/upload/initiate`,
      {
        filename: 'bench.bin',
        size,
      },
    );
    const chunk = Math.max(init.chunk_size_hint, 32 * MiB);
    for (let start = 0; start < size; start += chunk) {
      const end = Math.min(start + chunk, size) - 1;
      const r = await send(
        init.resumable_uri,
        'PUT',
        { 'content-range': `bytes ${start}-${end}/${size}` },
        { file, start, end },
      );
      if (r.status !== (end + 1 === size ? 200 : 308))
        throw new Error(`chunk ${start}: ${r.status} ${r.text}`);
    }
    await api(server.url, 'POST', `/datasets/${ds}/upload/complete`, {
      upload_id: init.upload_id,
      sha256_hash: sha256,
    });
  },
};

async function main(): Promise<void> {
  const work = await fsp.mkdtemp(path.join(os.tmpdir(), 'bench-src-'));
  const file = path.join(work, 'bench.bin');
  const block = randomBytes(MiB);
  const out = fs.createWriteStream(file);
  const hash = createHash('sha256');
  for (let i = 0; i < SIZE_MB; i++) {
    block.writeUInt32LE(i, 0); // every MiB differs
    const piece = Buffer.from(block);
    hash.update(piece);
    if (!out.write(piece))
      await new Promise<void>((r) =>
        out.once('drain', () => {
          r();
        }),
      );
  }
  await new Promise<void>((r) =>
    out.end(() => {
      r();
    }),
  );
  const src: Source = { file, sha256: hash.digest('hex') };
  const size = SIZE_MB * MiB;

  const s3Dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'bench-s3-'));
  const s3 = await startS3rver(s3Dir);
  const s3Port = s3.port;
  const s3Env = {
    S3_BUCKET: 'bench',
    S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_FORCE_PATH_STYLE: 'true',
  };
  const s3Client = new S3Client({
    endpoint: s3Env.S3_ENDPOINT,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });

  /** a raw SDK multipart upload: 8 MiB ranges of the file streamed as parts, two at a time */
  const rawMultipart = async () => {
    const { UploadId } = await s3Client.send(
      new CreateMultipartUploadCommand({ Bucket: 'bench', Key: 'plain-copy-raw' }),
    );
    const part = 8 * MiB;
    const count = Math.ceil(size / part);
    const etags: { PartNumber: number; ETag?: string }[] = [];
    let next = 0;
    const worker = async () => {
      while (next < count) {
        const n = next++;
        const length = Math.min(part, size - n * part);
        const out = await s3Client.send(
          new UploadPartCommand({
            Bucket: 'bench',
            Key: 'plain-copy-raw',
            UploadId,
            PartNumber: n + 1,
            ContentLength: length,
            Body: fs.createReadStream(file, {
              start: n * part,
              end: n * part + length - 1,
              highWaterMark: MiB,
            }),
          }),
        );
        etags[n] = { PartNumber: n + 1, ETag: out.ETag };
      }
    };
    await Promise.all([worker(), worker()]);
    await s3Client.send(
      new CompleteMultipartUploadCommand({
        Bucket: 'bench',
        Key: 'plain-copy-raw',
        UploadId,
        MultipartUpload: { Parts: etags },
      }),
    );
  };
  /** each store's plain copies; a round's anchor is the fastest of them */
  const baselines: Record<string, Record<string, (server: Server) => Promise<void>>> = {
    filesystem: {
      'stream copy + fsync': async (server) => {
        const target = path.join(server.dataDir, 'objects', 'plain-copy');
        await pipeline(fs.createReadStream(file, { highWaterMark: MiB }), fs.createWriteStream(target));
        const h = await fsp.open(target, 'r+');
        await h.sync();
        await h.close();
        await fsp.rm(target);
      },
    },
    s3: {
      'lib-storage Upload': async () => {
        await new Upload({
          client: s3Client,
          params: {
            Bucket: 'bench',
            Key: 'plain-copy',
            Body: fs.createReadStream(file, { highWaterMark: MiB }),
          },
          partSize: 8 * MiB,
          queueSize: 2,
        }).done();
      },
      'raw multipart': rawMultipart,
    },
  };

  console.log(
    `Upload benchmark: ${SIZE_MB} MiB file, ${ROUNDS} rounds, server = node dist/src/main.js (${process.env.DATABASE_URL ? 'DATABASE_URL' : 'embedded PostgreSQL'})`,
  );
  const table: string[] = [];
  const paths = Object.entries(PATHS).filter(
    ([name]) => ONLY_PATHS.length === 0 || ONLY_PATHS.includes(name),
  );
  try {
    for (const [store, env] of (
      [
        ['filesystem', {}],
        ['s3', s3Env],
      ] as const
    ).filter(([name]) => STORES.includes(name))) {
      const server = await startServer(env);
      const seconds: Record<string, number[]> = { plain: [] };
      const ratios: Record<string, number[]> = {};
      const growth: Record<string, number> = {};
      try {
        /** the plain copies, each timed; gives the fastest */
        const plainCopy = async (round: number) => {
          let plain = Infinity;
          for (const [anchor, copy] of Object.entries(baselines[store])) {
            const t0 = performance.now();
            await copy(server);
            const took = (performance.now() - t0) / 1000;
            (seconds[`plain copy (${anchor})`] ??= []).push(took);
            plain = Math.min(plain, took);
            console.log(`  round ${round + 1} ${store} plain copy (${anchor}): ${took.toFixed(2)} s`);
          }
          return plain;
        };
        // every round: each path right after a plain copy of its own (A/B alternation: the
        // machine's load drifts within a round), the ratio taken against that copy
        for (let round = 0; round < ROUNDS; round++) {
          for (const [name, run] of paths) {
            const plain = await plainCopy(round);
            seconds.plain.push(plain);
            const ds = (await api(server.url, 'POST', '/datasets', { dataset_name: `bench ${name}` }))
              .unique_id as string;
            const before = procStatus(pidOf(server.proc), 'VmRSS');
            resetPeak(pidOf(server.proc));
            const t0 = performance.now();
            await run(server, src, ds);
            const took = (performance.now() - t0) / 1000;
            const grew = procStatus(pidOf(server.proc), 'VmHWM') - before;
            const files = await api<{ size: number; sha256_hash: string }[]>(
              server.url,
              'GET',
              `/datasets/${ds}/files`,
            );
            if (files[0]?.size !== size || files[0]?.sha256_hash !== src.sha256) {
              throw new Error(`${name}: stored ${JSON.stringify(files[0])}`);
            }
            (seconds[name] ??= []).push(took);
            (ratios[name] ??= []).push(took / plain);
            growth[name] = Math.max(growth[name] ?? 0, grew);
            console.log(
              `  round ${round + 1} ${store} ${name}: ${took.toFixed(2)} s (plain copy ${plain.toFixed(2)} s, ${(took / plain).toFixed(2)}x), peak RSS growth ${(grew / MiB).toFixed(1)} MiB`,
            );
          }
        }
      } finally {
        await server.stop();
      }
      for (const anchor of Object.keys(baselines[store])) {
        const s = median(seconds[`plain copy (${anchor})`]);
        table.push(
          `| ${store} | plain copy (${anchor}) | ${s.toFixed(2)} | ${(SIZE_MB / s).toFixed(0)} | | |`,
        );
      }
      for (const [name] of paths) {
        const s = median(seconds[name]);
        table.push(
          `| ${store} | ${name} | ${s.toFixed(2)} | ${(SIZE_MB / s).toFixed(0)} | ${median(ratios[name]).toFixed(2)}x | ${(growth[name] / MiB).toFixed(1)} MiB |`,
        );
      }
    }
    console.log(
      `\nmedians of ${ROUNDS} rounds; the ratio is the median of each round's path / its fastest plain copy; growth: the largest`,
    );
    console.log('| store | path | seconds | MiB/s | vs plain copy | server peak RSS growth |');
    console.log('|---|---|---:|---:|---:|---:|');
    for (const line of table) console.log(line);
  } finally {
    await s3.close();
    await fsp.rm(s3Dir, { recursive: true, force: true });
    await fsp.rm(work, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
