import { AppError, forbidden } from '../errors';

/**
 * Platform roles and privilege mode (docs/access-control.md, "Platform roles and privilege
 * mode"). A user's stored platform role says what they may create and whether they may act as a
 * platform administrator; the privilege mode of one request (the `Crucible-Privilege-Mode`
 * header on REST and GraphQL, else a browser session's stored mode) says whether an administrator acts
 * as one on it.
 */
export const PLATFORM_ROLES = ['none', 'contributor', 'admin'] as const;
export type PlatformRole = (typeof PLATFORM_ROLES)[number];

export const PRIVILEGE_MODES = ['normal', 'elevated'] as const;
export type PrivilegeMode = (typeof PRIVILEGE_MODES)[number];

/** The request header that selects the privilege mode (case-insensitive, as every header). */
export const PRIVILEGE_HEADER = 'Crucible-Privilege-Mode';

export function isPlatformRole(value: unknown): value is PlatformRole {
  return typeof value === 'string' && (PLATFORM_ROLES as readonly string[]).includes(value);
}

/**
 * The mode a header value asks for: null when absent (today's behaviour: an administrator acts
 * as one), else `normal` or `elevated` (trimmed, case-insensitive); anything else is a 400.
 */
export function parsePrivilegeMode(value: string | undefined): PrivilegeMode | null {
  if (value === undefined) return null;
  const mode = value.trim().toLowerCase();
  if (mode === '') return null;
  if ((PRIVILEGE_MODES as readonly string[]).includes(mode)) return mode as PrivilegeMode;
  throw new AppError('BAD_REQUEST', `${PRIVILEGE_HEADER} must be "normal" or "elevated"`);
}

/** Whether a user whose stored role is `role` may act elevated (only platform administrators). */
export function canElevate(role: PlatformRole): boolean {
  return role === 'admin';
}

/**
 * The role a caller acts with: an administrator in `normal` mode acts as an ordinary member
 * (`contributor`: their own records, their projects, their grants); every other role is itself.
 */
export function effectiveRole(stored: PlatformRole, mode: PrivilegeMode | null): PlatformRole {
  return stored === 'admin' && mode === 'normal' ? 'contributor' : stored;
}

/** The mode a caller with `stored` role is in, the header being `mode` (null when absent). */
export function effectiveMode(stored: PlatformRole, mode: PrivilegeMode | null): PrivilegeMode {
  return canElevate(stored) && mode !== 'normal' ? 'elevated' : 'normal';
}

/** What the switch reads and sets on a caller (`Caller` in core/context.ts). */
export interface PrivilegedCaller {
  user: { platformRole: PlatformRole };
  /** the user's stored role known without `user` (a getter that makes an entity: see Caller) */
  identity?: { platformRole: PlatformRole };
  scope?: { isPlatformAdmin: boolean };
  privilegeMode?: PrivilegeMode | null;
}

/**
 * The caller as they act under `mode`: the one switch every transport calls (the API-key
 * middleware, the GraphQL gate and sockets; a browser session's request with the mode its session
 * holds). `elevated` from a caller who may not elevate is a 403 that changes nothing. The access
 * scope already loaded with the caller is adjusted, so every policy and visibility condition sees
 * the effective role.
 */
export function withPrivilegeMode<C extends PrivilegedCaller>(caller: C, mode: PrivilegeMode | null): C {
  const stored = (caller.identity ?? caller.user).platformRole;
  if (mode === 'elevated' && !canElevate(stored)) {
    throw forbidden(
      `Elevated privilege mode is for platform administrators (your platform role is ${stored})`,
    );
  }
  const admin = effectiveRole(stored, mode) === 'admin';
  return copyCaller(caller, {
    privilegeMode: mode,
    scope: caller.scope ? { ...caller.scope, isPlatformAdmin: admin } : undefined,
  } as Partial<C>);
}

/**
 * A copy of `caller` with `changes`, property by property as they are defined: a `user` made on
 * first use (Caller in core/context.ts) stays a getter, where spreading would call it.
 */
export function copyCaller<C extends object>(caller: C, changes: Partial<C>): C {
  const copy = Object.defineProperties({}, Object.getOwnPropertyDescriptors(caller)) as C;
  return Object.assign(copy, changes);
}
