import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import * as client from 'openid-client';
import type { Config } from '../../core/config';
import { rawQuery } from '../../core/db/raw';
import { AppError } from '../../core/errors';
import { isOrcid } from '../../core/ids';
import { User } from '../user/user.entity';
import type { UserService } from '../user/user.service';
import type { EventService } from '../outbox/event.service';
import { UserIdentity } from './identity.entity';

type OidcSettings = NonNullable<Config['oidc']>;

/** What the browser keeps between `GET /auth/login` and `GET /auth/callback` (a signed cookie). */
export interface LoginState {
  state: string;
  nonce: string;
  verifier: string;
  returnTo: string;
  /** ms since the epoch */
  expires: number;
}

/** The outcome of a callback: a person to start a session for, or why not. */
export type SignInOutcome =
  | { kind: 'signed_in'; user: User; linked: boolean; created: boolean }
  | { kind: 'pending'; user: User; created: boolean }
  /** `userId`: the account the sign-in was for, when one was found (its history records the refusal) */
  | { kind: 'refused'; message: string; userId?: string };

/** A sign-in attempt has ten minutes between the button and the provider's answer. */
const LOGIN_TTL_MS = 10 * 60_000;
const ORCID_ISSUER = /^https:\/\/(sandbox\.)?orcid\.org\/?$/;

/** The provider's own words, without a stack: what the sign-in page shows. */
export function plainProviderError(err: unknown): string {
  if (err instanceof client.AuthorizationResponseError) {
    return `The provider refused the sign-in: ${err.error}${err.error_description ? ` (${err.error_description})` : ''}`;
  }
  if (err instanceof client.ResponseBodyError) return `The provider answered with an error: ${err.error}`;
  if (
    err instanceof Error &&
    'code' in err &&
    typeof err.code === 'string' &&
    err.code.startsWith('OAUTH_')
  ) {
    // openid-client's message is generic ("invalid response encountered"); the check that failed
    // is its cause's (oauth4webapi: 'unexpected JWT "aud" (audience) claim value'), never a value
    const cause = err.cause instanceof Error && err.cause.message !== err.message ? err.cause.message : '';
    return `The provider's answer was refused: ${err.message}${cause ? ` (${cause})` : ''}`;
  }
  if (err instanceof AppError) return err.message;
  return 'The sign-in could not be completed: the provider could not be reached or answered something unexpected';
}

/**
 * Sign-in through an OpenID Connect provider with `openid-client` (authorization code flow with
 * PKCE, discovery, the provider's JWKS, `state` and `nonce`, issuer, audience and time checks),
 * and the matching of the people it asserts to accounts (docs/authentication.md).
 */
export class OidcService {
  private configuration?: Promise<client.Configuration>;
  private stateKey?: Buffer;

  constructor(
    readonly settings: OidcSettings,
    private readonly publicBaseUrl: string,
    private readonly users: UserService,
    private readonly events?: EventService,
  ) {}

  get redirectUri(): string {
    return `${this.publicBaseUrl}/auth/callback`;
  }

  /** The key that signs the login-state cookie (shared by replicas: kept in the database). */
  useStateKey(secret: string): void {
    this.stateKey = Buffer.from(secret);
  }

  private discover(): Promise<client.Configuration> {
    if (!this.configuration) {
      const { issuer, clientId, clientSecret } = this.settings;
      const insecure = new URL(issuer).protocol === 'http:';
      this.configuration = client
        .discovery(
          new URL(issuer),
          clientId,
          { client_secret: clientSecret, [client.clockTolerance]: 60 },
          clientSecret ? client.ClientSecretPost(clientSecret) : client.None(),
          {
            // the ID token's signature is checked against the provider's JWKS: openid-client skips
            // it by default for tokens fetched over TLS, but an http issuer (local trials and tests
            // only, docs/authentication.md) has no TLS, and a signature check is what we document
            execute: insecure
              ? // eslint-disable-next-line @typescript-eslint/no-deprecated
                [client.allowInsecureRequests, client.enableNonRepudiationChecks]
              : [client.enableNonRepudiationChecks],
            timeout: 10,
          },
        )
        .catch((err: unknown) => {
          this.configuration = undefined;
          throw err;
        });
    }
    return this.configuration;
  }

  /** Where to send the browser, and the state to keep in its cookie. */
  async begin(returnTo: string): Promise<{ url: string; state: LoginState }> {
    const config = await this.discover();
    const verifier = client.randomPKCECodeVerifier();
    const state: LoginState = {
      state: client.randomState(),
      nonce: client.randomNonce(),
      verifier,
      returnTo,
      expires: Date.now() + LOGIN_TTL_MS,
    };
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: this.redirectUri,
      scope: this.settings.scopes,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state: state.state,
      nonce: state.nonce,
    });
    return { url: url.href, state };
  }

  /** The verified ID token claims of a callback; throws the library's error when anything is off. */
  async finish(callbackUrl: URL, state: LoginState): Promise<client.IDToken> {
    const config = await this.discover();
    const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: state.verifier,
      expectedState: state.state,
      expectedNonce: state.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    if (!claims) throw new AppError('BAD_REQUEST', 'The provider sent no ID token');
    return claims;
  }

  sealState(state: LoginState): string {
    const body = Buffer.from(JSON.stringify(state)).toString('base64url');
    return `${body}.${this.mac(body)}`;
  }

  /** The login state of the cookie, or null when it is missing, forged or expired. */
  openState(cookie: string | undefined): LoginState | null {
    if (!cookie) return null;
    const [body, mac] = cookie.split('.');
    if (!body || !mac) return null;
    const expected = Buffer.from(this.mac(body));
    const given = Buffer.from(mac);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    try {
      const state = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as LoginState;
      return typeof state.expires === 'number' && state.expires > Date.now() ? state : null;
    } catch {
      return null;
    }
  }

  private mac(body: string): string {
    if (!this.stateKey) throw new Error('OidcService.useStateKey was not called');
    return createHmac('sha256', this.stateKey).update(`oidc-state:${body}`).digest('base64url');
  }

  /**
   * The account of the person the provider asserts: the identity linked before (issuer and
   * `sub`); else the account of the ORCID iD the provider asserts; else of a verified email;
   * else a new account under `OIDC_NEW_USERS`. Automatic linking never reaches a platform
   * administrator's or a service account's account, and nothing the provider sends makes anyone
   * an administrator.
   */
  async signIn(em: EntityManager, claims: client.IDToken): Promise<SignInOutcome> {
    const issuer = claims.iss;
    const subject = claims.sub;
    return em.transactional(async (tx) => {
      const linked = await tx.findOne(UserIdentity, { issuer, subject }, { populate: ['user'] });
      const email =
        typeof claims.email === 'string' && claims.email_verified === true ? claims.email.trim() : null;
      if (linked) {
        linked.lastSignInAt = new Date();
        if (email) linked.email = email;
        await tx.flush();
        return this.outcome(linked.user, false, false);
      }
      const orcid = ORCID_ISSUER.test(issuer)
        ? subject
        : typeof claims.orcid === 'string'
          ? claims.orcid
          : null;
      let user: User | null = null;
      if (orcid && isOrcid(orcid)) user = await tx.findOne(User, { uniqueId: orcid });
      if (!user && email) {
        const rows = await rawQuery<{ unique_id: string }>(
          tx,
          'select unique_id from app_user where lower(email) = lower(?)',
          [email],
        );
        if (rows.length === 1) user = await tx.findOne(User, { uniqueId: rows[0].unique_id });
      }
      if (user && (user.platformRole === 'admin' || user.isServiceAccount)) {
        return {
          kind: 'refused',
          userId: user.uniqueId,
          message:
            'This account cannot be linked to a provider sign-in automatically: sign in with its API key.',
        } as const;
      }
      let created = false;
      if (!user) {
        if (this.settings.newUsers === 'refuse') {
          return {
            kind: 'refused',
            message: 'There is no account for you in this catalog: ask an administrator to create one.',
          } as const;
        }
        user = await this.provision(tx, claims, orcid && isOrcid(orcid) ? orcid : undefined, email);
        created = true;
      }
      const identity = tx.create(UserIdentity, { uniqueId: randomUUID(), issuer, subject, user, email });
      tx.persist(identity);
      await tx.flush();
      // the link is in the account's history (the subject and issuer, never a token)
      await this.events?.emit(tx, {
        type: 'account.identity_linked',
        actorId: user.uniqueId,
        resourceId: user.uniqueId,
        resourceType: 'user',
        projectMfid: null,
        payload: {
          identity_id: identity.uniqueId,
          issuer,
          subject,
          matched_by: created ? 'new_account' : orcid && user.uniqueId === orcid ? 'orcid' : 'email',
        },
      });
      return this.outcome(user, true, created);
    });
  }

  private outcome(user: User, linked: boolean, created: boolean): SignInOutcome {
    if (user.disabledAt)
      return { kind: 'refused', userId: user.uniqueId, message: 'This account is disabled.' };
    if (user.pendingSince) return { kind: 'pending', user, created };
    return { kind: 'signed_in', user, linked, created };
  }

  /** A new account from the claims: never an administrator; pending under the default policy. */
  private async provision(
    em: EntityManager,
    claims: client.IDToken,
    orcid: string | undefined,
    email: string | null,
  ): Promise<User> {
    const text = (v: unknown, max: number) =>
      typeof v === 'string' && v.trim() ? v.trim().slice(0, max) : null;
    const free = async (column: 'username' | 'email', value: string | null) =>
      value &&
      (await rawQuery(em, `select 1 from app_user where lower(${column}) = lower(?)`, [value])).length === 0
        ? value
        : null;
    const wanted = text(claims.preferred_username, 64);
    const username =
      wanted && /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(wanted) ? await free('username', wanted) : null;
    const user = await this.users.create(em, {
      uniqueId: orcid,
      username,
      email: await free('email', email),
      firstName: text(claims.given_name, 200),
      lastName: text(claims.family_name, 200),
      platformRole: 'contributor',
      isServiceAccount: false,
    });
    if (this.settings.newUsers === 'pending') {
      user.pendingSince = new Date();
      await em.flush();
    }
    return user;
  }
}
