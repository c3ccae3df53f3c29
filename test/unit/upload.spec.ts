import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseContentRange } from '../../src/modules/upload/content-range';
import { ChunkSlice, collect } from '../../src/modules/upload/chunk-stream';
import { OffThreadDigest, stopDigestThread } from '../../src/core/storage/digest-thread';

afterAll(() => stopDigestThread());

describe('parseContentRange', () => {
  test.each([
    ['bytes 0-9/100', undefined, { kind: 'chunk', start: 0, end: 9, total: 100 }],
    ['bytes 10-19/*', undefined, { kind: 'chunk', start: 10, end: 19, total: null }],
    ['bytes */100', undefined, { kind: 'probe', total: 100 }],
    [undefined, 5, { kind: 'chunk', start: 0, end: 4, total: 5 }],
    [undefined, undefined, { kind: 'probe', total: null }],
  ])('%s', (header, length, expected) => {
    expect(parseContentRange(header, length)).toEqual(expected);
  });

  test.each(['bytes 9-0/100', 'bytes 0-100/100', 'bytes=0-9/100', 'bytes 0-9'])('%s is refused', (header) => {
    expect(() => parseContentRange(header, undefined)).toThrow(/Content-Range/);
  });
});

describe('ChunkSlice', () => {
  const run = async (pieces: string[], skip: number, wanted: number) => {
    const digest = OffThreadDigest.start();
    const slice = new ChunkSlice(skip, wanted, digest);
    const [out] = await Promise.all([
      collect(slice),
      pipeline(Readable.from(pieces.map((p) => Buffer.from(p))), slice),
    ]);
    return out.toString();
  };

  test('skips the overlap across pieces and keeps the rest', async () => {
    expect(await run(['abc', 'defg', 'hij'], 5, 5)).toBe('fghij');
    expect(await run(['abcdefghij'], 0, 10)).toBe('abcdefghij');
  });

  test('a body shorter or longer than announced fails', async () => {
    await expect(run(['abc'], 0, 5)).rejects.toThrow(/ended before/);
    await expect(run(['abcdef'], 0, 5)).rejects.toThrow(/longer/);
  });
});
