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
}

/** A filter key and the column (without alias) it must equal. */
export type ExactColumn<F> = [keyof F, string];

const SHARED_EXACT: ExactColumn<OwnedRecordFilter>[] = [
  ['uniqueId', 'unique_id'],
  ['ownerOrcid', 'owner_id'],
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
      const otherVisible = (await this.deps.access.readableCondition(ctx, 'o')) ?? sql('true');
      parts.push(associatedWith(this.type, this.alias, associatedMfid, otherVisible));
    }
    parts.push(...relativeConditions(this.type, this.alias, f));
    parts.push(await plannedMetadataCondition(ctx, this.alias, f.metadata ?? []));
    parts.push(notHiddenByDeletion(`${this.alias}.unique_id`));
    parts.push(await this.deps.selectors.recordCondition(ctx, f, this.type, this.alias, ordered));
    parts.push(await this.deps.policy.visibleWhere(ctx, this.alias));
    return parts;
  }
}
