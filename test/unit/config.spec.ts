import path from 'node:path';
import { ConfigError, loadConfig } from '../../src/core/config';

describe('configuration', () => {
  test('runs with nothing set: role all, embedded database, filesystem store under ./data', () => {
    const c = loadConfig({});
    expect(c.role).toBe('all');
    expect(c.databaseUrl).toBeUndefined();
    expect(c.s3).toBeUndefined();
    expect(c.dataDir).toBe(path.resolve('./data'));
    expect(c.port).toBe(8000);
    expect(c.limits.maxPageSize).toBe(1000);
    expect(c.publicBaseUrl).toBe('http://localhost:8000');
  });

  test('reports every problem at once', () => {
    let error: unknown;
    try {
      loadConfig({
        ROLE: 'scheduler',
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        S3_ACCESS_KEY_ID: 'a',
        ADMIN_API_KEY: 'short',
        LOG_LEVEL: 'loud',
        MAX_PAGE_SIZE: '0',
      });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    for (const name of [
      'ROLE',
      'PORT',
      'DATABASE_URL',
      'S3_BUCKET',
      'ADMIN_API_KEY',
      'LOG_LEVEL',
      'MAX_PAGE_SIZE',
    ]) {
      expect(problems).toContain(name);
    }
  });

  test('a worker needs a database server', () => {
    expect(() => loadConfig({ ROLE: 'worker' })).toThrow(/ROLE=worker needs DATABASE_URL/);
    expect(loadConfig({ ROLE: 'worker', DATABASE_URL: 'postgresql://h/db' }).role).toBe('worker');
  });

  test('S3 settings switch the object store', () => {
    const c = loadConfig({
      S3_BUCKET: 'catalog',
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_ACCESS_KEY_ID: 'k',
      S3_SECRET_ACCESS_KEY: 's',
    });
    expect(c.s3).toEqual({
      bucket: 'catalog',
      endpoint: 'http://127.0.0.1:9000',
      region: 'us-east-1',
      accessKeyId: 'k',
      secretAccessKey: 's',
      forcePathStyle: true,
    });
    expect(() => loadConfig({ S3_BUCKET: 'catalog', S3_ACCESS_KEY_ID: 'k' })).toThrow(/set together/);
  });
  test('TRUST_PROXY: off by default; a hop count or named proxies as Express reads them; never true', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: 'loopback' }).trustProxy).toBe('loopback');
    expect(
      loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8,fd00::/8 , 192.0.2.1/255.255.255.0' }).trustProxy,
    ).toBe('loopback, 10.0.0.0/8, fd00::/8, 192.0.2.1/255.255.255.0');
    for (const [value, problem] of [
      ['true', /TRUST_PROXY=true would believe any X-Forwarded-For/],
      ['localhost', /TRUST_PROXY: "localhost" is not a proxy address/],
      ['10.0.0.0/33', /"10.0.0.0\/33" is not a proxy address/],
      ['loopback,10.0.0.300', /"10.0.0.300"/],
      ['99', /TRUST_PROXY must be between 1 and 32/],
    ] as const) {
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(problem);
    }
  });
  test('WEBHOOK_ALLOW_NETWORKS: none by default; addresses and CIDR networks, each checked', () => {
    expect(loadConfig({}).webhooks.allowNetworks).toEqual([]);
    expect(
      loadConfig({ WEBHOOK_ALLOW_NETWORKS: ' 10.20.0.0/16, fd00::/8,127.0.0.1 ' }).webhooks.allowNetworks,
    ).toEqual(['10.20.0.0/16', 'fd00::/8', '127.0.0.1']);
    for (const value of [
      'intranet',
      '10.0.0.0/33',
      'fd00::/129',
      '10.0.0.0/8/1',
      '10.0.0.0/x',
      '10.0.0.300',
    ]) {
      expect(() => loadConfig({ WEBHOOK_ALLOW_NETWORKS: value })).toThrow(
        `WEBHOOK_ALLOW_NETWORKS: "${value}" is not an address or a network`,
      );
    }
  });
});
