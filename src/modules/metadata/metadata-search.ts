import type { RequestContext } from '../../core/context';
import { validationError } from '../../core/errors';
import { rawQuery } from '../../core/db/raw';
import { and, sql, type Sql } from '../../core/db/sql';
import { isMfid } from '../../core/ids';
import type { ResourceType } from '../permission/permission';
import type { ProjectPolicy } from '../project/project.policy';
import type { AccessService } from '../permission/access.service';
import { notHiddenByDeletion } from '../permission/deletion-visibility';
import type { MetadataDocument } from '../metadata-store/metadata-document';

/** One match of a metadata search, with its relevance (`rank`). */
export interface MetadataHit {
  uniqueId: string;
  resourceType: ResourceType;
  name: string | null;
  ownerOrcid: string | null;
  creationTime: Date;
  modificationTime: Date;
  rank: number;
  scientificMetadata: MetadataDocument;
}

export const MAX_SEARCH_LIMIT = 50;
const MAX_QUERY = 500;

interface HitRow {
  unique_id: string;
  resource_type: ResourceType;
  name: string | null;
  owner_id: string | null;
  creation_time: string | Date;
  modification_time: string | Date;
  /** The driver may hand a numeric result over as a string. */
  rank: number | string;
  data: MetadataDocument;
}

/** Where each kind of resource with metadata is read from, and its display name. */
interface Kind {
  type: ResourceType;
  table: string;
  name: string;
}

const KINDS: Kind[] = [
  { type: 'dataset', table: 'dataset', name: 'r.dataset_name' },
  { type: 'sample', table: 'sample', name: 'r.sample_name' },
  { type: 'project', table: 'project', name: 'coalesce(r.title, r.project_id)' },
  { type: 'instrument', table: 'instrument', name: 'r.instrument_name' },
];

/**
 * Full-text search over the scientific metadata (keys and values, English stemming,
 * `websearch_to_tsquery` syntax). Only resources the caller may read take part: datasets and
 * samples by their access rules, projects for their members, instruments for everyone; none that
 * a pending or approved deletion request hides.
 *
 * The order is the dataset text filter's (docs/scale.md, "The metadata search"): newest first (MFID
 * descending), paged by the last MFID of the previous page, with no relevance ranking over the
 * matches; each hit carries its `ts_rank`. So a page costs what it takes to find it, not the
 * number of matches: one branch per kind of resource, each walking its own table newest first
 * (or, for a rare term, starting from the GIN index) and stopping at the page.
 */
export class MetadataSearch {
  constructor(
    private readonly access: AccessService,
    private readonly projectPolicy: ProjectPolicy,
  ) {}

  async search(ctx: RequestContext, rawQ: unknown, limit: number, after?: string): Promise<MetadataHit[]> {
    const q = typeof rawQ === 'string' ? rawQ.trim() : '';
    if (!q) throw validationError('q', 'is required');
    if (q.length > MAX_QUERY) throw validationError('q', `must be at most ${MAX_QUERY} characters`);
    if (!Number.isInteger(limit) || limit < 1) throw validationError('limit', 'must be at least 1');
    if (after !== undefined && !isMfid(after)) throw validationError('after', 'must be an MFID');
    const n = Math.min(limit, MAX_SEARCH_LIMIT);
    const branches: Sql[] = [];
    for (const kind of KINDS) {
      const readable =
        kind.type === 'project'
          ? await this.projectPolicy.insiderWhere(ctx, 'r')
          : kind.type === 'instrument'
            ? null
            : await this.access.readableCondition(ctx, kind.type, 'r');
      const where = and(
        sql(`m.search @@ websearch_to_tsquery('english', ?::text)`, q),
        sql('m.resource_type = ?', kind.type),
        readable,
        notHiddenByDeletion('r.unique_id'),
        after === undefined ? null : sql('r.unique_id < ?', after),
      );
      branches.push(
        sql(
          `(select r.unique_id, m.resource_type, m.data, ${kind.name} as name, r.owner_id, r.creation_time,
             r.modification_time, ts_rank(m.search, websearch_to_tsquery('english', ?::text)) as rank
           from ${kind.table} r join scientific_metadata m on m.resource_id = r.unique_id
           where ${where.sql}
           order by r.unique_id desc limit ?)`,
          q,
          ...where.params,
          n,
        ),
      );
    }
    const rows = await rawQuery<HitRow>(
      ctx.em,
      `select * from (${branches.map((b) => b.sql).join(' union all ')}) hit order by unique_id desc limit ?`,
      [...branches.flatMap((b) => b.params), n],
    );
    return rows.map((r) => ({
      uniqueId: r.unique_id,
      resourceType: r.resource_type,
      name: r.name,
      ownerOrcid: r.owner_id,
      creationTime: new Date(r.creation_time),
      modificationTime: new Date(r.modification_time),
      rank: Number(r.rank),
      scientificMetadata: r.data,
    }));
  }
}
