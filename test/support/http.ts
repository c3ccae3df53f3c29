/** Thin HTTP helpers: tests talk to the service over real HTTP. */
export interface Reply<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export async function rest<T = any>(
  base: string,
  method: string,
  path: string,
  opts: {
    key?: string | null;
    body?: unknown;
    query?: Record<string, string | string[] | number | boolean>;
    headers?: Record<string, string>;
    /** the wire version: `/api/v2` (the 3.1 client, the default) or `/api/v3` (the 3.2 client) */
    version?: 2 | 3;
  } = {},
): Promise<Reply<T>> {
  const url = new URL(`${base}/api/v${opts.version ?? 2}${path}`);
  for (const [k, v] of Object.entries(opts.query ?? {})) {
    for (const item of Array.isArray(v) ? v : [v]) url.searchParams.append(k, String(item));
  }
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.key) headers.authorization = `Bearer ${opts.key}`;
  let body: string | undefined;
  if (opts.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  const res = await fetch(url, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    /* keep the text */
  }
  return { status: res.status, body: parsed as T, headers: res.headers };
}

export interface GqlReply<T = any> {
  status: number;
  data?: T;
  errors?: {
    message: string;
    extensions?: { code?: string; fields?: { field: string; message: string }[] };
  }[];
}

export async function gql<T = any>(
  base: string,
  key: string | null,
  query: string,
  variables: Record<string, unknown> = {},
  extraHeaders: Record<string, string> = {},
): Promise<GqlReply<T>> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...extraHeaders };
  if (key) headers.authorization = `Bearer ${key}`;
  const res = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ query, variables }),
  });
  const json = (await res.json()) as { data?: T; errors?: GqlReply['errors'] };
  return { status: res.status, data: json.data ?? undefined, errors: json.errors };
}
