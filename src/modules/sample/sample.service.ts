import type { RequestContext } from '../../core/context';
import type { PageRequest, ProjectedPage, Projection, RowPage, Total } from '../../core/db/page';
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
import { SampleQuery, type SampleFilter } from './sample.query';
import { SAMPLE_TEXT, type SampleTextField } from './sample.fields';
import type { EventService } from '../outbox/event.service';

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
export class SampleService {
  readonly policy: SamplePolicy;
  private readonly query: SampleQuery;
  private readonly records: OwnedRecords<Sample, SampleTextField>;

  constructor(deps: SampleDeps) {
    this.policy = deps.policy;
    this.query = new SampleQuery(deps);
    this.records = new OwnedRecords({ entity: Sample, type: 'sample', text: SAMPLE_TEXT }, deps);
  }

  /** A sample the caller may read; 404 otherwise (also for malformed ids). */
  get(ctx: RequestContext, uniqueId: string): Promise<Sample> {
    return this.records.get(ctx, uniqueId);
  }

  list(ctx: RequestContext, filter: SampleFilter, page: PageRequest): Promise<RowPage<Sample>> {
    return this.query.page(ctx, filter, page);
  }

  /** The page {@link list} gives, as `projection` selects it from the rows rather than as entities. */
  listProjected<R extends object>(
    ctx: RequestContext,
    filter: SampleFilter,
    page: PageRequest,
    projection: Projection,
  ): Promise<ProjectedPage<R>> {
    return this.query.projectedPage(ctx, filter, page, projection);
  }

  count(ctx: RequestContext, filter: SampleFilter): Promise<number> {
    return this.query.count(ctx, filter);
  }

  /** The list total (bounded for metadata conditions, docs/scale.md). */
  total(ctx: RequestContext, filter: SampleFilter): Promise<Total> {
    return this.query.total(ctx, filter);
  }

  create(ctx: RequestContext, input: SampleCreateInput): Promise<Sample> {
    return this.records.create(ctx, input);
  }

  update(ctx: RequestContext, uniqueId: string, patch: SamplePatch): Promise<Sample> {
    return this.records.update(ctx, uniqueId, patch);
  }
}
