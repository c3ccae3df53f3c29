import type { EntityManager } from '@mikro-orm/postgresql';
import { conflict, validationError } from '../../core/errors';
import { rawQuery } from '../../core/db/raw';
import type { User } from './user.entity';

/**
 * The modules whose tables name an owner (dataset, sample, project, instrument), by table: each
 * passes the records one user owns to another inside the caller's transaction (deleting a user).
 */
export type OwnerTablesIn = Record<
  string,
  { reassignOwnerIn(tx: EntityManager, from: string, to: string): Promise<number> }
>;

/** The grants made to a user, removed by the module that owns them when the user is deleted. */
export interface UserGrantsIn {
  removeUserGrantsIn(tx: EntityManager, userId: string): Promise<void>;
}

/** Records that keep a user from being deleted: `table.column` and how many rows name the user. */
export interface OwnedRecords {
  table: string;
  column: string;
  count: number;
}

/**
 * Deleting a user (the admin command line): the records that keep them from being deleted, and
 * the deletion itself, passing what they own to another user through the owning modules' seams.
 */
export class UserRemovalService {
  constructor(
    private readonly owners: OwnerTablesIn,
    private readonly grants: UserGrantsIn,
  ) {}

  /**
   * The records that name `user` through a foreign key that does not cascade (what it owns:
   * projects, instruments, datasets, samples), read from the catalog so new tables count too.
   */
  async ownedRecords(em: EntityManager, user: User): Promise<OwnedRecords[]> {
    const refs = await rawQuery<{ table: string; column: string }>(
      em,
      `select c.conrelid::regclass::text as table, a.attname as column
       from pg_constraint c
       join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
       where c.contype = 'f' and c.confrelid = 'app_user'::regclass and c.confdeltype in ('a', 'r')
         and array_length(c.conkey, 1) = 1
       order by 1, 2`,
    );
    const out: OwnedRecords[] = [];
    for (const ref of refs) {
      const [{ n }] = await rawQuery<{ n: number }>(
        em,
        `select count(*)::int as n from ${quoteIdent(ref.table)} where ${quoteIdent(ref.column)} = ?`,
        [user.uniqueId],
      );
      if (n > 0) out.push({ table: ref.table, column: ref.column, count: n });
    }
    return out;
  }

  /**
   * Deletes a user with their keys, memberships, join requests and the grants made to them.
   * Refused (409, naming the records) while they own records, unless `transferTo` is given: then
   * every owned record passes to that user first, in the same transaction. Request and audit
   * records keep the deleted user's id as history.
   */
  async deleteUser(
    em: EntityManager,
    user: User,
    transferTo?: User,
  ): Promise<{ transferred: OwnedRecords[] }> {
    if (transferTo?.uniqueId === user.uniqueId) throw validationError('transfer_to', 'must be another user');
    return em.transactional(async (tx) => {
      await rawQuery(tx, 'select 1 from app_user where unique_id = ? for update', [user.uniqueId]);
      const owned = await this.ownedRecords(tx, user);
      if (owned.length && !transferTo) {
        const list = owned.map((o) => `${o.count} ${o.table}`).join(', ');
        throw conflict(
          `${user.uniqueId} still owns records (${list}): transfer them first or give a new owner`,
        );
      }
      // with records owned, transferTo is given (refused above otherwise)
      if (transferTo)
        for (const o of owned) {
          // a table naming an owner that no module reassigns is refused, never written from here
          const owner = Object.hasOwn(this.owners, o.table) ? this.owners[o.table] : undefined;
          if (!owner || o.column !== 'owner_id') {
            throw conflict(
              `${o.count} ${o.table} records name ${user.uniqueId} and cannot be given to another user`,
            );
          }
          await owner.reassignOwnerIn(tx, user.uniqueId, transferTo.uniqueId);
        }
      await this.grants.removeUserGrantsIn(tx, user.uniqueId);
      await rawQuery(tx, 'delete from app_user where unique_id = ?', [user.uniqueId]);
      return { transferred: owned };
    });
  }
}

function quoteIdent(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unexpected identifier ${name}`);
  return `"${name}"`;
}
