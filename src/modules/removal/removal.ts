import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../../core/logger';

/** The kinds of record that are removed for good (after a reviewed deletion request). */
export const DELETABLE_TYPES = ['dataset', 'sample'] as const;
export type DeletableType = (typeof DELETABLE_TYPES)[number];

/** The resource being removed permanently. */
export interface RemovalTarget {
  uniqueId: string;
  type: DeletableType;
}

/** Work to do once the removal has committed (for example deleting objects from storage). */
export type AfterCommit = () => Promise<void>;

/**
 * A module's part in removing a resource for good. `dependents` hooks delete the module's rows
 * about the resource (files, thumbnails, metadata, grants, links...) inside the removal
 * transaction, using only `tx`; `record` hooks delete the resource row itself and run last.
 * A hook may return work to run after the commit: never undo-able work inside the transaction.
 */
export interface RemovalHook {
  name: string;
  types: readonly DeletableType[];
  phase: 'dependents' | 'record';
  // eslint-disable-next-line @typescript-eslint/no-invalid-void-type -- hooks with no after-commit work are plain `async (): Promise<void>` functions
  remove(tx: EntityManager, target: RemovalTarget): Promise<AfterCommit | void>;
}

/**
 * The registry of removal hooks. Modules register at start-up (see `createServices`); the
 * deletion workflow runs them in one transaction: every `dependents` hook in registration order,
 * then the `record` hooks. After-commit work runs once the transaction has committed; its
 * failures are logged, never undo the removal.
 */
export class ResourceRemoval {
  private readonly hooks: RemovalHook[] = [];

  register(hook: RemovalHook): void {
    this.hooks.push(hook);
  }

  /** Runs the hooks for `target` inside `tx`; returns the after-commit work. */
  async removeIn(tx: EntityManager, target: RemovalTarget): Promise<AfterCommit[]> {
    const after: AfterCommit[] = [];
    for (const phase of ['dependents', 'record'] as const) {
      for (const hook of this.hooks) {
        if (hook.phase !== phase || !hook.types.includes(target.type)) continue;
        const work = await hook.remove(tx, target);
        if (work) after.push(work);
      }
    }
    return after;
  }

  /** Runs after-commit work, logging (not throwing) failures. */
  async afterCommit(work: AfterCommit[], log: Logger, target: RemovalTarget): Promise<void> {
    for (const w of work) {
      try {
        await w();
      } catch (err) {
        log.error({ err, resource: target.uniqueId }, 'cleanup after a resource removal failed');
      }
    }
  }
}
