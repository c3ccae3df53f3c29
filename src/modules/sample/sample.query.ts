import type { RequestContext } from '../../core/context';
import { and, sql, type Sql } from '../../core/db/sql';
import { countRows, selectPage, type PageRequest, type RowPage } from '../../core/db/page';
import type { AccessService } from '../access/access.service';
import type { AccessSelectorInput, AccessSelectors } from '../access/access.selectors';
import type { ProjectService } from '../project/project.service';
import { metadataCondition, type MetadataCondition } from '../metadata/metadata.filter';
import { notHiddenByDeletion } from '../deletion/deletion.visibility';
import { associatedWith, relativeConditions } from '../link/link.filters';
import { Sample } from './sample.entity';
import type { SamplePolicy } from './sample.policy';

/** Filters of the sample collection; exact match. */
export interface SampleFilter extends AccessSelectorInput {
  uniqueId?: string;
  sampleName?: string;
  sampleType?: string;
  ownerOrcid?: string;
  timestamp?: string;
  public?: boolean;
  projectId?: string;
  projectMfid?: string;
  /** associated with this dataset (which the caller must be able to read) */
  datasetMfid?: string;
  /** children of this sample */
  childrenOf?: string;
  /** parents of this sample */
  parentsOf?: string;
  /** typed conditions on the scientific metadata; all must hold */
  metadata?: MetadataCondition[];
}

const EXACT: [keyof SampleFilter, string][] = [
  ['uniqueId', 's.unique_id'],
  ['sampleName', 's.sample_name'],
  ['sampleType', 's.sample_type'],
  ['ownerOrcid', 's.owner_id'],
  ['timestamp', 's.timestamp'],
  ['public', 's.public'],
];

/**
 * The SQL of the sample collection, built like the dataset collection's: the caller's
 * visibility condition is always part of the WHERE clause, and samples hidden by a pending
 * deletion request are left out.
 */
export class SampleQuery {
  constructor(
    private readonly policy: SamplePolicy,
    private readonly projects: ProjectService,
    private readonly access: AccessService,
    private readonly selectors: AccessSelectors,
  ) {}

  async compile(ctx: RequestContext, f: SampleFilter): Promise<Sql> {
    const parts: (Sql | null)[] = [];
    for (const [key, column] of EXACT) {
      const value = f[key];
      if (value !== undefined) parts.push(sql(`${column} = ?`, value));
    }
    if (f.projectId !== undefined || f.projectMfid !== undefined) {
      parts.push(sql('s.project_mfid = ?', (await this.findProject(ctx, f)) ?? ''));
    }
    if (f.datasetMfid !== undefined) {
      const datasetVisible = (await this.access.readableCondition(ctx, 'o')) ?? sql('true');
      parts.push(associatedWith('sample', 's', f.datasetMfid, datasetVisible));
    }
    parts.push(...relativeConditions('sample', 's', f));
    parts.push(metadataCondition('s', f.metadata ?? []));
    parts.push(notHiddenByDeletion('s.unique_id'));
    parts.push(await this.selectors.recordCondition(ctx, f, 's'));
    parts.push(await this.policy.visibleWhere(ctx, 's'));
    return and(...parts);
  }

  async page(ctx: RequestContext, f: SampleFilter, page: PageRequest): Promise<RowPage<Sample>> {
    return selectPage(ctx.em, Sample, 'sample', 's', await this.compile(ctx, f), page);
  }

  async count(ctx: RequestContext, f: SampleFilter): Promise<number> {
    return countRows(ctx.em, 'sample', 's', await this.compile(ctx, f));
  }

  /** The project MFID the filter names (both selectors must agree), or null for none. */
  private async findProject(ctx: RequestContext, f: SampleFilter): Promise<string | null> {
    if (f.projectId !== undefined && f.projectMfid !== undefined) {
      return (await this.projects.resolveSelectors(ctx.em, f.projectId, f.projectMfid))?.uniqueId ?? null;
    }
    const project = await this.projects.find(ctx.em, (f.projectMfid ?? f.projectId)!);
    return project?.uniqueId ?? null;
  }
}
