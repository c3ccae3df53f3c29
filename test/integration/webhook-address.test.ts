import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestApp, type TestApp } from '../support/app';
import { gql, rest } from '../support/http';
import { makeUser, type TestUser } from '../support/factories';
import { newDataset } from '../support/catalog';
import { rawQuery } from '../../src/core/db/raw';
import { allowedNetworks, ReceiverAddresses, type Resolve } from '../../src/modules/webhook/receiver-address';
import { postToReceiver } from '../../src/modules/webhook/receiver-post';

/**
 * Webhooks reach public addresses only, unless an operator allows a network
 * (`WEBHOOK_ALLOW_NETWORKS`; docs/events.md, "Where receivers may be"): a subscriber cannot aim
 * the service at itself, the cloud's metadata service or the site's private networks, neither by
 * an address in the URL (refused at subscription, and at delivery for an older subscription) nor
 * by a name that resolves to one (refused as the connection is made). The service here runs with
 * no network allowed; the receiver listens on loopback and must hear nothing.
 */
let t: TestApp;
let alice: TestUser;
let heard: string[];
let receiver: http.Server;
let port: number;
beforeAll(async () => {
  t = await startTestApp({ WEBHOOK_ALLOW_NETWORKS: '', WEBHOOK_MAX_ATTEMPTS: '1' });
  alice = await makeUser(t.app);
  heard = [];
  receiver = http.createServer((req, res) => {
    heard.push(`${req.method} ${req.url}`);
    req.resume();
    res.end('ok');
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  port = (receiver.address() as AddressInfo).port;
});
afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((r) => receiver.close(r));
  await t.close();
});

const NOT_PUBLIC = () => [
  `http://127.0.0.1:${port}/hook`,
  `http://127.1.2.3:${port}/hook`,
  `http://[::1]:${port}/hook`,
  `http://[::ffff:127.0.0.1]:${port}/hook`,
  `http://0.0.0.0:${port}/hook`,
  `http://localhost:${port}/hook`,
  `http://LOCALHOST.:${port}/hook`,
  `http://api.localhost:${port}/hook`,
  'http://169.254.169.254/latest/meta-data/',
  'http://10.0.0.5/hook',
  'http://172.16.8.1/hook',
  'http://192.168.1.10/hook',
  'http://100.64.0.1/hook',
  'https://[fd00::1]/hook',
  'https://[fe80::1]/hook',
  'http://2130706433/hook', // 127.0.0.1 as one number
];

test('a subscription to an address that is not public is refused, over REST and GraphQL, and nothing is kept', async () => {
  const before = await rest(t.url, 'GET', '/webhooks', { key: alice.key });
  for (const url of NOT_PUBLIC()) {
    const res = await rest(t.url, 'POST', '/webhooks', { key: alice.key, body: { url } });
    expect([url, res.status]).toEqual([url, 422]);
    expect(JSON.stringify(res.body)).toMatch(/not a public address/);
  }
  const viaGraphql = await gql(
    t.url,
    alice.key,
    'mutation($url: String!) { createWebhook(input: { url: $url }) { secret } }',
    {
      url: `http://127.0.0.1:${port}/hook`,
    },
  );
  expect(viaGraphql.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
  expect(viaGraphql.errors?.[0].message).toMatch(/not a public address/);
  const after = await rest(t.url, 'GET', '/webhooks', { key: alice.key });
  expect(after.body).toEqual(before.body);
});

test('a public receiver is accepted, and cannot be changed to a private one', async () => {
  const made = await rest(t.url, 'POST', '/webhooks', {
    key: alice.key,
    body: { url: 'https://hooks.example.org/catalog', active: false },
  });
  expect(made.status).toBe(201);
  const changed = await rest(t.url, 'PATCH', `/webhooks/${made.body.unique_id}`, {
    key: alice.key,
    body: { url: 'http://169.254.169.254/latest/meta-data/' },
  });
  expect(changed.status).toBe(422);
  const read = await rest(t.url, 'GET', `/webhooks/${made.body.unique_id}`, { key: alice.key });
  expect(read.body.url).toBe('https://hooks.example.org/catalog');
});

test('a subscription made while its network was allowed delivers nothing once it is not: the attempt fails, saying why', async () => {
  const made = await rest(t.url, 'POST', '/webhooks', {
    key: alice.key,
    body: { url: 'https://hooks.example.org/later', event_types: ['dataset.created'] },
  });
  expect(made.status).toBe(201);
  // as if WEBHOOK_ALLOW_NETWORKS had allowed loopback when it was made
  await rawQuery(t.app.orm.em.fork(), 'update webhook_subscription set url = ? where unique_id = ?', [
    `http://127.0.0.1:${port}/hook`,
    made.body.unique_id,
  ]);
  await newDataset(t.url, alice.key, { dataset_name: 'to be told about' });
  await t.app.webhooks.drain();
  const log = await rest(t.url, 'GET', `/webhooks/${made.body.unique_id}/deliveries`, { key: alice.key });
  expect(log.body.items).toHaveLength(1);
  expect(log.body.items[0]).toMatchObject({ status: 'failed', last_status_code: null });
  expect(log.body.items[0].last_error).toMatch(/127\.0\.0\.1 is not a public address/);
  expect(heard).toEqual([]);
});

describe('a name is checked for the addresses it resolves to, as the connection is made', () => {
  // a resolver of its own: this machine has no DNS; everything else (the request, the socket,
  // the receiver) is real
  const names: Record<string, string[]> = {
    'inside.example': ['127.0.0.1'],
    'both.example': ['10.1.2.3', '127.0.0.1'],
  };
  const resolve: Resolve = (hostname, _options, callback) => {
    const found = names[hostname];
    if (!found)
      callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
    else
      callback(
        null,
        found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
      );
  };
  const post = (addresses: ReceiverAddresses, name: string) =>
    postToReceiver(
      `http://${name}:${port}/named`,
      { 'content-type': 'application/json' },
      '{}',
      5000,
      addresses,
    );

  test('a name resolving only to addresses that are not public reaches nothing', async () => {
    const strict = new ReceiverAddresses(allowedNetworks([]), resolve);
    await expect(post(strict, 'inside.example')).rejects.toThrow(
      'inside.example resolves to no public address (127.0.0.1)',
    );
    await expect(post(strict, 'both.example')).rejects.toThrow(
      /no public address \(10\.1\.2\.3, 127\.0\.0\.1\)/,
    );
    await expect(post(strict, 'nowhere.example')).rejects.toThrow(/ENOTFOUND/);
    expect(heard).toEqual([]);
  });

  test('with its network allowed, the same name is delivered to', async () => {
    const allowing = new ReceiverAddresses(allowedNetworks(['127.0.0.0/8']), resolve);
    await expect(post(allowing, 'inside.example')).resolves.toBe(200);
    // of both.example's addresses only the allowed one is used
    await expect(post(allowing, 'both.example')).resolves.toBe(200);
    expect(heard).toEqual(['POST /named', 'POST /named']);
    heard.length = 0;
  });
});

test('which addresses are public', () => {
  const strict = new ReceiverAddresses();
  const refused = (a: string) => strict.refusal(a) !== null;
  for (const a of [
    '127.0.0.1',
    '10.255.0.1',
    '172.31.255.255',
    '192.168.0.1',
    '169.254.169.254',
    '100.127.255.255',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '192.0.2.1',
    '198.18.0.1',
    '::',
    '::1',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'ff02::1',
    '::ffff:10.0.0.1',
    '::ffff:7f00:1',
    '64:ff9b::a00:1',
    '2001:db8::1',
  ])
    expect([a, refused(a)]).toEqual([a, true]);
  for (const a of [
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '100.128.0.1',
    '2001:4860:4860::8888',
    '::ffff:8.8.8.8',
    '2606:4700::1111',
  ])
    expect([a, refused(a)]).toEqual([a, false]);
  const some = new ReceiverAddresses(allowedNetworks(['10.20.0.0/16', 'fd00::/8', '192.168.1.7']));
  expect(some.refusal('10.20.3.4')).toBeNull();
  expect(some.refusal('10.21.0.1')).not.toBeNull();
  expect(some.refusal('fd00::5')).toBeNull();
  expect(some.refusal('192.168.1.7')).toBeNull();
  expect(some.refusal('192.168.1.8')).not.toBeNull();
  expect(some.refusal('::ffff:10.20.0.9')).toBeNull();
});
