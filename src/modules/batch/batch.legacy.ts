import { NullableString, Type } from '../../core/rest/schema';
import type { BatchItem, BatchView } from './batch.service';

const ANY = Type.Unknown({
  description:
    'the value: true/false (a keyword, the public flag), a field value, the merged keys present (metadata), a permission or null (grant)',
});

export const BATCH_ITEM = Type.Object(
  {
    unique_id: Type.String(),
    name: NullableString(),
    before: ANY,
    after: ANY,
    changes: Type.Boolean({ description: 'false: the dataset already has what the batch asks' }),
  },
  { title: 'BatchItem' },
);

/** A batch edit on the wire (a preview, or once applied or undone). */
export const BATCH = Type.Object(
  {
    batch_id: Type.String({ description: 'the batch MFID' }),
    status: Type.Union([Type.Literal('previewed'), Type.Literal('applied'), Type.Literal('undone')]),
    operation: Type.Object({ kind: Type.String() }, { additionalProperties: true }),
    target_source: Type.Union([Type.Literal('ids'), Type.Literal('search')]),
    target_count: Type.Integer({
      description: 'datasets the batch names (a search: its results, frozen at preview)',
    }),
    changed_count: Type.Integer({ description: 'how many of them it changes' }),
    refused: Type.Array(
      Type.Object({ unique_id: Type.String(), name: NullableString(), reason: Type.String() }),
      {
        description:
          'datasets you may not change this way (the first 100): a batch with any cannot be applied',
      },
    ),
    refused_count: Type.Integer(),
    sample: Type.Array(BATCH_ITEM, { description: 'the first 20 datasets it changes; all: GET …/items' }),
    token: NullableString({ description: 'a preview: pass it to apply' }),
    can_apply: Type.Boolean(),
    can_undo: Type.Boolean(),
    created_at: Type.String({ format: 'date-time' }),
    expires_at: Type.String({ format: 'date-time', description: 'a preview not applied by then cannot be' }),
    applied_at: NullableString({ format: 'date-time' }),
    undone_at: NullableString({ format: 'date-time' }),
  },
  { title: 'Batch' },
);

export function toLegacyBatchItem(i: BatchItem): Record<string, unknown> {
  return { unique_id: i.id, name: i.name, before: i.before, after: i.after, changes: i.changes };
}

export function toLegacyBatch(b: BatchView): Record<string, unknown> {
  return {
    batch_id: b.id,
    status: b.status,
    operation: b.operation,
    target_source: b.targetSource,
    target_count: b.targetCount,
    changed_count: b.changedCount,
    refused: b.refused.map((r) => ({ unique_id: r.id, name: r.name, reason: r.reason })),
    refused_count: b.refusedCount,
    sample: b.sample.map(toLegacyBatchItem),
    token: b.token,
    can_apply: b.canApply,
    can_undo: b.canUndo,
    created_at: b.createdAt.toISOString(),
    expires_at: b.expiresAt.toISOString(),
    applied_at: b.appliedAt?.toISOString() ?? null,
    undone_at: b.undoneAt?.toISOString() ?? null,
  };
}
