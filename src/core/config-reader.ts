import { isIP } from 'node:net';

// The environment reader of `loadConfig` (config.ts) and the parsers of its settings that
// take more than a range or a list of values.

export interface DataciteSettings {
  /** DATACITE_API_URL, without a trailing slash */
  apiUrl: string;
  repositoryId: string;
  /** never logged: see `loadConfig`'s frozen copy (config.ts) and the logger's redaction */
  password: string;
  /** the DOI prefix (10.xxxx) every DOI this service makes starts with */
  prefix: string;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export type Env = Record<string, string | undefined>;

/** Reads settings from the environment, collecting every problem instead of stopping at the first. */
export class Reader {
  readonly problems: string[] = [];
  constructor(private readonly env: Env) {}

  str(name: string): string | undefined {
    const v = this.env[name];
    return v === undefined || v.trim() === '' ? undefined : v.trim();
  }

  /** A comma-separated setting's items, trimmed, the empty ones dropped (none when unset). */
  list(name: string): string[] {
    return (this.str(name) ?? '')
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean);
  }

  int(name: string, def: number, min: number, max: number): number {
    const raw = this.str(name);
    if (raw === undefined) return def;
    if (!/^\d+$/.test(raw)) {
      this.problems.push(`${name} must be a whole number (got "${raw}")`);
      return def;
    }
    const n = Number(raw);
    if (n < min || n > max) this.problems.push(`${name} must be between ${min} and ${max} (got ${n})`);
    return n;
  }

  bool(name: string, def: boolean): boolean {
    const raw = this.str(name);
    if (raw === undefined) return def;
    if (/^(true|1|yes)$/i.test(raw)) return true;
    if (/^(false|0|no)$/i.test(raw)) return false;
    this.problems.push(`${name} must be true or false (got "${raw}")`);
    return def;
  }

  oneOf<T extends string>(name: string, def: T, allowed: readonly T[]): T {
    const raw = this.str(name);
    if (raw === undefined) return def;
    if ((allowed as readonly string[]).includes(raw)) return raw as T;
    this.problems.push(`${name} must be one of ${allowed.join(', ')} (got "${raw}")`);
    return def;
  }

  url(name: string, protocols: string[]): string | undefined {
    const raw = this.str(name);
    if (raw === undefined) return undefined;
    try {
      const u = new URL(raw);
      if (!protocols.includes(u.protocol)) {
        this.problems.push(`${name} must use ${protocols.join(' or ')} (got "${u.protocol}")`);
      }
      return raw;
    } catch {
      this.problems.push(`${name} is not a valid URL`);
      return undefined;
    }
  }
}

/** `CORS_ORIGINS`: comma-separated exact origins, each `http(s)://host[:port]` without a path. */
export function corsOrigins(r: Reader): string[] {
  const origins: string[] = [];
  for (const item of r.list('CORS_ORIGINS')) {
    let origin: string | undefined;
    try {
      const u = new URL(item);
      if ((u.protocol === 'http:' || u.protocol === 'https:') && u.origin === item.replace(/\/$/, ''))
        origin = u.origin;
    } catch {
      origin = undefined;
    }
    if (origin) origins.push(origin);
    else
      r.problems.push(
        `CORS_ORIGINS: "${item}" is not an origin like https://app.example.org or http://localhost:5173`,
      );
  }
  return origins;
}

/** An address or a CIDR network (`10.20.0.0/16`, `fd00::/8`, `127.0.0.1`), or null when it is neither. */
export function parseNetwork(
  item: string,
): { address: string; prefix: number; family: 'ipv4' | 'ipv6' } | null {
  const parts = item.split('/');
  const version = isIP(parts[0]);
  if (!version || parts.length > 2) return null;
  const max = version === 6 ? 128 : 32;
  if (parts.length === 2 && !(/^\d{1,3}$/.test(parts[1]) && Number(parts[1]) <= max)) return null;
  return {
    address: parts[0],
    prefix: parts.length === 2 ? Number(parts[1]) : max,
    family: version === 6 ? 'ipv6' : 'ipv4',
  };
}

/**
 * `WEBHOOK_ALLOW_NETWORKS`: comma-separated addresses and CIDR networks (`10.20.0.0/16`,
 * `fd00::/8`, `127.0.0.1`) that webhooks may reach although they are not public (loopback,
 * private, link-local, ...: modules/webhook/receiver-address.ts). Empty by default.
 */
export function webhookAllowNetworks(r: Reader): string[] {
  const networks: string[] = [];
  for (const item of r.list('WEBHOOK_ALLOW_NETWORKS')) {
    if (parseNetwork(item)) networks.push(item);
    else
      r.problems.push(
        `WEBHOOK_ALLOW_NETWORKS: "${item}" is not an address or a network like 10.20.0.0/16 or fd00::/8`,
      );
  }
  return networks;
}

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** Whether `item` is an address, or an address/prefix length or address/mask, as Express reads them. */
function isProxyAddress(item: string): boolean {
  if (PROXY_NAMES.has(item)) return true;
  const slash = item.indexOf('/');
  const address = slash < 0 ? item : item.slice(0, slash);
  const version = isIP(address);
  if (!version || slash < 0) return version !== 0;
  const range = item.slice(slash + 1);
  if (/^\d{1,3}$/.test(range)) return Number(range) <= (version === 4 ? 32 : 128);
  return version === 4 && isIP(range) === 4;
}

/**
 * `TRUST_PROXY`: unset or `false` trusts no proxy; a hop count (1–32); or a list of the proxies'
 * addresses, CIDRs and Express's names. `true` (every hop, so the client's own header) is refused:
 * a client could then choose the address the sign-in limiter and the history see.
 */
export function trustProxy(r: Reader): false | number | string {
  const raw = r.str('TRUST_PROXY');
  if (raw === undefined || /^(false|0|no)$/i.test(raw)) return false;
  if (/^\d+$/.test(raw)) return r.int('TRUST_PROXY', 0, 1, 32);
  if (/^(true|yes)$/i.test(raw)) {
    r.problems.push(
      'TRUST_PROXY=true would believe any X-Forwarded-For a client sends: name the proxies (loopback, a CIDR such as 10.0.0.0/8) or their hop count (1)',
    );
    return false;
  }
  const items = r.list('TRUST_PROXY');
  const bad = items.filter((i) => !isProxyAddress(i));
  if (bad.length || !items.length) {
    r.problems.push(
      `TRUST_PROXY: "${bad[0] ?? raw}" is not a proxy address: use loopback, linklocal, uniquelocal, an IP address or a CIDR (10.0.0.0/8), comma-separated, or a hop count`,
    );
    return false;
  }
  return items.join(', ');
}

/**
 * `DATACITE_*`: configured when the repository id, password and prefix are all set; a partial
 * configuration is refused (a service meant to register DOIs must not quietly cite by URL).
 */
export function datacite(r: Reader): DataciteSettings | undefined {
  const apiUrl = (r.url('DATACITE_API_URL', ['http:', 'https:']) ?? 'https://api.datacite.org').replace(
    /\/+$/,
    '',
  );
  const repositoryId = r.str('DATACITE_REPOSITORY_ID');
  const password = r.str('DATACITE_PASSWORD');
  const prefix = r.str('DATACITE_PREFIX');
  const given = {
    DATACITE_REPOSITORY_ID: repositoryId,
    DATACITE_PASSWORD: password,
    DATACITE_PREFIX: prefix,
  };
  const missing = Object.entries(given)
    .filter(([, v]) => v === undefined)
    .map(([k]) => k);
  if (missing.length === 3) return undefined;
  if (missing.length) {
    r.problems.push(
      `DataCite is configured only in part: ${missing.join(', ')} missing (DATACITE_REPOSITORY_ID, DATACITE_PASSWORD and DATACITE_PREFIX go together)`,
    );
    return undefined;
  }
  if (prefix !== undefined && !/^10\.\d{4,9}$/.test(prefix))
    r.problems.push('DATACITE_PREFIX must be a DOI prefix such as 10.5072');
  if (repositoryId !== undefined && !/^[A-Za-z0-9.-]{1,100}$/.test(repositoryId))
    r.problems.push('DATACITE_REPOSITORY_ID must be a DataCite repository id such as DATACITE.EXAMPLE');
  return { apiUrl, repositoryId: repositoryId ?? '', password: password ?? '', prefix: prefix ?? '' };
}

export function queuePrefix(r: Reader): string {
  const raw = r.str('JOB_QUEUE_PREFIX') ?? '';
  if (!/^[A-Za-z0-9._-]{0,40}$/.test(raw))
    r.problems.push('JOB_QUEUE_PREFIX: letters, digits, . _ - only (at most 40)');
  return raw;
}

/** A PostgreSQL memory size between 1MB and 1GB ("16MB", "256kB"); 16MB by default. */
export function embeddedSharedBuffers(r: Reader): string {
  const raw = r.str('EMBEDDED_DB_SHARED_BUFFERS') ?? '16MB';
  const m = /^(\d{1,7})(kB|MB|GB)$/.exec(raw);
  const kb = m ? Number(m[1]) * { kB: 1, MB: 1024, GB: 1024 * 1024 }[m[2] as 'kB' | 'MB' | 'GB'] : 0;
  if (kb < 1024 || kb > 1024 * 1024)
    r.problems.push(`EMBEDDED_DB_SHARED_BUFFERS must be a size from 1MB to 1GB such as 16MB (got "${raw}")`);
  return raw;
}

export function storeName(r: Reader): string {
  const raw = r.str('LOCAL_STORE_NAME') ?? 'local-store';
  if (!/^[a-z0-9][a-z0-9._-]{0,62}$/.test(raw))
    r.problems.push('LOCAL_STORE_NAME: lowercase letters, digits, . _ - only');
  return raw;
}
