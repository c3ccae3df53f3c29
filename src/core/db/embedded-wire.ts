import net from 'node:net';
import { noteStatement } from '../auth/caller-cache';
import type { PGlite } from '@electric-sql/pglite';

/**
 * The PostgreSQL wire protocol in front of PGlite, for several client connections at once.
 *
 * PGlite is one backend session. Clients reach it over loopback TCP, and their messages are
 * handed to it one *exchange* at a time: everything a connection sends up to the message after
 * which it waits for an answer (Sync, a simple Query, Flush, …) runs as one exclusive unit. A
 * finer grain lets another connection's message run between a client's Parse and its Bind and
 * replace or drop the unnamed statement ("unnamed prepared statement does not exist", or worse,
 * a Bind to someone else's statement). While a connection has a transaction open, or an
 * extended-protocol exchange it ended with Flush rather than Sync, only that connection runs;
 * the others wait. A connection that goes away inside its transaction has it rolled back.
 */
export interface WireServer {
  port: number;
  stop(): Promise<void>;
}

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
/** Messages after which a client waits for the server: they close an exchange. */
const EXCHANGE_END = new Set(['S', 'Q', 'H', 'F', 'p', 'c', 'f', 'X']);

interface Connection {
  socket: net.Socket;
  buffer: Buffer;
  started: boolean;
  /** Whole messages of the exchange being received. */
  pending: Buffer[];
  /** Exchanges received and not yet run, in order. */
  ready: Buffer[][];
  closed: boolean;
}

/** The SQL text of a simple Query or a Parse message, or null. */
function statementText(message: Buffer): string | null {
  const type = String.fromCharCode(message[0]);
  if (type !== 'Q' && type !== 'P') return null;
  let start = 5;
  if (type === 'P') start = message.indexOf(0, start) + 1; // after the statement's name
  const end = message.indexOf(0, start);
  return start > 0 && end >= start ? message.toString('utf8', start, end) : null;
}

/** Every client's statements reach the authentication caches (the admin command line's too). */
function noteStatements(exchange: Buffer[]): void {
  for (const message of exchange) {
    const text = statementText(message);
    if (text) noteStatement(text);
  }
}

export async function serveWire(
  db: PGlite,
  opts: { host: string; port: number; maxConnections: number },
): Promise<WireServer> {
  const connections = new Set<Connection>();
  /** The connection whose transaction (or unfinished extended exchange) holds the session. */
  let owner: Connection | null = null;
  let running = false;

  const nextRunnable = (): Connection | undefined => {
    if (owner) return owner.ready.length > 0 || owner.closed ? owner : undefined;
    for (const c of connections) if (c.ready.length > 0) return c;
    return undefined;
  };

  // connections take turns exchange by exchange; a Set iterates in insertion order, so a
  // connection that has just run goes to the back of the line
  const pump = async (): Promise<void> => {
    if (running) return;
    running = true;
    try {
      for (let c = nextRunnable(); c; c = nextRunnable()) {
        if (c.closed) {
          await release(c);
          continue;
        }
        const exchange = c.ready.shift() as Buffer[];
        if (owner !== c) {
          connections.delete(c);
          connections.add(c);
        }
        const conn = c;
        let endsWithSync = true;
        try {
          await db.runExclusive(async () => {
            for (const message of exchange) {
              await db.execProtocolRawStream(new Uint8Array(message), {
                onRawData: (data) => {
                  if (!conn.closed && data.length > 0) conn.socket.write(Buffer.from(data));
                },
              });
            }
          });
          noteStatements(exchange);
          const last = exchange[exchange.length - 1];
          endsWithSync = conn.started ? last[0] !== 'H'.charCodeAt(0) : true;
        } catch {
          conn.socket.destroy();
        }
        owner = conn.closed || db.isInTransaction() || !endsWithSync ? conn : null;
      }
    } finally {
      running = false;
    }
  };

  /** Runs in the pump only, so nothing else reaches the session before the rollback. */
  const release = async (c: Connection): Promise<void> => {
    connections.delete(c);
    if (db.isInTransaction()) await db.exec('rollback').catch(() => undefined);
    owner = null;
  };

  const receive = (c: Connection, data: Buffer): void => {
    c.buffer = c.buffer.length === 0 ? data : Buffer.concat([c.buffer, data]);
    for (;;) {
      if (!c.started) {
        if (c.buffer.length < 8) return;
        const length = c.buffer.readInt32BE(0);
        if (length < 8 || length > 10_000) return void c.socket.destroy();
        if (c.buffer.length < length) return;
        const code = c.buffer.readInt32BE(4);
        const message = c.buffer.subarray(0, length);
        c.buffer = c.buffer.subarray(length);
        if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
          c.socket.write('N');
          continue;
        }
        if (code === CANCEL_REQUEST) return void c.socket.destroy(); // not supported
        c.started = true;
        c.ready.push([message]);
        continue;
      }
      if (c.buffer.length < 5) return;
      const length = 1 + c.buffer.readInt32BE(1);
      if (length < 5) return void c.socket.destroy();
      if (c.buffer.length < length) return;
      const message = c.buffer.subarray(0, length);
      c.buffer = c.buffer.subarray(length);
      c.pending.push(message);
      if (EXCHANGE_END.has(String.fromCharCode(message[0]))) {
        c.ready.push(c.pending);
        c.pending = [];
      }
    }
  };

  const server = net.createServer((socket) => {
    if (connections.size >= opts.maxConnections) return void socket.destroy();
    socket.setNoDelay(true);
    const c: Connection = {
      socket,
      buffer: Buffer.alloc(0),
      started: false,
      pending: [],
      ready: [],
      closed: false,
    };
    connections.add(c);
    socket.on('data', (data) => {
      receive(c, data);
      void pump();
    });
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      c.closed = true;
      c.ready = [];
      // a connection holding the session is released by the pump, which rolls its transaction back
      if (owner !== c) connections.delete(c);
      void pump();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      resolve();
    });
  });
  return {
    port: (server.address() as net.AddressInfo).port,
    async stop() {
      for (const c of connections) c.socket.destroy();
      await new Promise<void>((resolve) =>
        server.close(() => {
          resolve();
        }),
      );
    },
  };
}
