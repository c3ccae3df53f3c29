import { createHash } from 'node:crypto';
import type { TestApp } from './app';
import { rest, type Reply } from './http';
import { grant, makeUser, type TestUser } from './factories';
import type { GrantablePermission } from '../../src/modules/permission/permission';

export const sha256 = (b: Buffer | string): string => createHash('sha256').update(b).digest('hex');

/** A private dataset owned by `owner`, returning its MFID. */
export async function makeDataset(t: TestApp, owner: TestUser, name = 'files test'): Promise<string> {
  const r = await rest(t.url, 'POST', '/datasets', { key: owner.key, body: { dataset_name: name } });
  if (r.status !== 201) throw new Error(`dataset creation failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.unique_id as string;
}

/** A user holding `permission` on the dataset through a direct grant. */
export async function userWith(
  t: TestApp,
  datasetId: string,
  permission: GrantablePermission,
): Promise<TestUser> {
  const u = await makeUser(t.app);
  await grant(t.app, datasetId, 'dataset', 'user', u.user.uniqueId, permission);
  return u;
}

/** GraphQL multipart upload of one file to addDatasetFile. */
export async function gqlUpload(
  base: string,
  key: string | null,
  datasetId: string,
  filename: string,
  data: Buffer,
  opts: { ingestor?: string; preflight?: boolean } = {},
): Promise<{ status: number; body: any }> {
  const form = new FormData();
  form.append(
    'operations',
    JSON.stringify({
      query: `mutation ($d: ID!, $f: Upload!, $i: String) {
        addDatasetFile(dataset: $d, file: $f, ingestor: $i) {
          created ingestor file { uniqueId filename size sha256 storageBackend stored downloadUrl datasetId }
        }
      }`,
      variables: { d: datasetId, f: null, i: opts.ingestor ?? null },
    }),
  );
  form.append('map', JSON.stringify({ '0': ['variables.f'] }));
  form.append('0', new Blob([data]), filename);
  const headers: Record<string, string> = {};
  if (opts.preflight !== false) headers['apollo-require-preflight'] = 'true';
  if (key) headers.authorization = `Bearer ${key}`;
  const res = await fetch(`${base}/graphql`, { method: 'POST', headers, body: form });
  return { status: res.status, body: await res.json() };
}

/** A plain multipart/form-data upload to POST /datasets/{id}/files. */
export async function formUpload(
  base: string,
  key: string | null,
  datasetId: string,
  files: { name: string; data: Buffer }[],
  query = '',
): Promise<Reply> {
  const form = new FormData();
  for (const f of files) form.append('file', new Blob([f.data]), f.name);
  const headers: Record<string, string> = {};
  if (key) headers.authorization = `Bearer ${key}`;
  const res = await fetch(`${base}/api/v2/datasets/${datasetId}/files${query}`, {
    method: 'POST',
    headers,
    body: form,
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* keep the text */
  }
  return { status: res.status, body, headers: res.headers };
}

/** PUT one chunk (or a probe, with `data` null) to a resumable session URI, as the legacy client does. */
export async function putChunk(
  uri: string,
  range: string,
  data: Buffer | null,
  headers: Record<string, string> = {},
): Promise<{ status: number; range: string | null; body: any }> {
  const res = await fetch(uri, {
    method: 'PUT',
    headers: { 'content-range': range, ...headers },
    body: data ?? undefined,
    redirect: 'manual',
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    /* keep the text */
  }
  return { status: res.status, range: res.headers.get('range'), body };
}

/** The whole resumable flow: initiate, PUT in chunks, complete. Returns the complete reply. */
export async function resumableUpload(
  t: TestApp,
  key: string,
  datasetId: string,
  filename: string,
  data: Buffer,
  chunkSize = 256 * 1024,
  extra: Record<string, unknown> = {},
): Promise<{ initiate: Reply; complete?: Reply; finalChunk?: { status: number; body: any } }> {
  const base = t.url;
  const initiate = await rest(base, 'POST', `/datasets/${datasetId}/upload/initiate`, {
    key,
    body: { filename, size: data.length, sha256_hash: sha256(data), ...extra },
  });
  if (initiate.status !== 200 || initiate.body.existing_file) return { initiate };
  let finalChunk;
  for (let offset = 0; offset < data.length; offset += chunkSize) {
    const end = Math.min(offset + chunkSize, data.length) - 1;
    const uri = (initiate.body.resumable_uri as string).replace(t.app.config.publicBaseUrl, base);
    const r = await putChunk(uri, `bytes ${offset}-${end}/${data.length}`, data.subarray(offset, end + 1));
    const last = end + 1 === data.length;
    if (r.status !== (last ? 200 : 308))
      throw new Error(`chunk ${offset}: ${r.status} ${JSON.stringify(r.body)}`);
    if (last) finalChunk = r;
  }
  const complete = await rest(base, 'POST', `/datasets/${datasetId}/upload/complete`, {
    key,
    body: { upload_id: initiate.body.upload_id, sha256_hash: sha256(data) },
  });
  return { initiate, complete, finalChunk };
}
