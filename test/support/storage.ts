import fs from 'node:fs';
import path from 'node:path';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import type { ObjectStore } from '../../src/core/storage/object-store';
import { S3ObjectStore } from '../../src/core/storage/s3-store';
import { startLocalS3, type LocalS3 } from './s3';
import { startTestApp, type TestApp } from './app';

export type StoreKind = 'filesystem' | 's3';
export const STORE_KINDS: StoreKind[] = ['filesystem', 's3'];

/** A test app on the given store kind (s3rver started alongside for `s3`). */
export async function startAppOn(kind: StoreKind, env: Record<string, string> = {}): Promise<TestApp> {
  let s3: LocalS3 | undefined;
  if (kind === 's3') s3 = await startLocalS3();
  const t = await startTestApp({ ...(s3?.env ?? {}), ...env });
  const close = t.close.bind(t);
  t.close = async () => {
    await close();
    await s3?.close();
  };
  return t;
}

function walk(dir: string, base = dir): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? walk(full, base) : [path.relative(base, full)];
  });
}

/**
 * Every object key in the store under `prefix`; on the filesystem the working directories
 * (.tmp, .multipart) count too, so leftovers of failed writes show up.
 */
export async function listKeys(store: ObjectStore, prefix = ''): Promise<string[]> {
  if (store instanceof S3ObjectStore) {
    const out = await store.client.send(new ListObjectsV2Command({ Bucket: store.name, Prefix: prefix }));
    return (out.Contents ?? []).map((o) => o.Key!).sort();
  }
  const root = (store as unknown as { root: string }).root;
  return walk(root)
    .filter((k) => k.startsWith(prefix) || k.startsWith('.'))
    .sort();
}
