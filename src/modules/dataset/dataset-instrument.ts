import type { RequestContext } from '../../core/context';
import { forbidden, notFound, validationError } from '../../core/errors';
import { rawQuery } from '../../core/db/raw';
import { allows, refusal } from '../permission/permission';
import type { Instrument } from '../instrument/instrument.entity';
import type { InstrumentService } from '../instrument/instrument.service';
import { actorOf, type EventService } from '../outbox/event.service';
import type { DatasetPolicy } from './dataset.policy';

/** What `PUT /datasets/{id}/instrument` (GraphQL `setDatasetInstrument`) asks: a slug and/or an MFID. */
export interface InstrumentSelectors {
  instrumentId?: unknown;
  instrumentMfid?: unknown;
}

/** The outcome of assigning an instrument: the one it replaced (or the legacy label), and the new one. */
export interface InstrumentAssignment {
  datasetId: string;
  /** the registered instrument it had, if any */
  previous: Instrument | null;
  /** the instrument name it showed: the registered instrument's, or a legacy record's label */
  previousName: string | null;
  instrument: Instrument;
}

interface LockedRow {
  owner_id: string;
  project_mfid: string | null;
  public: boolean;
  instrument_mfid: string | null;
  name: string | null;
}

/** A selector's value: undefined when absent (or null), else a non-blank string (422 naming it). */
function selector(field: string, value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || !value.trim()) throw validationError(field, 'must be a non-empty string');
  return value.trim();
}

/**
 * Assigns a registered instrument to a dataset (spec 2.1 rule 5 keeps ordinary updates from
 * changing it; this is the one route that does). Needs `manage` on the dataset (the service
 * accounts bound to the instrument get contributor on it: assigning one shares the dataset,
 * docs/access-control.md §5a) and read access to the instrument (an unknown or unreadable one is 404 like a missing one). The check and the
 * write share one transaction holding the dataset's row lock, the check made on the row as
 * locked. Assigning the instrument it already has changes nothing and answers the same.
 */
export async function assignInstrument(
  deps: { policy: DatasetPolicy; instruments: InstrumentService; events: EventService },
  ctx: RequestContext,
  uniqueId: string,
  input: InstrumentSelectors,
): Promise<InstrumentAssignment> {
  const sel = {
    instrumentId: selector('instrument_id', input.instrumentId),
    instrumentMfid: selector('instrument_mfid', input.instrumentMfid),
  };
  if (sel.instrumentId === undefined && sel.instrumentMfid === undefined) {
    throw validationError('instrument_id', 'is required (or instrument_mfid)');
  }
  const missing = () => notFound('Dataset', uniqueId);
  const readable = async (row: LockedRow | undefined, c: RequestContext) => {
    if (!row) throw missing();
    const subject = {
      uniqueId,
      type: 'dataset' as const,
      ownerId: row.owner_id,
      projectMfid: row.project_mfid,
      instrumentMfid: row.instrument_mfid,
      public: row.public,
    };
    const p = await deps.policy.permissionOf(c, subject);
    if (!p) throw missing();
    return p;
  };
  const lookup = (em: RequestContext['em'], lock: boolean) =>
    rawQuery<LockedRow>(
      em,
      `select d.owner_id, d.project_mfid, d.public, d.instrument_mfid,
              coalesce(i.instrument_name, d.legacy_instrument_name) as name
       from dataset d left join instrument i on i.unique_id = d.instrument_mfid
       where d.unique_id = ?${lock ? ' for update of d' : ''}`,
      [uniqueId],
    );
  // the dataset first: an unreadable one is 404 whatever the instrument
  await readable((await lookup(ctx.em, false))[0], ctx);
  const instrument = await deps.instruments.readableBySelectors(ctx, sel);
  const result = await ctx.em.transactional(async (tx) => {
    const [row] = await lookup(tx, true);
    const p = await readable(row, ctx.within(tx));
    if (!allows(p, 'manage')) throw forbidden(refusal('manage', `dataset ${uniqueId}`, p));
    if (row.instrument_mfid !== instrument.uniqueId) {
      await rawQuery(
        tx,
        `update dataset set instrument_mfid = ?, legacy_instrument_id = null, legacy_instrument_name = null,
           modification_time = now()
         where unique_id = ?`,
        [instrument.uniqueId, uniqueId],
      );
      await deps.events.emit(tx, {
        type: 'dataset.updated',
        actorId: actorOf(ctx),
        resourceId: uniqueId,
        resourceType: 'dataset',
        projectMfid: row.project_mfid,
        payload: { changes: { instrument_mfid: { from: row.instrument_mfid, to: instrument.uniqueId } } },
      });
    }
    return row;
  });
  const previous = result.instrument_mfid
    ? await deps.instruments.find(ctx.em, result.instrument_mfid)
    : null;
  return { datasetId: uniqueId, previous, previousName: result.name, instrument };
}
