import { createHash, randomBytes } from 'node:crypto';
import { Sha256 } from '../../web/src/sha256';

/** The page's incremental SHA-256 (resumable uploads) against Node's, fed in uneven pieces. */
test.each([0, 1, 55, 56, 63, 64, 65, 119, 120, 1000, 100_000, 1_048_579])('%i bytes', (n) => {
  const bytes = randomBytes(n);
  const h = new Sha256();
  for (let at = 0, k = 1; at < n; at += k, k = k * 3 + 1) h.update(bytes.subarray(at, at + k));
  expect(h.hex()).toBe(createHash('sha256').update(bytes).digest('hex'));
});
