import { rank, type Permission } from '../../src/modules/permission/permission';

/**
 * The callers of the authorization matrix. Each holds one relationship to the records of the
 * matrix world (see `levelOf`): nothing, a direct grant of one level, ownership, membership
 * of the record's project, platform administration, or a service account's binding to the
 * instrument the world's datasets are recorded with. `normalAdmin` is a platform
 * administrator who sends `Crucible-Privilege-Mode: normal` and holds the member's relationships:
 * in normal mode they must get exactly the member's answers (docs/access-control.md).
 * `boundAccount` is a service account bound to the world's instrument (an `editor` grant on it,
 * docs/access-control.md §5a): a maintainer of the instrument, `contributor` on every dataset
 * recorded with it, nothing more on samples and projects than any other caller.
 */
export const ROLES = [
  'anonymous',
  'stranger',
  'viewer',
  'contributor',
  'editor',
  'admin',
  'owner',
  'member',
  'platformAdmin',
  'normalAdmin',
  'boundAccount',
] as const;
export type Role = (typeof ROLES)[number];

export type Subject = 'dataset' | 'sample' | 'project' | 'instrument';
export type Visibility = 'private' | 'public';

/**
 * Who may call an operation. `anonymous`: callers without a key are not refused (401) but get
 * what a stranger gets (routes with `auth: 'optional'`: published publications, public datasets'
 * exports).
 */
export type Rule = RuleKind & { anonymous?: boolean };

type RuleKind =
  /** no key needed */
  | { kind: 'open' }
  /** the URL itself is the credential; without a valid one everybody gets `status` */
  | { kind: 'credential'; status: number }
  /** any caller with a key */
  | { kind: 'any' }
  /** any person with a key: a service account is 403 (its keys are an administrator's to issue) */
  | { kind: 'person' }
  /**
   * every one of `rules` (the first refusal answers): an operation on two records, such as a
   * dataset and a sample, whose callers hold different levels on each (the bound account)
   */
  | { kind: 'all'; rules: Rule[] }
  /** platform administrators only (403 for the others) */
  | { kind: 'platformAdmin' }
  /** the user the path names (the owner in the matrix), or a platform admin (403 otherwise) */
  | { kind: 'self' }
  /** members and admins of the project (its lead included), or a platform admin (403 otherwise) */
  | { kind: 'insider' }
  /** at least `need` on the world's record of type `on`: 404 when unreadable, 403 when below */
  | { kind: 'level'; need: Permission; on: Subject }
  /** platform admins and service accounts: 404 when the record is unreadable, else 403 */
  | { kind: 'operator'; on: Subject }
  /** a record that belongs to the owner alone (a webhook): the owner and platform admins, 404 for the others */
  | { kind: 'holder' }
  /**
   * a publication (docs/publications.md): its creator (the owner), platform admins and those who
   * may manage its dataset (the admin grant); the others get `others` (404 for a draft, which
   * they may not read; 403 for a published one, which everyone reads)
   */
  | { kind: 'publisher'; others: 403 | 404 };

export const OPEN: Rule = { kind: 'open' };
export const ANY: Rule = { kind: 'any' };
export const PERSON: Rule = { kind: 'person' };
export const all = (...rules: Rule[]): Rule => ({ kind: 'all', rules });
export const PLATFORM_ADMIN: Rule = { kind: 'platformAdmin' };
export const SELF: Rule = { kind: 'self' };
export const INSIDER: Rule = { kind: 'insider' };
export const HOLDER: Rule = { kind: 'holder' };
export const PUBLISHER_DRAFT: Rule = { kind: 'publisher', others: 404 };
export const PUBLISHER: Rule = { kind: 'publisher', others: 403 };
/** The rule, open to callers without a key as to strangers. */
export const orAnonymous = (rule: Rule): Rule => ({ ...rule, anonymous: true });
export const credential = (status: number): Rule => ({ kind: 'credential', status });
export const read = (on: Subject): Rule => ({ kind: 'level', need: 'viewer', on });
export const contribute = (on: Subject): Rule => ({ kind: 'level', need: 'contributor', on });
export const update = (on: Subject): Rule => ({ kind: 'level', need: 'editor', on });
export const manage = (on: Subject): Rule => ({ kind: 'level', need: 'admin', on });
export const own = (on: Subject): Rule => ({ kind: 'level', need: 'owner', on });
export const operate = (on: Subject): Rule => ({ kind: 'operator', on });

const GRANTED: Partial<Record<Role, Permission>> = {
  viewer: 'viewer',
  contributor: 'contributor',
  editor: 'editor',
  admin: 'admin',
};

/**
 * The effective permission of each role on the world's records, by DESIGN §5: ownership;
 * a direct grant; the role implied by membership of the record's project (the member is a
 * contributor of the project that holds the datasets and samples); for the bound service
 * account, its binding (an `editor` grant on the instrument) and `contributor` on the datasets
 * recorded with that instrument (docs/access-control.md §5a); viewer when public (and for
 * projects and instruments, which every caller may read); everything for platform admins.
 */
export function levelOf(role: Role, on: Subject, visibility: Visibility): Permission | null {
  if (role === 'platformAdmin' || role === 'owner') return 'owner';
  let level: Permission | null = GRANTED[role] ?? null;
  if ((role === 'member' || role === 'normalAdmin') && on !== 'instrument') level = 'contributor';
  if (role === 'boundAccount' && on === 'instrument') level = 'editor';
  if (role === 'boundAccount' && on === 'dataset') level = 'contributor';
  const everyone = on === 'project' || on === 'instrument' || visibility === 'public';
  if (everyone && rank(level) < rank('viewer')) level = 'viewer';
  return level;
}

/** What the matrix expects: allowed, or the status of the refusal. */
export type Outcome = 'allowed' | 401 | 403 | 404;

export function expected(rule: Rule, role: Role, visibility: Visibility): Outcome {
  if (rule.kind === 'open') return 'allowed';
  if (rule.kind === 'credential') return rule.status as Outcome;
  if (role === 'anonymous' && !rule.anonymous) return 401;
  switch (rule.kind) {
    case 'any':
      return 'allowed';
    case 'person':
      return role === 'boundAccount' ? 403 : 'allowed';
    case 'all':
      return rule.rules.map((r) => expected(r, role, visibility)).find((o) => o !== 'allowed') ?? 'allowed';
    case 'platformAdmin':
      return role === 'platformAdmin' ? 'allowed' : 403;
    case 'self':
      return role === 'owner' || role === 'platformAdmin' ? 'allowed' : 403;
    case 'holder':
      return role === 'owner' || role === 'platformAdmin' ? 'allowed' : 404;
    case 'publisher':
      return role === 'owner' || role === 'admin' || role === 'platformAdmin' ? 'allowed' : rule.others;
    case 'insider':
      return ['owner', 'member', 'normalAdmin', 'admin', 'platformAdmin'].includes(role) ? 'allowed' : 403;
    case 'level': {
      const level = levelOf(role, rule.on, visibility);
      if (!level) return 404;
      return rank(level) >= rank(rule.need) ? 'allowed' : 403;
    }
    case 'operator':
      if (!levelOf(role, rule.on, visibility)) return 404;
      return role === 'platformAdmin' || role === 'boundAccount' ? 'allowed' : 403;
  }
}

/** Whether the outcome of a rule depends on the record being private or public. */
export function dependsOnVisibility(rule: Rule): boolean {
  if (rule.kind === 'all') return rule.rules.some(dependsOnVisibility);
  return (
    (rule.kind === 'level' || rule.kind === 'operator') && (rule.on === 'dataset' || rule.on === 'sample')
  );
}
