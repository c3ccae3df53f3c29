/** The realm of API keys, on both transports (`/metrics` has a token and a realm of its own). */
export const API_REALM = 'catalog';

/**
 * The `WWW-Authenticate` challenge every 401 carries (RFC 9110 §11.6.1): the Bearer scheme and
 * the realm, plus `error="invalid_token"` when the request sent credentials that were refused
 * (RFC 6750 §3: a request without any gets no error code).
 */
export function bearerChallenge(authorization: string | undefined, realm = API_REALM): string {
  return authorization?.trim() ? `Bearer realm="${realm}", error="invalid_token"` : `Bearer realm="${realm}"`;
}
