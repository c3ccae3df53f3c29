import fs from 'node:fs';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { checkCompose } from '../../scripts/check-compose';

/** docker-compose.yml against the compose schema and the deployment rules (no Docker engine here). */
const root = path.resolve(__dirname, '../..');
const text = fs.readFileSync(path.join(root, 'docker-compose.yml'), 'utf8');

function edit(change: (doc: any) => void): string {
  const doc = parse(text, { merge: true }) as Record<string, any>;
  change(doc);
  return stringify(doc);
}

test('the committed compose file passes', () => {
  expect(checkCompose(text, root)).toEqual([]);
});

test('the keycloak profile: a pinned Keycloak importing the trial realm, wired to the catalog', () => {
  const doc = parse(text, { merge: true }) as Record<string, any>;
  const kc = doc.services.keycloak;
  expect(kc.profiles).toEqual(['keycloak']);
  expect(kc.image).toMatch(/^quay\.io\/keycloak\/keycloak:\d+\.\d+\.\d+$/);
  expect(kc.command).toEqual(expect.arrayContaining(['start-dev', '--import-realm']));
  expect(kc.volumes).toContain('./deploy/keycloak/realm.json:/opt/keycloak/data/import/realm.json:ro');
  // the issuer both the browser and the catalog use
  const issuer = `${kc.environment.KC_HOSTNAME}/realms/catalog`;
  expect(issuer).toBe('http://keycloak:8080/realms/catalog');
  // the catalog (api and worker share the settings) reads OIDC_* from the environment, unset: off
  for (const name of ['api', 'worker']) {
    expect(doc.services[name].environment).toMatchObject({
      OIDC_ISSUER: '${OIDC_ISSUER:-}',
      OIDC_CLIENT_ID: '${OIDC_CLIENT_ID:-}',
      OIDC_CLIENT_SECRET: '${OIDC_CLIENT_SECRET:-}',
    });
  }
  expect(kc.environment.CATALOG_CLIENT_SECRET).toBe('${OIDC_CLIENT_SECRET:-}');

  const realm = JSON.parse(fs.readFileSync(path.join(root, 'deploy/keycloak/realm.json'), 'utf8'));
  expect(realm.realm).toBe('catalog');
  const client = realm.clients.find((c: { clientId: string }) => c.clientId === 'catalog');
  expect(client).toMatchObject({
    publicClient: false,
    standardFlowEnabled: true,
    implicitFlowEnabled: false,
    directAccessGrantsEnabled: false,
    // the secret comes from the environment (a Keycloak placeholder), never from this file
    secret: '${CATALOG_CLIENT_SECRET}',
    attributes: { 'pkce.code.challenge.method': 'S256' },
  });
  // the compose file's default PUBLIC_BASE_URL, plus /auth/callback
  const base = /\$\{PUBLIC_BASE_URL:-([^}]+)\}/.exec(text)?.[1];
  expect(client.redirectUris).toEqual([`${base}/auth/callback`]);
  const [ada] = realm.users;
  expect(ada).toMatchObject({ username: 'ada', enabled: true, emailVerified: true });
  expect(ada.credentials[0].value).toBe('${KEYCLOAK_TEST_USER_PASSWORD}');
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
  [
    'a secret with a non-empty default in an optional setting',
    text.replace('${OIDC_CLIENT_SECRET:-}', '${OIDC_CLIENT_SECRET:-dev-secret}'),
    /secret OIDC_CLIENT_SECRET must be required/,
  ],
  [
    'an always-on service depending on an optional one',
    edit((d) => (d.services.api.depends_on.keycloak = { condition: 'service_healthy' })),
    /api: depends on keycloak, which only starts with its profile/,
  ],
  [
    'a mounted host file that does not exist',
    edit(
      (d) =>
        (d.services.keycloak.volumes = [
          './deploy/keycloak/missing.json:/opt/keycloak/data/import/r.json:ro',
        ]),
    ),
    /keycloak: mounts .\/deploy\/keycloak\/missing.json, which does not exist/,
  ],
  [
    'an unpinned Keycloak',
    edit((d) => (d.services.keycloak.image = 'quay.io/keycloak/keycloak:latest')),
    /not pinned/,
  ],
])('%s is refused', (_what, changed, problem) => {
  expect(checkCompose(changed, root).join('\n')).toMatch(problem);
});
