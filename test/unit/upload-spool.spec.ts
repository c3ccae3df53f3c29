import { randomBytes } from 'node:crypto';
import { WriteStream } from 'graphql-upload-ts';
import { widenSpool } from '../../src/core/graphql/upload-spool';

/**
 * `followSpool` and `widenSpool` read internals of graphql-upload's spool (fs-capacitor's
 * WriteStream in the pinned graphql-upload-ts): its file descriptor, the bytes written so far,
 * its write buffer and its `_write`. An upgrade that changes them fails here, not silently in
 * production.
 */
describe("graphql-upload's spool, as the upload reader uses it", () => {
  test('a widened spool batches writes and reports its position; the bytes come back whole', async () => {
    const spool = new WriteStream();
    widenSpool(spool);
    expect(spool.writableHighWaterMark).toBe(4 * 1024 * 1024);
    const internals = spool as unknown as { _fd: number | null; _pos: number };
    const pieces = Array.from({ length: 40 }, () => randomBytes(64 * 1024));
    for (const p of pieces) expect(spool.write(p)).toBe(true); // 2.5 MiB: under the 4 MiB buffer
    await new Promise<void>((resolve) => spool.end(resolve));
    expect(typeof internals._fd).toBe('number');
    expect(internals._pos).toBe(40 * 64 * 1024);
    const back: Buffer[] = [];
    for await (const chunk of spool.createReadStream()) back.push(chunk as Buffer);
    expect(Buffer.concat(back).equals(Buffer.concat(pieces))).toBe(true);
    spool.release();
  });
});
