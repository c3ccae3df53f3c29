import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../core/context';
import { rawQuery } from '../../core/db/raw';
import { conflict, validationError } from '../../core/errors';
import type { UserService } from '../user/user.service';
import type { ProjectService } from '../project/project.service';
import type { InstrumentService } from '../instrument/instrument.service';
import type { AccessService } from '../permission/access.service';
import type { AccessSelectors } from '../project/access-selectors';
import type { PageRequest, ProjectedPage, Projection, Total } from '../../core/db/page';
import {
  OwnedRecords,
  type OwnedRecordCreate,
  type OwnedRecordPatch,
} from '../owned-record/owned-record.service';
import { Dataset } from './dataset.entity';
import type { MetadataStore } from '../metadata-store/metadata-store';
import type { DatasetPolicy } from './dataset.policy';
import { checkTextFields, TEXT_FIELDS, UPDATABLE, type TextField } from './dataset.fields';
import type { DatasetOrderInput } from './dataset-order';
import { DatasetQuery, type DatasetFilter, type DatasetPage, type ProjectRelation } from './dataset.query';
import { viewNode, viewProjection, type ViewPlan, type ViewRow } from './dataset-view';
import { datasetFacets, type DatasetFacets } from './dataset-facets';
import type { EventService } from '../outbox/event.service';

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
export class DatasetService {
  readonly policy: DatasetPolicy;
  private readonly query: DatasetQuery;
  private readonly records: OwnedRecords<Dataset, TextField>;

  constructor(private readonly deps: DatasetDeps) {
    this.policy = deps.policy;
    this.query = new DatasetQuery(deps);
    this.records = new OwnedRecords({ entity: Dataset, type: 'dataset', text: UPDATABLE }, deps);
  }

  /** A dataset the caller may read; 404 otherwise (also for malformed ids). */
  get(ctx: RequestContext, uniqueId: string): Promise<Dataset> {
    return this.records.get(ctx, uniqueId);
  }

  /** A page newest first, or in `order` (then `page.cursor` is the cursor as issued, undecoded). */
  list(
    ctx: RequestContext,
    filter: DatasetFilter,
    page: PageRequest,
    order?: DatasetOrderInput,
  ): Promise<DatasetPage> {
    return this.query.page(ctx, filter, page, order);
  }

  /**
   * The page {@link list} gives (newest first), as `projection` selects it from the rows rather
   * than as entities (`related`: the filter names a project; see DatasetQuery.projectedPage).
   */
  listProjected<R extends object>(
    ctx: RequestContext,
    filter: DatasetFilter,
    page: PageRequest,
    projection: (related: boolean) => Projection,
  ): Promise<ProjectedPage<R>> {
    return this.query.projectedPage(ctx, filter, page, projection);
  }

  /**
   * The page {@link list} gives (newest first) as the GraphQL list's plain nodes
   * (dataset-view.ts), with what `plan` asks of their relations and, when it asks for it, the
   * total, in one statement; the file counts it carries are primed in the request's loader.
   */
  async listView(
    ctx: RequestContext,
    filter: DatasetFilter,
    page: PageRequest,
    plan: ViewPlan,
  ): Promise<{ page: DatasetPage; total?: Total }> {
    const rows = await this.query.projectedPage<ViewRow>(
      ctx,
      filter,
      page,
      () => viewProjection(plan),
      plan.total,
    );
    const relations = new Map<string, ProjectRelation>();
    const items = rows.rows.map((r) => {
      if (r._extra !== null) relations.set(r._id, r._extra as ProjectRelation);
      if (r._files !== undefined) ctx.loaders.files.count.prime(r._id, r._files);
      return viewNode(r, plan);
    });
    return { page: { items, nextCursor: rows.nextCursor, relations }, total: rows.total };
  }

  /** The ids of every dataset the caller may read that matches `filter`. */
  readableIds(ctx: RequestContext, filter: DatasetFilter = {}): Promise<string[]> {
    return this.query.ids(ctx, filter);
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

  /** A new dataset; its instrument (optional) must be registered. */
  create(ctx: RequestContext, input: DatasetCreateInput): Promise<Dataset> {
    return this.records.create(ctx, input, async (em) => ({
      instrument: (await this.deps.instruments.resolveSelectors(em, input)) ?? null,
    }));
  }

  /** Changes a dataset's fields; its instrument may only be repeated (409 otherwise). */
  update(ctx: RequestContext, uniqueId: string, patch: DatasetPatch): Promise<Dataset> {
    return this.records.update(ctx, uniqueId, patch, (ds) => this.assertSameInstrument(ctx, ds, patch));
  }

  /**
   * Fills the dataset's empty text fields (null or blank) from `values`, inside `tx`, without
   * permission checks: for ingestion, which never overwrites a value a dataset already has
   * (spec 1.5). Values an update would refuse are skipped. Returns the fields it filled.
   */
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
  private async assertSameInstrument(ctx: RequestContext, ds: Dataset, patch: DatasetPatch): Promise<void> {
    const current = ds.instrument ? await ctx.loaders.instrument.load(ds.instrument.uniqueId) : null;
    const checks: [string, string | null | undefined, string | null][] = [
      ['instrument_id', patch.instrumentId, current?.instrumentId ?? ds.legacyInstrumentId ?? null],
      ['instrument_name', patch.instrumentName, current?.instrumentName ?? ds.legacyInstrumentName ?? null],
      ['instrument_mfid', patch.instrumentMfid, current?.uniqueId ?? null],
    ];
    for (const [field, sent, now] of checks) {
      if (sent === undefined) continue;
      if (sent !== null && typeof sent !== 'string') throw validationError(field, 'must be a string');
      if ((sent ?? null) !== now) {
        throw conflict(`${field}: the instrument is fixed at creation and cannot be changed or cleared`);
      }
    }
  }
}
