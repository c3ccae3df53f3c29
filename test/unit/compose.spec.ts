import fs from 'node:fs';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { checkCompose } from '../../scripts/check-compose';

/** docker-compose.yml against the compose schema and the deployment rules (no Docker engine here). */
const text = fs.readFileSync(path.resolve(__dirname, '../../docker-compose.yml'), 'utf8');

function edit(change: (doc: any) => void): string {
  const doc = parse(text, { merge: true }) as Record<string, any>;
  change(doc);
  return stringify(doc);
}

test('the committed compose file passes', () => {
  expect(checkCompose(text)).toEqual([]);
});

test('the scaled services (api, worker) publish no fixed host port; every secret is required', () => {
  const doc = parse(text, { merge: true }) as Record<string, any>;
  expect(Object.keys(doc.services)).toEqual(
    expect.arrayContaining(['postgres', 'minio', 'api', 'worker', 'proxy']),
  );
  for (const name of ['api', 'worker']) {
    expect(doc.services[name].ports).toBeUndefined();
    expect(doc.services[name].build.args.GIT_COMMIT).toBeDefined();
  }
  expect(doc.services.api.environment.S3_PUBLIC_ENDPOINT).toMatch(/localhost:9000/);
  for (const secret of ['POSTGRES_PASSWORD', 'MINIO_ROOT_PASSWORD', 'ADMIN_API_KEY', 'URL_SIGNING_SECRET']) {
    expect(text).toMatch(new RegExp(`\\$\\{${secret}:\\?`));
    expect(text).not.toMatch(new RegExp(`\\$\\{${secret}:?-`));
  }
});

test.each([
  [
    'a secret with a default',
    text.replace('${ADMIN_API_KEY:?', '${ADMIN_API_KEY:-change-me'),
    /secret ADMIN_API_KEY must be required/,
  ],
  [
    'a literal secret',
    edit((d) => (d.services.postgres.environment.POSTGRES_PASSWORD = 'catalog')),
    /POSTGRES_PASSWORD is written in the file/,
  ],
  [
    'a literal URL password',
    edit((d) => (d.services.api.environment.DATABASE_URL = 'postgresql://catalog:catalog@postgres/catalog')),
    /literal password/,
  ],
  ['an unpinned image', edit((d) => (d.services.minio.image = 'minio/minio:latest')), /not pinned/],
  ['a bare image name', edit((d) => (d.services.proxy.image = 'nginx')), /not pinned/],
  [
    'a service without a health check',
    edit((d) => delete d.services.minio.healthcheck),
    /minio: no health check/,
  ],
  [
    'a disabled health check',
    edit((d) => (d.services.worker.healthcheck = { disable: true })),
    /worker: no health check/,
  ],
  [
    'a service without a restart policy',
    edit((d) => delete d.services.proxy.restart),
    /proxy: no restart policy/,
  ],
  [
    'a scaled service on a fixed host port',
    edit((d) => (d.services.api.ports = ['8000:8000'])),
    /must not publish host ports/,
  ],
  ['a build without GIT_COMMIT', edit((d) => delete d.services.worker.build.args), /GIT_COMMIT/],
  [
    'a field the compose schema does not know',
    edit((d) => (d.services.api.replicas_please = 2)),
    /schema: \/services\/api/,
  ],
  [
    'a malformed duration',
    edit((d) => (d.services.api.healthcheck.interval = 'ten seconds')),
    /schema: .*interval/,
  ],
  ['broken YAML', 'services: [', /not valid YAML/],
])('%s is refused', (_what, changed, problem) => {
  expect(checkCompose(changed).join('\n')).toMatch(problem);
});
