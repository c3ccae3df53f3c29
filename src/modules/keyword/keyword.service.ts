import { DATASET_MAX_KEYWORDS } from '../dataset/dataset.fields';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../core/context';
import { rawQuery } from '../../core/db/raw';
import { AppError, validationError } from '../../core/errors';
import type { DatasetService } from '../dataset/dataset.service';
import { actorOf, type EventService } from '../outbox/event.service';

export interface KeywordCount {
  keyword: string;
  /** how many datasets the caller may read carry this keyword */
  numDatasets: number;
}

const MAX_KEYWORD = 200;

/** Keywords on datasets: added one per request, listed with their dataset counts. */
export class KeywordService {
  constructor(
    private readonly datasets: DatasetService,
    private readonly events: EventService,
  ) {}

  normalize(raw: unknown): string {
    if (typeof raw !== 'string' || raw.trim() === '') throw validationError('keyword', 'is required');
    const keyword = raw.trim().replace(/\s+/g, ' ');
    if (keyword.length > MAX_KEYWORD)
      throw validationError('keyword', `must be at most ${MAX_KEYWORD} characters`);
    return keyword;
  }

  /** Adds a keyword to a dataset (idempotent) and returns it with its count. */
  async add(ctx: RequestContext, datasetId: string, raw: unknown): Promise<KeywordCount> {
    const keyword = this.normalize(raw);
    const ds = await this.datasets.get(ctx, datasetId);
    await this.datasets.policy.assertCan(ctx, 'contribute', ds);
    const added = await ctx.em.transactional(async (tx) => {
      const result = await this.addIn(tx, ds.uniqueId, keyword);
      if (result === 'added') {
        await this.events.emit(tx, {
          type: 'keyword.added',
          actorId: actorOf(ctx),
          resourceId: ds.uniqueId,
          resourceType: 'dataset',
          payload: { keyword },
        });
      }
      return result;
    });
    if (added === 'full') {
      throw new AppError(
        'CONFLICT',
        `Dataset ${ds.uniqueId} already has ${DATASET_MAX_KEYWORDS} keywords, the most a dataset may carry`,
        [{ field: 'keyword', message: `a dataset carries at most ${DATASET_MAX_KEYWORDS} keywords` }],
      );
    }
    const counts = await this.counts(ctx, [keyword]);
    return counts[0] ?? { keyword, numDatasets: 1 };
  }

  /**
   * Removes a keyword from a dataset: `update` permission (editors, as for its fields); removing
   * one it does not carry changes nothing (null: no event), as adding one it has. A
   * `keyword.removed` event in the same transaction. Answers the keyword as the dataset carried it.
   */
  async remove(ctx: RequestContext, datasetId: string, raw: unknown): Promise<string | null> {
    const keyword = this.normalize(raw);
    const ds = await this.datasets.get(ctx, datasetId);
    await this.datasets.policy.assertCan(ctx, 'update', ds);
    const removed = await ctx.em.transactional(async (tx) => {
      const rows = await rawQuery<{ text: string }>(
        tx,
        `delete from dataset_keyword dk using keyword k
         where k.id = dk.keyword_id and dk.dataset_mfid = ? and lower(k.text) = lower(?)
         returning k.text`,
        [ds.uniqueId, keyword],
      );
      if (!rows.length) return null;
      await this.events.emit(tx, {
        type: 'keyword.removed',
        actorId: actorOf(ctx),
        resourceId: ds.uniqueId,
        resourceType: 'dataset',
        payload: { keyword: rows[0].text },
      });
      return rows[0].text;
    });
    return removed;
  }

  /**
   * Adds a normalized keyword to a dataset inside `tx`, without permission checks (for
   * ingestion); adding it again changes nothing. A dataset that already carries
   * `DATASET_MAX_KEYWORDS` keywords gets no new one (`full`): the count is taken under the
   * dataset's row lock, so concurrent additions cannot pass the cap.
   */
  async addIn(tx: EntityManager, datasetId: string, keyword: string): Promise<'added' | 'present' | 'full'> {
    await rawQuery(tx, `select 1 from dataset where unique_id = ? for no key update`, [datasetId]);
    await rawQuery(tx, `insert into keyword (text) values (?) on conflict ((lower(text))) do nothing`, [
      keyword,
    ]);
    const [row] = await rawQuery<{ present: boolean; n: number }>(
      tx,
      `select exists (select 1 from dataset_keyword dk join keyword k on k.id = dk.keyword_id
                      where dk.dataset_mfid = ? and lower(k.text) = lower(?)) as present,
              (select count(*)::int from dataset_keyword where dataset_mfid = ?) as n`,
      [datasetId, keyword, datasetId],
    );
    if (row.present) return 'present';
    if (row.n >= DATASET_MAX_KEYWORDS) return 'full';
    await rawQuery(
      tx,
      `insert into dataset_keyword (dataset_mfid, keyword_id)
       select ?, id from keyword where lower(text) = lower(?) on conflict do nothing`,
      [datasetId, keyword],
    );
    return 'added';
  }

  /**
   * Adds a normalized keyword to many datasets inside `tx` in two statements, without permission
   * checks (batch edits: the caller has locked the rows and checked the keyword cap).
   */
  async addManyIn(tx: EntityManager, datasetIds: readonly string[], keyword: string): Promise<void> {
    if (!datasetIds.length) return;
    await rawQuery(tx, `insert into keyword (text) values (?) on conflict ((lower(text))) do nothing`, [
      keyword,
    ]);
    await rawQuery(
      tx,
      `insert into dataset_keyword (dataset_mfid, keyword_id)
       select ids.id, k.id from (select jsonb_array_elements_text(?::jsonb) as id) ids
       cross join keyword k where lower(k.text) = lower(?) on conflict do nothing`,
      [JSON.stringify(datasetIds), keyword],
    );
  }

  /** Removes a keyword (any case) from many datasets inside `tx`, without permission checks (batch edits). */
  async removeManyIn(tx: EntityManager, datasetIds: readonly string[], keyword: string): Promise<void> {
    if (!datasetIds.length) return;
    await rawQuery(
      tx,
      `delete from dataset_keyword where dataset_mfid in (select jsonb_array_elements_text(?::jsonb))
       and keyword_id in (select id from keyword where lower(text) = lower(?))`,
      [JSON.stringify(datasetIds), keyword],
    );
  }

  /**
   * Whether each of many datasets carries a keyword (any case), and how many keywords it
   * carries, read through `em` in one statement (a batch edit's targets: `tx` holds their locks).
   */
  async presenceManyIn(
    em: EntityManager,
    datasetIds: readonly string[],
    keyword: string,
  ): Promise<Map<string, { has: boolean; n: number }>> {
    const rows = await rawQuery<{ id: string; has: boolean; n: number }>(
      em,
      `select dk.dataset_mfid as id, bool_or(lower(k.text) = lower(?)) as has, count(*)::int as n
       from dataset_keyword dk join keyword k on k.id = dk.keyword_id
       where dk.dataset_mfid in (select jsonb_array_elements_text(?::jsonb)) group by dk.dataset_mfid`,
      [keyword, JSON.stringify(datasetIds)],
    );
    return new Map(rows.map((r) => [r.id, { has: r.has, n: r.n }]));
  }

  /** The keywords of a dataset the caller may read, with counts. */
  async ofDataset(ctx: RequestContext, datasetId: string): Promise<KeywordCount[]> {
    const ds = await this.datasets.get(ctx, datasetId);
    const rows = await rawQuery<{ text: string }>(
      ctx.em,
      `select k.text from dataset_keyword dk join keyword k on k.id = dk.keyword_id where dk.dataset_mfid = ? order by k.text`,
      [ds.uniqueId],
    );
    return rows.length
      ? this.counts(
          ctx,
          rows.map((r) => r.text),
        )
      : [];
  }

  /** Counts, per keyword, the datasets the caller may read that carry it. */
  async counts(ctx: RequestContext, keywords: string[]): Promise<KeywordCount[]> {
    const visible = await this.datasets.policy.visibleWhere(ctx, 'd');
    const rows = await rawQuery<{ keyword: string; n: number }>(
      ctx.em,
      `select k.text as keyword, count(d.unique_id)::int as n
       from keyword k
       left join dataset_keyword dk on dk.keyword_id = k.id
       left join dataset d on d.unique_id = dk.dataset_mfid and ${visible ? `(${visible.sql})` : 'true'}
       where lower(k.text) in (?)
       group by k.text order by k.text`,
      [...(visible?.params ?? []), keywords.map((k) => k.toLowerCase())],
    );
    return rows.map((r) => ({ keyword: r.keyword, numDatasets: r.n }));
  }
}
