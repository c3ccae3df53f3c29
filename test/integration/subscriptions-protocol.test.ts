import WebSocket from 'ws';
import { CloseCode } from 'graphql-ws';
import { startTestApp, type TestApp } from '../support/app';
import { makeUser, type TestUser } from '../support/factories';
import { gql } from '../support/http';
import { SOCKETS_PER_KEY_CLOSE_CODE } from '../../src/core/graphql/subscriptions';

/**
 * The WebSocket endpoint as a graphql-ws client sees it: an operation refused over WebSocket
 * has the `extensions.code` the same document gets over HTTP, and our own limits close sockets
 * with codes graphql-ws does not reserve.
 */
let t: TestApp;
let alice: TestUser;
beforeAll(async () => {
  t = await startTestApp({ SUBSCRIPTION_SOCKETS_PER_KEY: '1', GRAPHQL_MAX_DOCUMENT_BYTES: '2048' });
  alice = await makeUser(t.app);
}, 120_000);
afterAll(() => t.close());

const PROTOCOL = 'graphql-transport-ws';
type Message = { type: string; id?: string; payload?: unknown };

/** A raw graphql-ws socket: its messages as they come, and its close code. */
function open(key: string): Promise<{ ws: WebSocket; messages: Message[]; closed: Promise<number> }> {
  const ws = new WebSocket(`${t.url.replace(/^http/, 'ws')}/graphql`, PROTOCOL);
  const messages: Message[] = [];
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  ws.on('message', (data: Buffer) => messages.push(JSON.parse(data.toString()) as Message));
  return new Promise((resolve, reject) => {
    ws.on('error', reject);
    ws.on('open', () => {
      ws.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${key}` } }));
      resolve({ ws, messages, closed });
    });
  });
}

async function until<T>(read: () => T | undefined, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const SUBSCRIPTION = 'subscription($r: ID) { resourceEvents(resource: $r) { type } }';

const REFUSED: [string, string, Record<string, unknown>][] = [
  ['a syntax error', 'subscription { resourceEvents(', {}],
  ['an unknown field', 'subscription { noSuchField }', {}],
  ['an unknown argument', 'subscription { resourceEvents(nope: 1) { type } }', {}],
  [
    'variables that do not coerce',
    'subscription($r: ID!) { resourceEvents(resource: $r) { type } }',
    { r: null },
  ],
  ['variables of the wrong type', SUBSCRIPTION, { r: { not: 'an id' } }],
  ['a NUL character in a literal', 'subscription { resourceEvents(resource: "a\\u0000b") { type } }', {}],
  ['a document over the byte limit', `subscription { resourceEvents { type ${' '.repeat(3000)} } }`, {}],
  ['variables holding a NUL character', SUBSCRIPTION, { r: 'a\u0000b' }],
];

test.each(REFUSED)(
  '%s: the same extensions.code over WebSocket as over HTTP',
  async (_name, query, variables) => {
    const overHttp = await gql(t.url, alice.key, query, variables);
    const httpCode = overHttp.errors?.[0]?.extensions?.code;
    expect(httpCode).toEqual(expect.any(String));

    const socket = await open(alice.key);
    try {
      await until(() => socket.messages.find((m) => m.type === 'connection_ack'));
      socket.ws.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query, variables } }));
      const answer = await until(() => socket.messages.find((m) => m.id === '1'));
      const payload = answer.payload as { errors?: unknown[] } | unknown[];
      const errors = (Array.isArray(payload) ? payload : (payload.errors ?? [])) as {
        extensions?: { code?: string; http?: unknown };
      }[];
      expect(errors[0]?.extensions?.code).toBe(httpCode);
      expect(errors[0]?.extensions?.http).toBeUndefined();
    } finally {
      socket.ws.close();
      await socket.closed;
    }
  },
);

test('a socket over the per-key limit is closed with our own code, not one graphql-ws reserves', async () => {
  const reserved = Object.values(CloseCode).filter((v): v is number => typeof v === 'number');
  expect(reserved).toContain(4429);
  expect(reserved).not.toContain(SOCKETS_PER_KEY_CLOSE_CODE);
  expect(SOCKETS_PER_KEY_CLOSE_CODE).toBeGreaterThanOrEqual(4000);
  expect(SOCKETS_PER_KEY_CLOSE_CODE).toBeLessThan(5000);

  const first = await open(alice.key);
  try {
    await until(() => first.messages.find((m) => m.type === 'connection_ack'));
    const second = await open(alice.key);
    expect(await second.closed).toBe(SOCKETS_PER_KEY_CLOSE_CODE);
    expect(second.messages.find((m) => m.type === 'connection_ack')).toBeUndefined();
  } finally {
    first.ws.close();
    await first.closed;
  }
  // the place is free again once the first socket has gone
  const third = await open(alice.key);
  await until(() => third.messages.find((m) => m.type === 'connection_ack'));
  third.ws.close();
  await third.closed;
});
