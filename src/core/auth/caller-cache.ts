/**
 * A short-lived, in-process cache of what authentication found for a key hash (the key, its
 * user and the user's access scope, as the database returned them), so that a request within
 * `ttlMs` of the last one with the same key runs no authentication statement.
 *
 * Correctness (docs/operations.md, "Authentication cache"):
 * - a write to a table authentication reads (keys, users, memberships, groups, project leads)
 *   seen by this process (`noteStatement`: its own statements, and on the embedded database
 *   every client's, the admin command line's included) empties every cache of the process when
 *   it is sent, when it has run and when its transaction commits: revoking, disabling or
 *   changing a membership takes effect on the next request;
 * - a change made elsewhere on a PostgreSQL server (another replica, the admin command line) takes effect
 *   here at most `ttlMs` later: entries are never served older than that;
 * - an entry never outlives its key's own expiry;
 * - unknown, revoked and expired keys are not cached (each attempt is looked up), and the cache
 *   holds at most `maxEntries` keys (the oldest go first).
 */
export class CallerCache<T> {
  private readonly entries = new Map<string, { value: T; until: number }>();
  /** bumped by every {@link clear}: a value read before it is not kept after it */
  private generation = 0;

  constructor(
    readonly ttlMs: number,
    private readonly maxEntries = 10_000,
    private readonly now: () => number = Date.now,
  ) {
    if (ttlMs > 0) caches.add(new WeakRef(this));
  }

  get(hash: string): T | undefined {
    const entry = this.entries.get(hash);
    if (!entry) return undefined;
    if (entry.until <= this.now()) {
      this.entries.delete(hash);
      return undefined;
    }
    return entry.value;
  }

  /** Where the cache stands: pass it to {@link set} with a value read from the database after it. */
  stamp(): number {
    return this.generation;
  }

  /**
   * Keeps `value` for `ttlMs`, or until `expiresAt` when that comes first; not when the cache
   * was emptied since `stamp` (a write may have changed what the value was read from).
   */
  set(hash: string, value: T, expiresAt?: Date | null, stamp?: number): void {
    if (this.ttlMs <= 0 || (stamp !== undefined && stamp !== this.generation)) return;
    const until = Math.min(this.now() + this.ttlMs, expiresAt ? expiresAt.getTime() : Infinity);
    this.entries.delete(hash);
    this.entries.set(hash, { value, until });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
    }
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}

/** The tables whose rows decide who a key is and what they may reach (grants: the MFIDs granted to a caller). */
const AUTH_TABLES = [
  'api_key',
  'app_user',
  'project_member',
  'project',
  'access_group',
  'access_group_member',
  'access_grant',
];
const WRITE = new RegExp(
  `^\\s*(?:with\\b[\\s\\S]*?\\b)?(?:insert\\s+into|update|delete\\s+from|truncate(?:\\s+table)?)\\s+"?(?:${AUTH_TABLES.join('|')})"?(?:\\s|$|\\()`,
  'i',
);

/** The bookkeeping write of authentication itself, which changes nothing it decides. */
/** (as sent: a placeholder, or the value inlined) */
const LAST_USED = /^\s*update\s+"?api_key"?\s+set\s+"?last_used_at"?\s*=\s*(?:\$\d+|\?|'[^']*')\s+where\b/i;

/** Whether the SQL statement writes to a table authentication reads (see CallerCache). */
export function writesAuthTables(sql: string): boolean {
  return WRITE.test(sql) && !LAST_USED.test(sql);
}

/** Every live cache of this process (tests run several apps in one process). */
const caches = new Set<WeakRef<CallerCache<unknown>>>();
let pendingCommit = false;

function clearAll(): void {
  for (const ref of caches) {
    const cache = ref.deref();
    if (cache) cache.clear();
    else caches.delete(ref);
  }
}

/**
 * Tells the caches of this process about an SQL statement it saw (sent, answered or, on the
 * embedded database, run for any client): a write to an authentication table empties them,
 * and so does the next commit after one.
 */
export function noteStatement(sql: string): void {
  if (caches.size === 0) return;
  if (writesAuthTables(sql)) {
    pendingCommit = true;
    clearAll();
  } else if (pendingCommit && /^\s*commit\b/i.test(sql)) {
    pendingCommit = false;
    clearAll();
  }
}
