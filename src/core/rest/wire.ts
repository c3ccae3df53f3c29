import type { RequestContext } from '../context';
import { Type } from './schema';

/** A time on the legacy wire: ISO 8601, or null. */
export const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);

/** Boolean flags (capabilities) under their legacy wire names: `canRead` -> `can_read`. */
export function toLegacyFlags(flags: object): Record<string, boolean> {
  return Object.fromEntries(
    Object.entries(flags).map(([key, value]) => [
      key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`),
      value as boolean,
    ]),
  );
}

/** The capability flags the 3.2 client's keys are derived from (every record policy computes them). */
export interface CapabilityFlags {
  canUpdate: boolean;
  canManageAccess: boolean;
  canTransferOwnership: boolean;
}

/**
 * A record's `capabilities` on the wire the request came in on: on `/api/v2` today's keys
 * (`toLegacyFlags`); on `/api/v3` the same keys plus the ones the 3.2 client requires
 * (`can_edit`, `can_manage_access`, `can_change_status`, `can_transfer`, `max_grant_role`),
 * each derived from a flag the record's policy computed (docs/legacy-client.md, "/api/v3").
 */
export function toWireCapabilities(
  ctx: RequestContext,
  flags: CapabilityFlags,
  /** false for datasets and samples, which have no lifecycle status (spec 2.1 rule 7) */
  hasStatus: boolean,
): Record<string, boolean | string | null> {
  const out: Record<string, boolean | string | null> = toLegacyFlags(flags);
  if (ctx.wireVersion < 3) return out;
  out.can_edit = flags.canUpdate;
  out.can_manage_access = flags.canManageAccess;
  out.can_change_status = hasStatus && flags.canUpdate;
  out.can_transfer = flags.canTransferOwnership;
  // granting needs `manage` (admin), and the highest grantable level is admin: owner moves only
  // by transfer
  out.max_grant_role = flags.canManageAccess ? 'admin' : null;
  return out;
}

/** The `capabilities` of a record in a response schema: flags, and `max_grant_role` on `/api/v3`. */
export const CAPABILITY_VALUE = Type.Union([Type.Boolean(), Type.String(), Type.Null()]);
