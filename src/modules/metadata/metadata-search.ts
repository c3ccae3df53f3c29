import type { RequestContext } from '../../core/context';
import { validationError } from '../../core/errors';
import { rawQuery } from '../../core/db/raw';
import { sql, type Sql } from '../../core/db/sql';
import type { ResourceType } from '../permission/permission';
import type { ProjectPolicy } from '../project/project.policy';
import type { AccessService } from '../permission/access.service';
import { notHiddenByDeletion } from '../permission/deletion-visibility';
import type { MetadataDocument } from '../metadata-store/metadata-document';

/** One ranked match of a metadata search. */
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

/**
 * Full-text search over the scientific metadata (keys and values, English stemming,
 * `websearch_to_tsquery` syntax), ranked by `ts_rank`. Only resources the caller may read take
 * part: datasets and samples by their access rules (and not hidden by a deletion request),
 * projects for their members, instruments for everyone.
 */
export class MetadataSearch {
  constructor(
    private readonly access: AccessService,
    private readonly projectPolicy: ProjectPolicy,
  ) {}

  async search(ctx: RequestContext, rawQ: unknown, limit: number): Promise<MetadataHit[]> {
    const q = typeof rawQ === 'string' ? rawQ.trim() : '';
    if (!q) throw validationError('q', 'is required');
    if (q.length > MAX_QUERY) throw validationError('q', `must be at most ${MAX_QUERY} characters`);
    if (!Number.isInteger(limit) || limit < 1) throw validationError('limit', 'must be at least 1');
    const readable = (cond: Sql | null) => cond ?? sql('true');
    const d = readable(await this.access.readableCondition(ctx, 'd'));
    const s = readable(await this.access.readableCondition(ctx, 's'));
    const p = readable(await this.projectPolicy.insiderWhere(ctx, 'p'));
    const hidden = notHiddenByDeletion('m.resource_id');
    const rows = await rawQuery<HitRow>(
      ctx.em,
      `select m.resource_id as unique_id, m.resource_type, m.data, ts_rank(m.search, q.query) as rank,
         coalesce(d.dataset_name, s.sample_name, coalesce(p.title, p.project_id), i.instrument_name) as name,
         coalesce(d.owner_id, s.owner_id, p.owner_id, i.owner_id) as owner_id,
         coalesce(d.creation_time, s.creation_time, p.creation_time, i.creation_time) as creation_time,
         coalesce(d.modification_time, s.modification_time, p.modification_time, i.modification_time) as modification_time
       from websearch_to_tsquery('english', ?) as q(query)
       join scientific_metadata m on m.search @@ q.query
       left join dataset d on m.resource_type = 'dataset' and d.unique_id = m.resource_id
       left join sample s on m.resource_type = 'sample' and s.unique_id = m.resource_id
       left join project p on m.resource_type = 'project' and p.unique_id = m.resource_id
       left join instrument i on m.resource_type = 'instrument' and i.unique_id = m.resource_id
       where ((d.unique_id is not null and (${d.sql})) or (s.unique_id is not null and (${s.sql}))
          or (p.unique_id is not null and (${p.sql})) or i.unique_id is not null)
         and ${hidden.sql}
       order by rank desc, m.resource_id desc
       limit ?`,
      [q, ...d.params, ...s.params, ...p.params, ...hidden.params, Math.min(limit, MAX_SEARCH_LIMIT)],
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
