import http from 'node:http';
import https from 'node:https';
import type { ReceiverAddresses } from './receiver-address';

/**
 * POSTs `body` to a webhook receiver and answers its status: only to addresses `addresses`
 * accepts (an address in the URL is checked first; a name's addresses as the connection is made),
 * never following a redirect, within `timeoutMs` until the answer's status line. The answer's
 * body is not read (its connection is closed). Rejects with the reason when nothing was answered.
 */
export function postToReceiver(
  target: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  addresses: ReceiverAddresses,
): Promise<number> {
  const url = new URL(target);
  const refused = addresses.urlRefusal(url);
  if (refused) return Promise.reject(new Error(refused));
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<number>((resolve, reject) => {
    const req = client.request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup: addresses.lookup,
        signal: AbortSignal.timeout(timeoutMs),
        agent: false,
      },
      (res) => {
        resolve(res.statusCode ?? 0);
        res.destroy();
      },
    );
    req.on('error', (err: Error) => {
      reject(err.name === 'AbortError' ? new Error(`no answer within ${timeoutMs} ms`) : err);
    });
    req.end(body);
  });
}
