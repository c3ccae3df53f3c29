/** How sign-in failures are limited (configuration: SIGN_IN_MAX_FAILURES and friends). */
export interface SignInLimits {
  /** failures a key (address, account, key prefix) may have in a window before it is refused */
  maxFailures: number;
  /** the window, from a key's first failure */
  windowSeconds: number;
  /** keys remembered at most; the oldest are forgotten first */
  maxEntries: number;
}

interface Entry {
  failures: number;
  /** when the window of this key ends (ms since the epoch) */
  resetAt: number;
}

/**
 * Failed sign-ins counted per key in fixed windows, in this process's memory (each replica counts
 * its own): a key with `maxFailures` failures in its window is refused until the window ends,
 * whether the next attempt would be right or wrong (a correct guess among many wrong ones is not
 * let through). Memory is bounded: at most `maxEntries` keys, the oldest dropped first.
 */
export class SignInLimiter {
  private readonly entries = new Map<string, Entry>();

  constructor(
    readonly limits: SignInLimits,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds until every one of `keys` may try again; 0 when none is limited. */
  retryAfter(keys: readonly string[]): number {
    const now = this.now();
    let wait = 0;
    for (const key of keys) {
      const entry = this.entries.get(key);
      if (!entry) continue;
      if (entry.resetAt <= now) {
        this.entries.delete(key);
        continue;
      }
      if (entry.failures >= this.limits.maxFailures) wait = Math.max(wait, entry.resetAt - now);
    }
    return Math.ceil(wait / 1000);
  }

  /** Counts a failure against each of `keys`. */
  fail(keys: readonly string[]): void {
    const now = this.now();
    for (const key of keys) {
      const entry = this.entries.get(key);
      if (entry && entry.resetAt > now) {
        entry.failures += 1;
        continue;
      }
      this.entries.delete(key);
      while (this.entries.size >= this.limits.maxEntries) {
        const oldest = this.entries.keys().next();
        if (oldest.done) break;
        this.entries.delete(oldest.value);
      }
      this.entries.set(key, { failures: 1, resetAt: now + this.limits.windowSeconds * 1000 });
    }
  }

  /** How many keys are remembered (bounded by `maxEntries`). */
  get size(): number {
    return this.entries.size;
  }
}
