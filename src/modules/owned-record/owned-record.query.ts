import type { RequestContext } from '../../core/context';
import { sql, type Sql } from '../../core/db/sql';
import type { AccessService } from '../permission/access.service';
import type { AccessSelectorInput, AccessSelectors } from '../project/access-selectors';
import type { OwnedRecord, OwnedRecordPolicy } from '../permission/owned-record.policy';
import type { ProjectService } from '../project/project.service';
import type { MetadataCondition } from '../metadata-store/metadata.filter';
import { plannedMetadataCondition } from '../metadata-store/metadata-plan';
import { notHiddenByDeletion } from '../permission/deletion-visibility';
import { associatedWith, relativeConditions, type RelativeFilter } from '../link/link.filter';

/** The filters every owned-record collection takes; all exact-match. */
export interface OwnedRecordFilter extends AccessSelectorInput, RelativeFilter {
  uniqueId?: string;
  ownerOrcid?: string;
  timestamp?: string;
  public?: boolean;
  projectId?: string;
  projectMfid?: string;
  /** typed conditions on the scientific metadata; all must hold */
  metadata?: MetadataCondition[];
  /** the owner (ORCID or MFID; the 3.2 client's `owner_id`) */
  ownerId?: string;
  /** creation and modification time ranges, both ends included */
  createdFrom?: Date;
  createdTo?: Date;
  modifiedFrom?: Date;
  modifiedTo?: Date;
  /** columns (of the kind's table, from a fixed list) that must be empty: the `*_is_null` filters */
  nullColumns?: readonly string[];
  /** columns that must not be empty (`*_is_null=false`) */
  setColumns?: readonly string[];
  /** only the caller's own records (`affiliation=owner`) */
  ownedByCaller?: boolean;
}

/** A filter key and the column (without alias) it must equal. */
export type ExactColumn<F> = [keyof F, string];

const SHARED_EXACT: ExactColumn<OwnedRecordFilter>[] = [
  ['uniqueId', 'unique_id'],
  ['ownerOrcid', 'owner_id'],
  ['ownerId', 'owner_id'],
  ['timestamp', 'timestamp'],
  ['public', 'public'],
];

export interface OwnedRecordQueryDeps {
  policy: OwnedRecordPolicy<OwnedRecord>;
  projects: ProjectService;
  access: AccessService;
  selectors: AccessSelectors;
}

/**
 * The SQL of a dataset or sample collection, rows of `<type> <alias>`: what the two share. The
 * caller's visibility condition is always part of the WHERE clause, and records hidden by a
 * pending deletion request are left out.
 */
export abstract class OwnedRecordQuery<F extends OwnedRecordFilter> {
  protected readonly projects: ProjectService;

  protected constructor(
    private readonly type: 'dataset' | 'sample',
    private readonly alias: string,
    private readonly deps: OwnedRecordQueryDeps,
  ) {
    this.projects = deps.projects;
  }

  /** Equality conditions for the shared exact filters and the kind's own `columns`. */
  protected exact(f: F, columns: ExactColumn<F>[]): Sql[] {
    const parts: Sql[] = [];
    for (const [key, column] of [...(SHARED_EXACT as ExactColumn<F>[]), ...columns]) {
      const value = f[key];
      if (value !== undefined) parts.push(sql(`${this.alias}.${column} = ?`, value));
    }
    return parts;
  }

  /** The time ranges, the `*_is_null` filters and `affiliation=owner` (the 3.2 client's filters). */
  private rangeConditions(ctx: RequestContext, f: F): Sql[] {
    const a = this.alias;
    const parts: Sql[] = [];
    const ranges: [Date | undefined, string][] = [
      [f.createdFrom, `${a}.creation_time >= ?`],
      [f.createdTo, `${a}.creation_time <= ?`],
      [f.modifiedFrom, `${a}.modification_time >= ?`],
      [f.modifiedTo, `${a}.modification_time <= ?`],
    ];
    for (const [value, condition] of ranges) if (value !== undefined) parts.push(sql(condition, value));
    for (const column of f.nullColumns ?? []) parts.push(sql(`${a}.${column} is null`));
    for (const column of f.setColumns ?? []) parts.push(sql(`${a}.${column} is not null`));
    if (f.ownedByCaller) parts.push(sql(`${a}.owner_id = ?`, ctx.userId));
    return parts;
  }

  /**
   * The conditions every collection applies: association with `associatedMfid` (a record of the
   * other kind the caller must be able to read), relatives, metadata conditions, deletion,
   * access selectors and the caller's visibility. `ordered`: for a page newest first (some
   * conditions then take another form, same rows).
   */
  protected async shared(
    ctx: RequestContext,
    f: F,
    associatedMfid: string | undefined,
    ordered = false,
  ): Promise<(Sql | null)[]> {
    const parts: (Sql | null)[] = [];
    if (associatedMfid !== undefined) {
      const otherVisible =
        (await this.deps.access.readableCondition(
          ctx,
          this.type === 'dataset' ? 'sample' : 'dataset',
          'o',
        )) ?? sql('true');
      parts.push(associatedWith(this.type, this.alias, associatedMfid, otherVisible));
    }
    parts.push(...relativeConditions(this.type, this.alias, f));
    parts.push(...this.rangeConditions(ctx, f));
    parts.push(await plannedMetadataCondition(ctx, this.alias, f.metadata ?? []));
    parts.push(notHiddenByDeletion(`${this.alias}.unique_id`));
    parts.push(await this.deps.selectors.recordCondition(ctx, f, this.type, this.alias, ordered));
    parts.push(await this.deps.policy.visibleWhere(ctx, this.alias));
    return parts;
  }
}
