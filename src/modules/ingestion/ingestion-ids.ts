/** Integer ids as they arrive in paths and bodies; anything else matches nothing. */
export function parseRequestId(raw: unknown): number | null {
  const id =
    typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}
