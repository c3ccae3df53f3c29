import type { EntityManager } from '@mikro-orm/postgresql';
import { rawQuery } from './raw';

/**
 * The ownership columns of a record table (owner, project, public flag). Each owning module
 * (dataset, sample, project, instrument) holds one for its own table and exposes it; workflows of
 * other modules (transfer, reassignment, the public flag, deleting a user) call it inside their
 * own transaction (the `…In(tx)` convention, docs/architecture.md).
 */
export class OwnershipColumns {
  constructor(private readonly table: 'dataset' | 'sample' | 'project' | 'instrument') {}

  /** Gives the record a new owner. */
  async setOwnerIn(em: EntityManager, uniqueId: string, ownerId: string): Promise<void> {
    await rawQuery(
      em,
      `update ${this.table} set owner_id = ?, modification_time = now() where unique_id = ?`,
      [ownerId, uniqueId],
    );
  }

  /** Makes the record public or private (datasets, samples and instruments). */
  async setPublicIn(em: EntityManager, uniqueId: string, value: boolean): Promise<void> {
    if (this.table === 'project') throw new Error('projects have no public flag');
    await rawQuery(em, `update ${this.table} set public = ?, modification_time = now() where unique_id = ?`, [
      value,
      uniqueId,
    ]);
  }

  /** Makes many records public or private in one statement (batch edits). */
  async setPublicManyIn(em: EntityManager, uniqueIds: readonly string[], value: boolean): Promise<void> {
    if (this.table === 'project') throw new Error('projects have no public flag');
    if (!uniqueIds.length) return;
    await rawQuery(
      em,
      `update ${this.table} set public = ?, modification_time = now()
       where unique_id in (select jsonb_array_elements_text(?::jsonb))`,
      [value, JSON.stringify(uniqueIds)],
    );
  }

  /** Assigns the record to a project (datasets and samples). */
  async setProjectIn(em: EntityManager, uniqueId: string, projectMfid: string): Promise<void> {
    if (this.table !== 'dataset' && this.table !== 'sample') throw new Error(`${this.table} has no project`);
    await rawQuery(
      em,
      `update ${this.table} set project_mfid = ?, modification_time = now() where unique_id = ?`,
      [projectMfid, uniqueId],
    );
  }

  /** Every record `from` owns passes to `to` (a user being deleted); how many did. */
  async reassignOwnerIn(em: EntityManager, from: string, to: string): Promise<number> {
    const rows = await rawQuery(em, `update ${this.table} set owner_id = ? where owner_id = ? returning 1`, [
      to,
      from,
    ]);
    return rows.length;
  }
}
