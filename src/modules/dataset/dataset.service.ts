import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../core/context';
import { rawQuery } from '../../core/db/raw';
import { assertNoProblems, conflict, forbidden, notFound, validationError } from '../../core/errors';
import { isMfid, newMfid } from '../../core/ids';
import { uniquely } from '../../core/db/unique';
import { allows } from '../access/permission';
import { User } from '../user/user.entity';
import type { UserService } from '../user/user.service';
import type { ProjectService } from '../project/project.service';
import type { InstrumentService } from '../instrument/instrument.service';
import type { AccessService } from '../access/access.service';
import type { AccessSelectors } from '../access/access.selectors';
import type { PageRequest } from '../../core/db/page';
import { Dataset } from './dataset.entity';
import { checkOptionalDocument } from '../metadata/metadata.document';
import type { MetadataStore } from '../metadata/metadata.store';
import type { DatasetPolicy } from './dataset.policy';
import { checkTextFields, TEXT_FIELDS, UPDATABLE, type TextField } from './dataset.fields';
import { DatasetQuery, type DatasetFilter, type DatasetPage } from './dataset.query';

export interface DatasetCreateInput extends Partial<Record<TextField, string | null>> {
  uniqueId?: string | null;
  public?: boolean | null;
  projectId?: string | null;
  projectMfid?: string | null;
  instrumentName?: string | null;
  instrumentId?: string | null;
  instrumentMfid?: string | null;
  /** flexible owner: ORCID, MFID, username or email; defaults to the caller */
  owner?: string | null;
  /** deprecated owner selector; an error together with `owner` */
  ownerOrcid?: string | null;
  /** initial scientific metadata, stored in the same transaction */
  scientificMetadata?: Record<string, unknown> | null;
}

export interface DatasetPatch extends Partial<Record<TextField, string | null>> {
  public?: boolean;
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
}

/** Dataset records: create, read, update and list, under the dataset policy. */
export class DatasetService {
  readonly policy: DatasetPolicy;
  private readonly query: DatasetQuery;

  constructor(private readonly deps: DatasetDeps) {
    this.policy = deps.policy;
    this.query = new DatasetQuery(deps.policy, deps.projects, deps.access, deps.selectors);
  }

  /** A dataset the caller may read; 404 otherwise (also for malformed ids). */
  async get(ctx: RequestContext, uniqueId: string): Promise<Dataset> {
    const ds = isMfid(uniqueId) ? await ctx.em.findOne(Dataset, { uniqueId }) : null;
    if (!ds || !(await this.policy.permission(ctx, ds))) throw notFound('Dataset', uniqueId);
    return ds;
  }

  list(ctx: RequestContext, filter: DatasetFilter, page: PageRequest): Promise<DatasetPage> {
    return this.query.page(ctx, filter, page);
  }

  /** The ids of every dataset the caller may read that matches `filter`. */
  readableIds(ctx: RequestContext, filter: DatasetFilter = {}): Promise<string[]> {
    return this.query.ids(ctx, filter);
  }

  count(ctx: RequestContext, filter: DatasetFilter): Promise<number> {
    return this.query.count(ctx, filter);
  }

  async create(ctx: RequestContext, input: DatasetCreateInput): Promise<Dataset> {
    const problems = checkTextFields(input);
    if (input.uniqueId != null && !isMfid(input.uniqueId)) {
      problems.push({ field: 'unique_id', message: 'must be a 26-character MFID' });
    }
    if (input.public !== undefined && input.public !== null && typeof input.public !== 'boolean') {
      problems.push({ field: 'public', message: 'must be true or false' });
    }
    const metadata = checkOptionalDocument(input.scientificMetadata, 'scientific_metadata');
    assertNoProblems(problems);

    const em = ctx.em;
    const project = await this.deps.projects.resolveSelectors(em, input.projectId, input.projectMfid);
    const instrument = await this.deps.instruments.resolveSelectors(em, input);
    const owner = await this.deps.users.resolveOwnerInput(ctx, input);
    await this.deps.projects.policy.assertMayCreateIn(ctx, project, owner, 'datasets');

    const uniqueId = input.uniqueId ?? newMfid();
    return uniquely(
      () =>
        em.transactional(async (tx) => {
          const ds = tx.create(Dataset, {
            uniqueId,
            owner: tx.getReference(User, owner.uniqueId),
            project: project ?? null,
            instrument: instrument ?? null,
            public: input.public ?? false,
            ...textValues(input),
          });
          await tx.flush();
          if (metadata) await this.deps.metadata.initialize(tx, 'dataset', uniqueId, metadata);
          return ds;
        }),
      `a dataset with unique_id ${uniqueId} already exists`,
    );
  }

  async update(ctx: RequestContext, uniqueId: string, patch: DatasetPatch): Promise<Dataset> {
    const ds = await this.get(ctx, uniqueId);
    const permission = await this.policy.assertCan(ctx, 'update', ds);
    if (patch.public !== undefined && !allows(permission, 'manage')) {
      throw forbidden('Making a dataset public or private needs admin permission on it');
    }
    assertNoProblems(checkTextFields(patch));
    await this.assertSameInstrument(ctx, ds, patch);
    Object.assign(ds, textValues(patch));
    if (patch.public !== undefined) ds.public = patch.public;
    await ctx.em.flush();
    return ds;
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
    const filled: TextField[] = [];
    for (const key of TEXT_FIELDS) {
      const value = values[key];
      if (value === undefined || value.trim() === '' || checkTextFields({ [key]: value }).length) continue;
      const column = UPDATABLE[key].wire;
      const rows = await rawQuery(
        tx,
        `update dataset set ${column} = ?, modification_time = now()
         where unique_id = ? and coalesce(btrim(${column}), '') = '' returning unique_id`,
        [value, uniqueId],
      );
      if (rows.length) filled.push(key);
    }
    return filled;
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

function textValues(
  input: Partial<Record<TextField, string | null>>,
): Partial<Record<TextField, string | null>> {
  const out: Partial<Record<TextField, string | null>> = {};
  for (const key of TEXT_FIELDS) if (input[key] !== undefined) out[key] = input[key];
  return out;
}
