import { loadConfig } from '../../src/core/config';
import { S3ObjectStore } from '../../src/core/storage/s3-store';

/** Presigned download URLs name the address clients reach (S3_PUBLIC_ENDPOINT), not the internal one. */
const base = {
  S3_BUCKET: 'catalog',
  S3_ENDPOINT: 'http://minio:9000',
  S3_ACCESS_KEY_ID: 'catalog',
  S3_SECRET_ACCESS_KEY: 'catalog-secret-key',
};

test('with S3_PUBLIC_ENDPOINT, presigned URLs point at it', async () => {
  const config = loadConfig({ ...base, S3_PUBLIC_ENDPOINT: 'http://localhost:9000' });
  const url = new URL(
    await new S3ObjectStore(config.s3!).presignedUrl('ds/file', { expiresInSeconds: 60, filename: 'a.txt' }),
  );
  expect(url.origin).toBe('http://localhost:9000');
  expect(url.pathname).toBe('/catalog/ds/file');
  expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
});

test('without it, presigned URLs use S3_ENDPOINT', async () => {
  const config = loadConfig(base);
  const url = new URL(await new S3ObjectStore(config.s3!).presignedUrl('ds/file', { expiresInSeconds: 60 }));
  expect(url.origin).toBe('http://minio:9000');
});

test('S3_PUBLIC_ENDPOINT must be a URL and needs S3_BUCKET', () => {
  expect(() => loadConfig({ ...base, S3_PUBLIC_ENDPOINT: 'not a url' })).toThrow(/S3_PUBLIC_ENDPOINT/);
  expect(() => loadConfig({ S3_PUBLIC_ENDPOINT: 'http://localhost:9000' })).toThrow(/S3_BUCKET is required/);
});
