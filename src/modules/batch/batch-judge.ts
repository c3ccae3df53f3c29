import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../core/context';
import { AppError } from '../../core/errors';
import { DATASET_MAX_KEYWORDS } from '../dataset/dataset.fields';
import { RESOURCE_MAX_GRANTS } from '../access/grant.service';
import type { AccessService } from '../permission/access.service';
import { allows, ACTION_LEVEL, type Permission } from '../permission/permission';
import { BATCH_ACTION, type BatchOperation } from './batch-operation';
import type { TargetState } from './batch-state';

/** Refused targets named in a preview and in a refusal. */
export const REFUSED_LISTED = 100;

/** A target the caller may not change this way, and why. */
export interface RefusedTarget {
  id: string;
  name: string | null;
  reason: string;
}

export interface Judged {
  refused: RefusedTarget[];
  refusedCount: number;
}

/**
 * Which targets the caller may not change this way (`undo`: back), asked of the access rules
 * with the caller's scope and every target's grants read through `em` (inside apply and undo,
 * on the locked rows), and the caps a change would pass.
 */
export async function judge(
  access: AccessService,
  ctx: RequestContext,
  em: EntityManager,
  op: BatchOperation,
  rows: readonly TargetState[],
  undo = false,
): Promise<Judged> {
  const inTx = ctx.within(em);
  const scope = await inTx.scope();
  const grants = await access.grantsOn(
    em,
    rows.map((r) => r.id),
  );
  const asCaller = inTx.as(ctx.caller.user, { scope, grants });
  const action = BATCH_ACTION[op.kind];
  const refused: RefusedTarget[] = [];
  for (const r of rows) {
    const held: Permission | null = await access.effective(
      asCaller,
      {
        uniqueId: r.id,
        type: 'dataset',
        ownerId: r.owner_id,
        projectMfid: r.project_mfid,
        instrumentMfid: r.instrument_mfid,
        public: r.public,
      },
      em,
    );
    let reason: string | null = null;
    if (!allows(held, action)) {
      reason = `needs ${ACTION_LEVEL[action]} permission, you hold ${held ?? 'none'}`;
    } else if (!undo && op.kind === 'add_keyword' && r.before !== true && r.n >= DATASET_MAX_KEYWORDS) {
      reason = `already carries ${DATASET_MAX_KEYWORDS} keywords, the most a dataset may`;
    } else if (!undo && op.kind === 'grant') {
      if (op.principalType === 'user' && op.principalId === r.owner_id) {
        reason = 'the user owns it: an owner needs no grant';
      } else if (r.before === null && r.n >= RESOURCE_MAX_GRANTS) {
        reason = `already has ${RESOURCE_MAX_GRANTS} grants, the most a dataset may hold`;
      }
    }
    if (reason) refused.push({ id: r.id, name: r.name, reason });
  }
  return { refused: refused.slice(0, REFUSED_LISTED), refusedCount: refused.length };
}

/** The refusal of a batch with refused targets: 403 when only permissions are missing, else 409. */
export function refusal(op: BatchOperation, judged: Judged, what: string): AppError {
  const action = BATCH_ACTION[op.kind];
  const named = judged.refused.slice(0, 5).map((r) => `${r.id} (${r.reason})`);
  const message = `You may not ${action} ${judged.refusedCount} of the batch's datasets: ${named.join('; ')}${
    judged.refusedCount > named.length ? '; …' : ''
  }. ${what[0].toUpperCase()}${what.slice(1)}`;
  return new AppError(
    judged.refused.every((r) => r.reason.startsWith('needs ')) ? 'FORBIDDEN' : 'CONFLICT',
    message,
    judged.refused.map((r) => ({ field: 'datasets', message: `${r.id}: ${r.reason}` })),
  );
}
