// A real OpenID Provider for the tests (the `oidc-provider` package, a certified implementation),
// run in its own process: `node test/support/oidc-provider.mjs` with OIDC_TEST_CLIENT (JSON of
// the client: client_id, client_secret, redirect_uris). Prints `listening <issuer>` when up.
// Its development login form takes any login: the login becomes the `sub`, and the claims below.
import Provider from 'oidc-provider';

const client = JSON.parse(process.env.OIDC_TEST_CLIENT ?? '{}');
const port = Number(process.env.OIDC_TEST_PORT ?? 0);

const claimsOf = (sub) => ({
  sub,
  email: `${sub}@example.org`,
  email_verified: true,
  given_name: 'Test',
  family_name: sub,
  preferred_username: sub,
});

const http = await import('node:http');
const server = http.createServer();
await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;
const provider = new Provider(issuer, {
  clients: [
    {
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_post',
      ...client,
    },
  ],
  findAccount: (_ctx, id) => ({ accountId: id, claims: () => claimsOf(id) }),
  claims: {
    openid: ['sub'],
    email: ['email', 'email_verified'],
    profile: ['given_name', 'family_name', 'preferred_username'],
  },
  pkce: { required: () => true },
  // the claims in the ID token itself, as Keycloak and ORCID send them
  conformIdTokenClaims: false,
  features: { devInteractions: { enabled: true } },
  cookies: { keys: ['catalog-test-provider-cookie-key'] },
});
server.on('request', provider.callback());
console.log(`listening ${issuer}`);
