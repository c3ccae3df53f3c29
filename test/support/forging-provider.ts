import http from 'node:http';
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import type { AddressInfo } from 'node:net';

/**
 * A tiny OpenID provider whose token endpoint answers what the test asks for: discovery, JWKS,
 * an authorization endpoint that approves at once, and a token endpoint that checks the code
 * and PKCE verifier like a real provider, then returns an ID token forged as `forge` says.
 * Used to show that the catalog refuses broken tokens; the real provider (oidc-provider.mjs)
 * cannot be made to sign them. Codes are single-use, as at a real provider.
 */

/** What the ID token of the next token answer claims; `undefined` drops a claim. */
export type Claims = Record<string, unknown>;

export interface Forgery {
  /** changes the claims of a correct ID token (iss, sub, aud, exp, iat, nonce, email...) */
  claims?: (claims: Claims) => Claims;
  /** `other-key`: signed with a key not in the JWKS (same kid); `none`: unsigned (alg none) */
  signature?: 'other-key' | 'none';
  /** the `state` the authorization endpoint sends back instead of the one it was given */
  state?: string;
}

export interface ForgingProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** the forgery of the next sign-ins (none: an honest provider) */
  forge: Forgery;
  /** the person the ID tokens are about */
  person: Claims;
  close(): Promise<void>;
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

function jwt(header: Claims, claims: Claims, key: KeyObject | null): string {
  const body = `${b64(header)}.${b64(claims)}`;
  if (!key) return `${body}.`;
  return `${body}.${sign('sha256', Buffer.from(body), key).toString('base64url')}`;
}

interface Grant {
  clientId: string;
  redirectUri: string;
  nonce?: string;
  challenge: string;
}

export async function startForgingProvider(): Promise<ForgingProvider> {
  const good = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = 'forging-provider-key';
  const grants = new Map<string, Grant>();
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider: ForgingProvider = {
    issuer,
    clientId: 'catalog',
    clientSecret: 'forging-provider-client-secret',
    forge: {},
    person: {},
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(JSON.stringify(body));
  };

  server.on('request', (req, res) => {
    const url = new URL(req.url ?? '/', issuer);
    if (req.method === 'GET' && url.pathname === '/.well-known/openid-configuration') {
      json(res, 200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['client_secret_post'],
      });
      return;
    }
    if (req.method === 'GET' && url.pathname === '/jwks') {
      json(res, 200, {
        keys: [{ ...good.publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' }],
      });
      return;
    }
    if (req.method === 'GET' && url.pathname === '/authorize') {
      const q = url.searchParams;
      const redirectUri = q.get('redirect_uri') ?? '';
      if (q.get('client_id') !== provider.clientId || q.get('code_challenge_method') !== 'S256') {
        json(res, 400, { error: 'invalid_request' });
        return;
      }
      const code = randomBytes(16).toString('base64url');
      grants.set(code, {
        clientId: provider.clientId,
        redirectUri,
        nonce: q.get('nonce') ?? undefined,
        challenge: q.get('code_challenge') ?? '',
      });
      const back = new URL(redirectUri);
      back.searchParams.set('code', code);
      back.searchParams.set('state', provider.forge.state ?? q.get('state') ?? '');
      res.writeHead(302, { location: back.href }).end();
      return;
    }
    if (req.method === 'POST' && url.pathname === '/token') {
      let raw = '';
      req.on('data', (c: Buffer) => (raw += c.toString()));
      req.on('end', () => {
        const form = new URLSearchParams(raw);
        const code = form.get('code') ?? '';
        const grant = grants.get(code);
        // single use: a replayed code is refused whatever else it carries
        grants.delete(code);
        const verifier = form.get('code_verifier') ?? '';
        if (
          !grant ||
          form.get('client_id') !== grant.clientId ||
          form.get('client_secret') !== provider.clientSecret ||
          form.get('redirect_uri') !== grant.redirectUri ||
          createHash('sha256').update(verifier).digest('base64url') !== grant.challenge
        ) {
          json(res, 400, { error: 'invalid_grant', error_description: 'the code is unknown or used' });
          return;
        }
        const now = Math.floor(Date.now() / 1000);
        const honest: Claims = {
          iss: issuer,
          aud: provider.clientId,
          iat: now,
          exp: now + 300,
          nonce: grant.nonce,
          ...provider.person,
        };
        const claims = provider.forge.claims ? provider.forge.claims(honest) : honest;
        const signature = provider.forge.signature;
        const idToken =
          signature === 'none'
            ? jwt({ alg: 'none', typ: 'JWT' }, claims, null)
            : jwt(
                { alg: 'RS256', typ: 'JWT', kid },
                claims,
                signature === 'other-key' ? other.privateKey : good.privateKey,
              );
        json(res, 200, {
          access_token: randomBytes(16).toString('base64url'),
          token_type: 'Bearer',
          expires_in: 300,
          id_token: idToken,
        });
      });
      return;
    }
    json(res, 404, { error: 'not_found' });
  });
  return provider;
}
