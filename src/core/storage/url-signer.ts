import { createHmac, timingSafeEqual } from 'node:crypto';

/** What a signed service URL grants: one object, offered under a name, until it expires. */
export interface SignedObject {
  key: string;
  filename: string;
  contentType: string;
  /** Unix seconds */
  expires: number;
  /**
   * Handed out while the object's dataset was under embargo to a caller exempt from it (signed
   * too: `embargo=exempt` in the URL); other links stop working while an embargo holds.
   */
  embargoExempt?: boolean;
}

export const SIGNED_OBJECT_PATH = '/api/v2/signed/objects';

/**
 * HMAC-SHA256 signed URLs through which the service itself serves objects without an API key
 * (the filesystem store has no URL signing of its own). The secret is shared by every replica:
 * URL_SIGNING_SECRET, or a random one kept in the database (see the setting service).
 */
export class UrlSigner {
  private secret: Buffer | null = null;

  constructor(private readonly publicBaseUrl: string) {}

  useSecret(secret: string): void {
    this.secret = Buffer.from(secret, 'utf8');
  }

  private mac(parts: string[]): Buffer {
    if (!this.secret) throw new Error('the URL signing secret has not been loaded');
    return createHmac('sha256', this.secret).update(parts.join('\n')).digest();
  }

  private fields(o: SignedObject): string[] {
    const base = ['object/v1', o.key, o.filename, o.contentType, String(o.expires)];
    return o.embargoExempt ? [...base, 'embargo-exempt'] : base;
  }

  objectUrl(o: SignedObject): string {
    const q = new URLSearchParams({
      name: o.filename,
      type: o.contentType,
      expires: String(o.expires),
      ...(o.embargoExempt ? { embargo: 'exempt' } : {}),
      signature: this.mac(this.fields(o)).toString('base64url'),
    });
    // one path segment (slashes as %2F), as the OpenAPI document's `/signed/objects/{key}` says;
    // the route's `*key` reads both this and the raw slashes of links handed out before
    return `${this.publicBaseUrl}${SIGNED_OBJECT_PATH}/${encodeURIComponent(o.key)}?${q.toString()}`;
  }

  /** The object a URL grants, or null when its signature is wrong or it has expired. */
  verifyObject(key: string, query: Record<string, unknown>, now = Date.now()): SignedObject | null {
    const str = (name: string) => (typeof query[name] === 'string' ? query[name] : null);
    const [filename, contentType, expiresText, signature] = ['name', 'type', 'expires', 'signature'].map(str);
    if (
      filename === null ||
      contentType === null ||
      signature === null ||
      !/^\d{1,12}$/.test(expiresText ?? '')
    ) {
      return null;
    }
    const embargo = str('embargo');
    if (embargo !== null && embargo !== 'exempt') return null;
    const o: SignedObject = {
      key,
      filename,
      contentType,
      expires: Number(expiresText),
      ...(embargo === 'exempt' ? { embargoExempt: true } : {}),
    };
    const expected = this.mac(this.fields(o));
    const given = Buffer.from(signature, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    return o.expires * 1000 >= now ? o : null;
  }
}
