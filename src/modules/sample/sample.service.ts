import type { RequestContext } from '../../core/context';
import { OwnershipColumns } from '../../core/db/ownership-columns';
import type { JsonRowPage } from '../owned-record/owned-record-row';
import type { PageRequest, Projection, Total } from '../../core/db/page';
import type { AccessService } from '../permission/access.service';
import type { AccessSelectors } from '../project/access-selectors';
import type { UserService } from '../user/user.service';
import type { ProjectService } from '../project/project.service';
import {
  OwnedRecords,
  type OwnedRecordCreate,
  type OwnedRecordPatch,
} from '../owned-record/owned-record.service';
import { Sample } from './sample.entity';
import type { MetadataStore } from '../metadata-store/metadata-store';
import type { SamplePolicy } from './sample.policy';
import { SampleQuery, type SampleFilter, type SampleOrder, type SamplePage } from './sample.query';
import { SAMPLE_ROWS, type SampleInclude, type SampleRow } from './sample-row';
import { SAMPLE_TEXT, type SampleTextField } from './sample.fields';
import type { EventService } from '../outbox/event.service';
import {
  fieldFacetPage,
  rowGroups,
  type FacetFieldSpec,
  type FieldFacetPage,
  type FieldFacetRequest,
} from '../owned-record/field-facets';
import { sampleFieldTotals } from './sample-total';

/** The fields a sample facet page groups by (the 3.2 client's names). */
export const SAMPLE_FACET_FIELDS: Record<'sample_type' | 'owner' | 'project', FacetFieldSpec> = {
  sample_type: { column: 'sample_type', ref: null },
  owner: { column: 'owner_id', ref: 'owner' },
  project: { column: 'project_mfid', ref: 'project' },
};
export type SampleFacetField = keyof typeof SAMPLE_FACET_FIELDS;

export type SampleCreateInput = OwnedRecordCreate<SampleTextField>;
export type SamplePatch = OwnedRecordPatch<SampleTextField>;

export interface SampleDeps {
  users: UserService;
  projects: ProjectService;
  access: AccessService;
  selectors: AccessSelectors;
  policy: SamplePolicy;
  metadata: MetadataStore;
  events: EventService;
}

/** Sample records: create, read, update and list, under the sample policy. */
/** The ownership columns of `sample`, written only through this module. */
export const SAMPLE_OWNERSHIP = new OwnershipColumns('sample');

export class SampleService {
  readonly policy: SamplePolicy;
  /** owner, project and public flag, for transfer, reassignment and user deletion (`…In(tx)`) */
  readonly ownership = SAMPLE_OWNERSHIP;
  private readonly query: SampleQuery;
  private readonly access: AccessService;
  private readonly records: OwnedRecords<Sample, SampleTextField, SampleRow, SampleInclude>;

  constructor(deps: SampleDeps) {
    this.policy = deps.policy;
    this.access = deps.access;
    this.query = new SampleQuery(deps);
    this.records = new OwnedRecords(
      { entity: Sample, rows: SAMPLE_ROWS, type: 'sample', text: SAMPLE_TEXT },
      deps,
    );
  }

  /** A sample the caller may read, as an entity to change; 404 otherwise (also for malformed ids). */
  get(ctx: RequestContext, uniqueId: string): Promise<Sample> {
    return this.records.get(ctx, uniqueId);
  }

  /** A sample the caller may read, as a row with `include`; 404 otherwise. */
  read(ctx: RequestContext, uniqueId: string, include: SampleInclude = {}): Promise<SampleRow> {
    return this.records.read(ctx, uniqueId, include);
  }

  /** The samples of `ids` the caller may read, as rows with `include`, in one statement; others left out. */
  readable(ctx: RequestContext, ids: readonly string[], include: SampleInclude = {}): Promise<SampleRow[]> {
    return this.records.readable(ctx, ids, include);
  }

  /**
   * The row of a sample as committed after a change the caller made, with `include`; no
   * permission check (a transfer may have taken it out of the caller's reach).
   */
  reread(ctx: RequestContext, uniqueId: string, include: SampleInclude = {}): Promise<SampleRow> {
    return this.records.written(ctx.em, uniqueId, include);
  }

  /**
   * A page of rows with `include`, newest first, or in `order` (then `page.cursor` is the cursor
   * as issued, undecoded).
   */
  list(
    ctx: RequestContext,
    filter: SampleFilter,
    page: PageRequest,
    include: SampleInclude = {},
    order?: SampleOrder,
  ): Promise<SamplePage> {
    return this.query.page(ctx, filter, page, include, order);
  }

  /**
   * The page {@link list} reads, each row selected by `select` over the projected row (alias
   * `r`) instead of its columns: the REST list's JSON, written by PostgreSQL from the rows.
   */
  listJson(
    ctx: RequestContext,
    filter: SampleFilter,
    page: PageRequest,
    include: SampleInclude,
    select: Projection,
  ): Promise<JsonRowPage> {
    return this.query.pageJson(ctx, filter, page, include, select);
  }

  count(ctx: RequestContext, filter: SampleFilter): Promise<number> {
    return this.query.count(ctx, filter);
  }

  /** The list total (bounded for metadata conditions, docs/scale.md). */
  total(ctx: RequestContext, filter: SampleFilter): Promise<Total> {
    return this.query.total(ctx, filter);
  }

  /**
   * One page of the buckets of one field over the samples `filter` selects for the caller (exact
   * counts; docs/scale.md, "Facet fields and sorted pages").
   */
  async facetField(
    ctx: RequestContext,
    filter: SampleFilter,
    req: FieldFacetRequest & { field: SampleFacetField },
  ): Promise<FieldFacetPage> {
    const spec = SAMPLE_FACET_FIELDS[req.field];
    // no filter besides `public`: the field's rows of sample_total; any other: the matching rows
    const groups =
      (await sampleFieldTotals(ctx, this.access, filter, spec.column)) ??
      rowGroups('sample s', `s.${spec.column}`, await this.query.compile(ctx, filter));
    return fieldFacetPage(ctx, spec, groups, req);
  }

  /** A new sample (its row with `include`). */
  create(ctx: RequestContext, input: SampleCreateInput, include: SampleInclude = {}): Promise<SampleRow> {
    return this.records.create(ctx, input, include);
  }

  /** Changes a sample's fields (its row with `include`). */
  update(
    ctx: RequestContext,
    uniqueId: string,
    patch: SamplePatch,
    include: SampleInclude = {},
  ): Promise<SampleRow> {
    return this.records.update(ctx, uniqueId, patch, include);
  }
}
