import { embargoEndSql, embargoedSql } from '../../core/db/embargo-sql';
import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../core/context';
import { rawQuery } from '../../core/db/raw';
import { or, sql, type Sql } from '../../core/db/sql';
import { forbidden } from '../../core/errors';
import { EMBARGO_MAX, parseEmbargoDate } from './embargo-date';
import type { AccessService } from '../permission/access.service';

/**
 * THE embargo rule (docs/access-control.md, "Embargo"), in one place for every route that carries
 * bytes: file downloads (REST, legacy, signed links), download links, dataset archives,
 * thumbnails, previews.
 *
 * A dataset's bytes are **embargoed** while the later of its own `embargo_until` and the
 * `embargo_until` of every *published* publication that contains it lies after the database's
 * `now()` of the statement that asks: decided when the request is read, never by a job, and open
 * **at** that moment (`until > now()` is false when they are equal). While embargoed, the bytes are
 * readable only by callers who read the dataset through a role on it: its owner, its project's
 * members and lead, grantees (users, projects, named groups), bound instrument service accounts
 * and platform administrators (everything `readableCondition` gives but the public flag).
 * Metadata is untouched: whoever reads the record still reads it. An embargo only narrows: on a
 * private dataset every reader already holds a role, so it closes nothing until the dataset is
 * made public, and its end never opens a dataset the caller may not read.
 *
 * The bytes of a record the caller may not read stay a 404 (the record's own policy answers
 * first); of a readable record under embargo, 403 (`assertBytesReadable`), or left out of batch
 * answers (`bytesReadableCondition`, `closedLoader`).
 */
export class EmbargoGate {
  constructor(private readonly access: AccessService) {}

  /**
   * The condition, on rows of `dataset <alias>` the caller may already read (AND it with the
   * dataset's visibility condition), that keeps those whose bytes the caller may read now. Null
   * for platform administrators (no restriction). Use it in every query that hands out bytes of
   * many datasets (thumbnail batches, previews, archive listings).
   */
  async bytesReadableCondition(ctx: RequestContext, alias: string): Promise<Sql | null> {
    const exempt = await this.access.readableCondition(ctx, 'dataset', alias, { public: false });
    if (exempt === null) return null;
    return or(sql(`not ${embargoedSql(alias)}`), exempt);
  }

  /**
   * 403 when the caller may not read the bytes of dataset `datasetMfid` now (embargoed, and no role
   * on it). Call it after the dataset was read through its policy (an unreadable one is a 404
   * there): single downloads, download links, archives, one dataset's thumbnails or previews.
   */
  async assertBytesReadable(ctx: RequestContext, datasetMfid: string): Promise<void> {
    const closed = await this.closedUntil(ctx, datasetMfid);
    if (closed) {
      throw forbidden(
        `The files of dataset ${datasetMfid} are under embargo until ${closed.toISOString()}: until then only its owner, project members, grantees and platform administrators may read them`,
      );
    }
  }

  /** When the bytes of this dataset open for the caller, or null when they may read them now. */
  async closedUntil(ctx: RequestContext, datasetMfid: string): Promise<Date | null> {
    const open = await this.bytesReadableCondition(ctx, 'd');
    if (!open) return null;
    const rows = await rawQuery<{ until: Date | string }>(
      ctx.em,
      `select ${embargoEndSql('d')} as until from dataset d
       where d.unique_id = ? and not coalesce((${open.sql}), false)`,
      [datasetMfid, ...open.params],
    );
    return rows.length ? new Date(rows[0].until) : null;
  }

  /**
   * Per request, the state of datasets' bytes for the caller (batched: lists of datasets ask it
   * once per dataset, one statement per batch): `open` (no embargo now), `exempt` (under embargo,
   * the caller holds a role on it) or `closed`. For GraphQL fields that show bytes or links.
   * Pass datasets the caller reads (an unknown MFID is `open`: nothing to hand out).
   */
  bytesLoader(ctx: RequestContext): Promise<DataLoader<string, BytesState>> {
    return ctx.memo('embargo.bytes', async () => {
      const open = await this.bytesReadableCondition(ctx, 'd');
      return new DataLoader<string, BytesState>(async (ids) => {
        const rows = await rawQuery<{ unique_id: string; embargoed: boolean; closed: boolean }>(
          ctx.em,
          `select d.unique_id, ${embargoedSql('d')} as embargoed,
             ${open ? `not coalesce((${open.sql}), false)` : 'false'} as closed
           from dataset d where d.unique_id in (?)`,
          [...(open?.params ?? []), [...ids]],
        );
        const byId = new Map(rows.map((r) => [r.unique_id, r]));
        return ids.map((id) => {
          const r = byId.get(id);
          if (!r?.embargoed) return 'open';
          return r.closed ? 'closed' : 'exempt';
        });
      });
    });
  }

  /**
   * Whether the bytes of this dataset are under embargo now, whoever asks (signed links carry no
   * caller: a link handed out while the bytes were open stops working when an embargo starts).
   */
  async embargoedNow(em: EntityManager, datasetMfid: string): Promise<boolean> {
    const rows = await rawQuery<{ closed: boolean }>(
      em,
      `select ${embargoedSql('d')} as closed from dataset d where d.unique_id = ?`,
      [datasetMfid],
    );
    return rows.at(0)?.closed ?? false;
  }
}

/** What the caller may do with a dataset's bytes now (`EmbargoGate.bytesLoader`). */
export type BytesState = 'open' | 'exempt' | 'closed';

export { embargoEndSql, embargoedSql };

export { EMBARGO_MAX, parseEmbargoDate };
