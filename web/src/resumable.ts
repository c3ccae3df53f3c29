import { csrfToken } from './session';
import { ApiError } from './client';

/** Files of at least this size go through the resumable protocol (docs/files-and-storage.md). */
export const RESUMABLE_FROM = 8 * 1024 * 1024;
/** The size of one PUT: what a dropped connection costs at most. */
const CHUNK = 8 * 1024 * 1024;
/** Attempts per chunk before the upload is given up (each after a status probe). */
const ATTEMPTS = 5;

interface Callbacks {
  onHashing: () => void;
  onProgress: (loaded: number) => void;
  onRetry: () => void;
}

async function json<T>(res: Response): Promise<T> {
  const body = (await res.json().catch(() => ({}))) as T & { detail?: string; message?: string };
  if (!res.ok)
    throw new ApiError(
      body.detail ?? body.message ?? `The service answered ${res.status}`,
      undefined,
      res.status,
    );
  return body;
}

/** The SHA-256 of a file, read in chunks (plain JavaScript, loaded only when a large file comes). */
async function sha256(file: File): Promise<string> {
  const { Sha256 } = await import('./sha256');
  const h = new Sha256();
  for (let at = 0; at < file.size; at += CHUNK) {
    h.update(new Uint8Array(await file.slice(at, at + CHUNK).arrayBuffer()));
  }
  return h.hex();
}

/** How many bytes the session holds (the status probe): the next chunk starts there. */
async function received(path: string, total: number): Promise<number | 'done'> {
  const res = await fetch(path, {
    method: 'PUT',
    credentials: 'omit',
    headers: { 'content-range': `bytes */${total}` },
  });
  if (res.status === 200 || res.status === 201) return 'done';
  if (res.status !== 308)
    throw new ApiError(`The upload session answered ${res.status}`, undefined, res.status);
  const range = res.headers.get('range');
  const m = range ? /bytes=0-(\d+)/.exec(range) : null;
  return m ? Number(m[1]) + 1 : 0;
}

/**
 * Uploads a file through the resumable protocol: its SHA-256 first (a file the dataset already
 * holds is found at once: `existing`), then PUTs of `CHUNK` bytes; after a failed PUT it asks
 * the session what it holds and resumes from there.
 */
export async function uploadResumable(
  datasetId: string,
  file: File,
  on: Callbacks,
): Promise<{ existing: boolean; fileId: string }> {
  on.onHashing();
  const hash = await sha256(file);
  const base = `/api/v2/datasets/${encodeURIComponent(datasetId)}/upload`;
  const headers = { 'content-type': 'application/json', 'x-csrf-token': csrfToken() };
  const started = await json<{
    upload_id: string | null;
    resumable_uri: string | null;
    existing_file: { mfid: string } | null;
  }>(
    await fetch(`${base}/initiate`, {
      method: 'POST',
      credentials: 'same-origin',
      headers,
      body: JSON.stringify({ filename: file.name, size: file.size, sha256_hash: hash }),
    }),
  );
  if (started.existing_file) return { existing: true, fileId: started.existing_file.mfid };
  if (!started.upload_id || !started.resumable_uri)
    throw new ApiError('The service started no upload', undefined, 0);
  // the session's address on this origin (the service may name itself by another host)
  const path = new URL(started.resumable_uri, location.href).pathname;
  let at = 0;
  let failures = 0;
  while (at < file.size) {
    const end = Math.min(at + CHUNK, file.size);
    on.onProgress(at);
    try {
      const res = await fetch(path, {
        method: 'PUT',
        credentials: 'omit',
        headers: { 'content-range': `bytes ${at}-${end - 1}/${file.size}` },
        body: file.slice(at, end),
      });
      if (res.status !== 308 && !res.ok)
        throw new ApiError(`The upload session answered ${res.status}`, undefined, res.status);
      at = end;
      failures = 0;
    } catch (e) {
      failures += 1;
      if (failures >= ATTEMPTS) throw e;
      on.onRetry();
      await new Promise((r) => setTimeout(r, 300 * failures));
      const got = await received(path, file.size).catch(() => at);
      if (got === 'done') at = file.size;
      else at = got;
    }
  }
  on.onProgress(file.size);
  const done = await json<{ mfid: string }>(
    await fetch(`${base}/complete`, {
      method: 'POST',
      credentials: 'same-origin',
      headers,
      body: JSON.stringify({ upload_id: started.upload_id, sha256_hash: hash }),
    }),
  );
  return { existing: false, fileId: done.mfid };
}
