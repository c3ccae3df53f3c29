import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { Client } from 'pg';
import { DIST } from '../support/process';

/**
 * The embedded database's wire front: several connections share PGlite's one session, and a
 * client's exchange (Parse … Sync) must not be split by another connection's messages, nor
 * may another connection run inside a client's transaction. The clients here speak the
 * protocol by hand so the test controls where a client pauses. The database runs in a child
 * process (PGlite cannot start inside a test file), whatever DATABASE_URL names.
 */
let child: ChildProcess;
let db: { url: string };
let port: number;

beforeAll(async () => {
  const script = `require(${JSON.stringify(path.join(DIST, 'core/db/embedded.js'))})
    .startEmbeddedPostgres({}).then((pg) => console.log('URL ' + pg.url));`;
  child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  db = {
    url: await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout?.on('data', (d: Buffer) => {
        out += d.toString();
        const url = /URL (\S+)/.exec(out)?.[1];
        if (url) resolve(url);
      });
      child.on('exit', (code) => reject(new Error(`embedded database exited ${code}`)));
    }),
  };
  port = Number(new URL(db.url).port);
}, 120_000);

afterAll(() => {
  child.kill('SIGKILL');
});

const message = (type: string, body: Buffer): Buffer => {
  const head = Buffer.alloc(5);
  head.write(type, 0);
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
};
const cstr = (s: string) => Buffer.from(`${s}\0`);
const int16 = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeInt16BE(n);
  return b;
};
const int32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
};

const parse = (sql: string) => message('P', Buffer.concat([cstr(''), cstr(sql), int16(0)]));
const bindText = (value: string) =>
  message(
    'B',
    Buffer.concat([
      cstr(''),
      cstr(''),
      int16(0),
      int16(1),
      int32(value.length),
      Buffer.from(value),
      int16(0),
    ]),
  );
const execute = () => message('E', Buffer.concat([cstr(''), int32(0)]));
const sync = () => message('S', Buffer.alloc(0));
const query = (sql: string) => message('Q', cstr(sql));

interface Reply {
  rows: string[][];
  errors: string[];
}

/** A client that writes protocol bytes as told and collects answers up to each ReadyForQuery. */
class RawClient {
  private buffer = Buffer.alloc(0);
  private current: Reply = { rows: [], errors: [] };
  private waiting: ((r: Reply) => void)[] = [];
  private replies: Reply[] = [];
  readonly socket: net.Socket;

  constructor() {
    this.socket = net.connect(port, '127.0.0.1');
    this.socket.on('data', (d) => this.receive(d));
  }

  async start(): Promise<void> {
    const params = Buffer.concat([
      cstr('user'),
      cstr('postgres'),
      cstr('database'),
      cstr('postgres'),
      cstr(''),
    ]);
    const body = Buffer.concat([int32(196608), params]);
    this.socket.write(Buffer.concat([int32(body.length + 4), body]));
    await this.reply();
  }

  send(...messages: Buffer[]): void {
    this.socket.write(Buffer.concat(messages));
  }

  /** The next answer ending in ReadyForQuery. */
  reply(): Promise<Reply> {
    const ready = this.replies.shift();
    if (ready) return Promise.resolve(ready);
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  get pendingReplies(): number {
    return this.replies.length;
  }

  private receive(data: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, data]);
    while (this.buffer.length >= 5) {
      const length = 1 + this.buffer.readInt32BE(1);
      if (this.buffer.length < length) return;
      const type = String.fromCharCode(this.buffer[0]);
      const body = this.buffer.subarray(5, length);
      this.buffer = this.buffer.subarray(length);
      if (type === 'D') {
        const row: string[] = [];
        let at = 2;
        for (let i = 0; i < body.readInt16BE(0); i++) {
          const n = body.readInt32BE(at);
          row.push(body.subarray(at + 4, at + 4 + n).toString());
          at += 4 + n;
        }
        this.current.rows.push(row);
      } else if (type === 'E') {
        const field = body
          .toString()
          .split('\0')
          .find((f) => f.startsWith('M'));
        this.current.errors.push(field?.slice(1) ?? 'error');
      } else if (type === 'Z') {
        const done = this.current;
        this.current = { rows: [], errors: [] };
        const waiter = this.waiting.shift();
        if (waiter) waiter(done);
        else this.replies.push(done);
      }
    }
  }
}

const settle = () => new Promise((r) => setTimeout(r, 150));

test("another connection's simple query between a client's Parse and Bind does not drop its statement", async () => {
  const a = new RawClient();
  const b = new RawClient();
  await a.start();
  await b.start();
  a.send(parse('select $1::int + 1 as v'));
  await settle();
  b.send(query('select 7'));
  expect(await b.reply()).toEqual({ rows: [['7']], errors: [] });
  a.send(bindText('41'), execute(), sync());
  expect(await a.reply()).toEqual({ rows: [['42']], errors: [] });
  a.socket.destroy();
  b.socket.destroy();
});

test("no connection runs inside another connection's transaction; a dropped connection's transaction is rolled back", async () => {
  const setup = new Client({ connectionString: db.url });
  await setup.connect();
  await setup.query('create table wire_t (n int)');
  const a = new RawClient();
  const b = new RawClient();
  await a.start();
  await b.start();
  a.send(query('begin; insert into wire_t values (1)'));
  expect((await a.reply()).errors).toEqual([]);
  b.send(query('select count(*) from wire_t'));
  await settle();
  expect(b.pendingReplies).toBe(0); // waits for a's transaction
  a.send(query('insert into wire_t values (2); commit'));
  expect((await a.reply()).errors).toEqual([]);
  expect((await b.reply()).rows).toEqual([['2']]);

  a.send(query('begin; insert into wire_t values (3)'));
  expect((await a.reply()).errors).toEqual([]);
  b.send(query('select count(*) from wire_t'));
  await settle();
  a.socket.destroy();
  expect((await b.reply()).rows).toEqual([['2']]);
  expect((await setup.query('select count(*)::int as n from wire_t')).rows).toEqual([{ n: 2 }]);
  b.socket.destroy();
  await setup.end();
});

test('parameterized queries of several pooled clients each get their own answers', async () => {
  const clients = await Promise.all(
    [0, 1, 2, 3].map(async () => {
      const c = new Client({ connectionString: db.url });
      await c.connect();
      return c;
    }),
  );
  const wrong = await Promise.all(
    clients.map(async (c, i) => {
      let bad = 0;
      for (let k = 0; k < 100; k++) {
        const v = k * 10 + i;
        const r = i % 2 === 0 ? await c.query('select $1::int as v', [v]) : await c.query(`select ${v} as v`);
        if (r.rows[0].v !== v) bad++;
      }
      return bad;
    }),
  );
  expect(wrong).toEqual([0, 0, 0, 0]);
  await Promise.all(clients.map((c) => c.end()));
});
