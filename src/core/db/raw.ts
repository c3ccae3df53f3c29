import type { EntityManager } from '@mikro-orm/postgresql';
import type { Sql } from './sql';

/**
 * Runs raw SQL through `em`, inside its open transaction when it has one. (Going through
 * `em.getConnection()` without the transaction context would use another pooled connection:
 * wrong on any PostgreSQL, and a deadlock on the embedded one, which serializes transactions.)
 */
export function rawQuery<T>(em: EntityManager, text: string, params: unknown[] = []): Promise<T[]> {
  return em.getConnection().execute<T[]>(text, params, 'all', em.getTransactionContext());
}

export function runSql<T>(em: EntityManager, q: Sql): Promise<T[]> {
  return rawQuery<T>(em, q.sql, q.params);
}
