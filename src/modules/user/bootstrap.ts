import type { EntityManager } from '@mikro-orm/postgresql';
import { rawQuery } from '../../core/db/raw';
import { hashApiKey } from '../../core/auth/api-keys';
import { ApiKey } from './api-key.entity';
import { User } from './user.entity';
import type { UserService } from './user.service';

export interface BootstrapResult {
  /** A newly generated secret to show once; absent when nothing was generated. */
  secret?: string;
  user?: User;
}

const BOOTSTRAP_LOCK = 7247_1001;

/**
 * Makes sure the catalog can be administered: with `adminApiKey` set, that key belongs to a
 * platform admin (created when missing); otherwise, when no platform admin exists, one
 * `admin` is created with a new key that the caller prints once.
 */
export async function ensureBootstrapAdmin(
  em: EntityManager,
  users: UserService,
  adminApiKey?: string,
): Promise<BootstrapResult> {
  return em.transactional(async (tx) => {
    await rawQuery(tx, 'select pg_advisory_xact_lock(?)', [BOOTSTRAP_LOCK]);
    if (adminApiKey) {
      const existing = await tx.findOne(ApiKey, { hash: hashApiKey(adminApiKey) });
      if (existing) return {};
      const admin =
        (await tx.findOne(User, { platformRole: 'admin' }, { orderBy: { id: 'asc' } })) ??
        (await createAdmin(tx, users));
      await users.issueKey(tx, admin, { secret: adminApiKey, label: 'ADMIN_API_KEY' });
      return { user: admin };
    }
    if ((await tx.count(User, { platformRole: 'admin' })) > 0) return {};
    const admin = await createAdmin(tx, users);
    const { secret } = await users.issueKey(tx, admin, { label: 'bootstrap' });
    return { secret, user: admin };
  });
}

async function createAdmin(em: EntityManager, users: UserService): Promise<User> {
  const taken = await users.resolve(em, 'admin');
  return users.create(em, {
    username: taken ? null : 'admin',
    firstName: 'Catalog',
    lastName: 'Administrator',
    platformRole: 'admin',
  });
}
