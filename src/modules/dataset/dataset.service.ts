import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../core/context';
import { rawQuery } from '../../core/db/raw';
import { OwnershipColumns } from '../../core/db/ownership-columns';
import { conflict, validationError } from '../../core/errors';
import type { UserService } from '../user/user.service';
import type { ProjectService } from '../project/project.service';
import type { InstrumentService } from '../instrument/instrument.service';
import type { AccessService } from '../permission/access.service';
import type { AccessSelectors } from '../project/access-selectors';
import type { JsonRowPage } from '../owned-record/owned-record-row';
import type { PageRequest, Projection, Total } from '../../core/db/page';
import {
  OwnedRecords,
  type OwnedRecordCreate,
  type OwnedRecordPatch,
} from '../owned-record/owned-record.service';
import { Dataset } from './dataset.entity';
import type { MetadataStore } from '../metadata-store/metadata-store';
import type { DatasetPolicy } from './dataset.policy';
import { checkTextFields, TEXT_FIELDS, UPDATABLE, type TextField } from './dataset.fields';
import type { DatasetOrder } from './dataset-order';
import { DatasetQuery, type DatasetFilter, type DatasetListInclude, type DatasetPage } from './dataset.query';
import { DATASET_ROWS, type DatasetInclude, type DatasetRow } from './dataset-row';
import {
  datasetFacets,
  datasetFieldFacets,
  type DatasetFacetField,
  type DatasetFacets,
} from './dataset-facets';
import type { FieldFacetPage, FieldFacetRequest } from '../owned-record/field-facets';
import type { EventService } from '../outbox/event.service';
import { assignInstrument, type InstrumentAssignment, type InstrumentSelectors } from './dataset-instrument';

export interface DatasetCreateInput extends OwnedRecordCreate<TextField> {
  instrumentName?: string | null;
  instrumentId?: string | null;
  instrumentMfid?: string | null;
}

export interface DatasetPatch extends OwnedRecordPatch<TextField> {
  /** may only repeat the current instrument: changing or clearing it is a 409 */
  instrumentId?: string | null;
  instrumentName?: string | null;
  instrumentMfid?: string | null;
}

/** A batch edit's target as {@link DatasetService.targetsIn} reads it. */
export interface DatasetTarget {
  id: string;
  name: string | null;
  owner_id: string;
  project_mfid: string | null;
  /** the instrument it was recorded with (a bound service account holds contributor through it) */
  instrument_mfid: string | null;
  public: boolean;
  /** the field asked for (null when none was) */
  value: string | boolean | null;
}

export interface DatasetDeps {
  users: UserService;
  projects: ProjectService;
  instruments: InstrumentService;
  access: AccessService;
  selectors: AccessSelectors;
  policy: DatasetPolicy;
  metadata: MetadataStore;
  events: EventService;
}

/** Dataset records: create, read, update and list, under the dataset policy. */
/** The ownership columns of `dataset`, written only through this module. */
export const DATASET_OWNERSHIP = new OwnershipColumns('dataset');

export class DatasetService {
  readonly policy: DatasetPolicy;
  /** owner, project and public flag, for transfer, reassignment and user deletion (`…In(tx)`) */
  readonly ownership = DATASET_OWNERSHIP;
  private readonly query: DatasetQuery;
  private readonly records: OwnedRecords<Dataset, TextField, DatasetRow, DatasetInclude>;

  constructor(private readonly deps: DatasetDeps) {
    this.policy = deps.policy;
    this.query = new DatasetQuery(deps);
    this.records = new OwnedRecords(
      { entity: Dataset, rows: DATASET_ROWS, type: 'dataset', text: UPDATABLE },
      deps,
    );
  }

  /** A dataset the caller may read, as an entity to change; 404 otherwise (also for malformed ids). */
  get(ctx: RequestContext, uniqueId: string): Promise<Dataset> {
    return this.records.get(ctx, uniqueId);
  }

  /** A dataset the caller may read, as a row with `include`; 404 otherwise. */
  read(ctx: RequestContext, uniqueId: string, include: DatasetInclude = {}): Promise<DatasetRow> {
    return this.records.read(ctx, uniqueId, include);
  }

  /** The datasets of `ids` the caller may read, as rows with `include`, in one statement; others left out. */
  readable(ctx: RequestContext, ids: readonly string[], include: DatasetInclude = {}): Promise<DatasetRow[]> {
    return this.records.readable(ctx, ids, include);
  }

  /**
   * The row of a dataset as committed after a change the caller made, with `include`; no
   * permission check (a transfer may have taken it out of the caller's reach).
   */
  reread(ctx: RequestContext, uniqueId: string, include: DatasetInclude = {}): Promise<DatasetRow> {
    return this.records.written(ctx.em, uniqueId, include);
  }

  /**
   * A page of rows with `include`, newest first, or in `order` (then `page.cursor` is the cursor
   * as issued, undecoded); with `include.total`, the list's total in the same statement.
   */
  list(
    ctx: RequestContext,
    filter: DatasetFilter,
    page: PageRequest,
    include: DatasetListInclude = {},
    order?: DatasetOrder,
  ): Promise<DatasetPage> {
    return this.query.page(ctx, filter, page, include, order);
  }

  /**
   * The page {@link list} reads newest first, each row selected by `select(related)` over the
   * projected row (alias `r`) instead of its columns: the REST list's JSON, written by PostgreSQL
   * from the rows (`related`: the filter names a project, whose relation is `r._extra`).
   */
  listJson(
    ctx: RequestContext,
    filter: DatasetFilter,
    page: PageRequest,
    include: DatasetInclude,
    select: (related: boolean) => Projection,
  ): Promise<JsonRowPage> {
    return this.query.pageJson(ctx, filter, page, include, select);
  }

  /** The ids of every dataset the caller may read that matches `filter` (at most `limit`, newest first). */
  readableIds(ctx: RequestContext, filter: DatasetFilter = {}, limit?: number): Promise<string[]> {
    return this.query.ids(ctx, filter, limit);
  }

  /**
   * Sets one updatable text field of many datasets inside `tx`, each to its own value
   * (`values`: MFID and value), in one statement, without permission checks (batch edits: the
   * caller has checked and locked the rows). Values must already be checked.
   */
  async setFieldManyIn(
    tx: EntityManager,
    field: TextField,
    values: readonly { id: string; value: string | null }[],
  ): Promise<void> {
    if (!values.length) return;
    const column = UPDATABLE[field].wire;
    await rawQuery(
      tx,
      `update dataset d set ${column} = v.value, modification_time = now()
       from jsonb_to_recordset(?::jsonb) as v(id text, value text) where d.unique_id = v.id`,
      [JSON.stringify(values)],
    );
  }

  /**
   * The names of the datasets of `ids` the caller may read (others left out), in one light
   * statement: a batch's targets as listed, and its items' names.
   */
  async readableNames(ctx: RequestContext, ids: readonly string[]): Promise<Map<string, string | null>> {
    const visible = await this.policy.visibleWhere(ctx, 'd');
    const rows = await rawQuery<{ id: string; name: string | null }>(
      ctx.em,
      `select d.unique_id as id, d.dataset_name as name from dataset d
       where d.unique_id in (select jsonb_array_elements_text(?::jsonb)) and ${visible ? `(${visible.sql})` : 'true'}`,
      [JSON.stringify(ids), ...(visible?.params ?? [])],
    );
    return new Map(rows.map((r) => [r.id, r.name]));
  }

  /**
   * The columns the permission rules read of many datasets, and the `field`'s value (text, or
   * the public flag), in MFID order, through `em` without permission checks (a batch edit's
   * targets); with `lock`, the same statement locks their rows (`for update`, taken in MFID
   * order, after the sort: two batches over the same rows queue instead of deadlocking).
   */
  async targetsIn(
    em: EntityManager,
    ids: readonly string[],
    opts: { lock: boolean; field?: TextField | 'public' },
  ): Promise<DatasetTarget[]> {
    const list = JSON.stringify(ids);
    const column =
      opts.field === undefined
        ? 'null'
        : `d.${opts.field === 'public' ? 'public' : UPDATABLE[opts.field].wire}`;
    return rawQuery<DatasetTarget>(
      em,
      `select d.unique_id as id, d.dataset_name as name, d.owner_id, d.project_mfid, d.instrument_mfid, d.public, ${column} as value
       from dataset d where d.unique_id in (select jsonb_array_elements_text(?::jsonb)) order by d.unique_id
       ${opts.lock ? 'for update' : ''}`,
      [list],
    );
  }

  count(ctx: RequestContext, filter: DatasetFilter): Promise<number> {
    return this.query.count(ctx, filter);
  }

  /** The list total (bounded for full-text and metadata searches, docs/scale.md). */
  total(ctx: RequestContext, filter: DatasetFilter): Promise<Total> {
    return this.query.total(ctx, filter);
  }

  /** Facet counts of the datasets `filter` selects for the caller. */
  facets(ctx: RequestContext, filter: DatasetFilter): Promise<DatasetFacets> {
    return datasetFacets(ctx, this.query, filter);
  }

  /** One page of the buckets of one field over the datasets `filter` selects for the caller (exact counts). */
  facetField(
    ctx: RequestContext,
    filter: DatasetFilter,
    req: FieldFacetRequest & { field: DatasetFacetField },
  ): Promise<FieldFacetPage> {
    return datasetFieldFacets(ctx, this.query, filter, req);
  }

  /** A new dataset (its row with `include`); its instrument (optional) must be registered. */
  create(ctx: RequestContext, input: DatasetCreateInput, include: DatasetInclude = {}): Promise<DatasetRow> {
    return this.records.create(ctx, input, include, async (em) => ({
      instrument: (await this.deps.instruments.resolveSelectors(em, input)) ?? null,
    }));
  }

  /** Changes a dataset's fields (its row with `include`); its instrument may only be repeated (409 otherwise). */
  update(
    ctx: RequestContext,
    uniqueId: string,
    patch: DatasetPatch,
    include: DatasetInclude = {},
  ): Promise<DatasetRow> {
    return this.records.update(ctx, uniqueId, patch, include, () =>
      this.assertSameInstrument(ctx, uniqueId, patch),
    );
  }

  /**
   * Assigns a registered instrument to a dataset (the one way to change it: updates may only
   * repeat it); needs `update` on the dataset and read access to the instrument.
   */
  assignInstrument(
    ctx: RequestContext,
    uniqueId: string,
    input: InstrumentSelectors,
  ): Promise<InstrumentAssignment> {
    return assignInstrument(this.deps, ctx, uniqueId, input);
  }

  /**
   * Fills the dataset's empty text fields (null or blank) from `values`, inside `tx`, without
   * permission checks: for ingestion, which never overwrites a value a dataset already has
   * (spec 1.5). Values an update would refuse are skipped. Returns the fields it filled.
   */
  /**
   * Adds `delta` bytes (negative: removes them, never below 0) to the dataset's size, inside the
   * caller's transaction (the file module, as files are stored and removed).
   */
  async changeSizeIn(em: EntityManager, uniqueId: string, delta: number): Promise<void> {
    await rawQuery(em, 'update dataset set size = greatest(size + ?, 0) where unique_id = ?', [
      delta,
      uniqueId,
    ]);
  }

  async fillEmptyIn(
    tx: EntityManager,
    uniqueId: string,
    values: Partial<Record<TextField, string>>,
  ): Promise<TextField[]> {
    const keys = TEXT_FIELDS.filter((key) => {
      const value = values[key];
      return value !== undefined && value.trim() !== '' && !checkTextFields({ [key]: value }).length;
    });
    if (!keys.length) return [];
    // one statement for every field: each is set only where it is empty, and the old row
    // (locked first) says which were
    const cols = keys.map((key) => UPDATABLE[key].wire);
    const empty = (c: string) => `coalesce(btrim(o.${c}), '') = ''`;
    const rows = await rawQuery<Record<string, boolean>>(
      tx,
      `with o as (select ${cols.join(', ')} from dataset where unique_id = ? for no key update)
       update dataset d set ${cols.map((c) => `${c} = case when ${empty(c)} then ? else d.${c} end`).join(', ')},
         modification_time = now()
       from o where d.unique_id = ? and (${cols.map(empty).join(' or ')})
       returning ${cols.map((c, i) => `${empty(c)} as f${String(i)}`).join(', ')}`,
      [uniqueId, ...keys.map((key) => values[key]), uniqueId],
    );
    return rows.length ? keys.filter((_, i) => rows[0][`f${String(i)}`]) : [];
  }

  /** Instrument assignment is fixed at creation: resubmitting it is fine, changing it is 409. */
  private async assertSameInstrument(
    ctx: RequestContext,
    uniqueId: string,
    patch: DatasetPatch,
  ): Promise<void> {
    const sent = [patch.instrumentId, patch.instrumentName, patch.instrumentMfid];
    if (sent.every((v) => v === undefined)) return;
    const ds = await this.records.written(ctx.em, uniqueId, { instrument: true });
    const checks: [string, string | null | undefined, string | null][] = [
      ['instrument_id', patch.instrumentId, ds.instrumentId ?? null],
      ['instrument_name', patch.instrumentName, ds.instrumentName ?? null],
      ['instrument_mfid', patch.instrumentMfid, ds.instrumentMfid],
    ];
    for (const [field, value, now] of checks) {
      if (value === undefined) continue;
      if (value !== null && typeof value !== 'string') throw validationError(field, 'must be a string');
      if ((value ?? null) !== now) {
        throw conflict(
          `${field}: an update cannot change or clear the instrument: PUT /datasets/${uniqueId}/instrument assigns another`,
        );
      }
    }
  }
}
