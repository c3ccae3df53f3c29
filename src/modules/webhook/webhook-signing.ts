import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** A new subscription secret, in the Standard Webhooks form `whsec_<base64 key>`. */
export function newSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

function key(secret: string): Buffer {
  return Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64');
}

/**
 * The `webhook-signature` header of a delivery (Standard Webhooks): `v1,` and the base64
 * HMAC-SHA256, under the secret's key, of `${id}.${timestamp}.${body}`.
 */
export function sign(secret: string, id: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', key(secret)).update(`${id}.${timestamp}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** Whether any signature of a `webhook-signature` header (space-separated) is valid: for receivers and tests. */
export function verify(secret: string, id: string, timestamp: number, body: string, header: string): boolean {
  const expected = Buffer.from(sign(secret, id, timestamp, body));
  return header.split(' ').some((candidate) => {
    const given = Buffer.from(candidate);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
