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
