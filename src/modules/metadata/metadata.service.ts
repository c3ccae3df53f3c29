import type { RequestContext } from '../../core/context';
import { rawQuery } from '../../core/db/raw';
import type { ResourceType } from '../permission/permission';
import type { ProjectPolicy } from '../project/project.policy';
import type { AccessService } from '../permission/access.service';
import type { AnyResource, ResourceService } from '../resource/resource.service';
import { checkDocument, type MetadataDocument } from '../metadata-store/metadata-document';
import type { MetadataStore, WriteMode } from '../metadata-store/metadata-store';
import { MetadataSearch, type MetadataHit } from './metadata-search';
import { actorOf, type EventService } from '../outbox/event.service';

/** The scientific metadata of one resource; `data` is null when it has none. */
export interface MetadataRecord {
  uniqueId: string;
  resourceType: ResourceType;
  data: MetadataDocument | null;
}

/**
 * Scientific metadata of any resource: read, merge (top-level keys), replace, and search. Reading needs
 * read access (project metadata: members and platform admins only); writing needs
 * `contribute`. The writes themselves go through the {@link MetadataStore}.
 */
export class MetadataService {
  private readonly searcher: MetadataSearch;

  constructor(
    private readonly resources: ResourceService,
    access: AccessService,
    private readonly projectPolicy: ProjectPolicy,
    private readonly store: MetadataStore,
    private readonly events: EventService,
  ) {
    this.searcher = new MetadataSearch(access, projectPolicy);
  }

  /** The resource, when the caller may read its metadata (403 for non-members on projects). */
  async readableResource(ctx: RequestContext, id: string): Promise<AnyResource> {
    const r = await this.resources.find(ctx, id);
    if (r.type === 'project') await this.projectPolicy.assertMayReadMetadata(ctx, r.record);
    return r;
  }

  /**
   * The document of a resource the caller already reads, through the request's loader: null
   * when it has none, undefined when the caller may not see it (project non-members).
   */
  async documentFor(ctx: RequestContext, r: AnyResource): Promise<MetadataDocument | null | undefined> {
    if (r.type === 'project' && !(await this.projectPolicy.mayReadMetadata(ctx, r.record))) return undefined;
    return ctx.loaders.metadata.load(r.uniqueId);
  }

  async get(ctx: RequestContext, id: string): Promise<MetadataRecord> {
    const r = await this.readableResource(ctx, id);
    const rows = await rawQuery<{ data: MetadataDocument }>(
      ctx.em,
      'select data from scientific_metadata where resource_id = ?',
      [r.uniqueId],
    );
    return { uniqueId: r.uniqueId, resourceType: r.type, data: rows[0]?.data ?? null };
  }

  /**
   * Writes metadata: `merge` merges its top-level keys into what exists (creating it if
   * absent); `replace` replaces it all.
   */
  async write(ctx: RequestContext, id: string, mode: WriteMode, raw: unknown): Promise<MetadataRecord> {
    const doc = checkDocument(raw, 'body');
    const r = await this.resources.find(ctx, id);
    await this.resources.assertCan(ctx, 'contribute', r);
    const data = await ctx.em.transactional(async (tx) => {
      const written = await this.store.changeIn(tx, r.type, r.uniqueId, mode, doc);
      if (written.changedKeys.length) {
        await this.events.emit(tx, {
          type: 'metadata.changed',
          actorId: actorOf(ctx),
          resourceId: r.uniqueId,
          resourceType: r.type,
          payload: { mode, keys: written.changedKeys },
        });
      }
      return written.data;
    });
    return { uniqueId: r.uniqueId, resourceType: r.type, data };
  }

  /**
   * Full-text search over the metadata of every resource the caller may read: a page of `limit`
   * hits newest first, after the MFID `after` (the last hit of the previous page).
   */
  search(ctx: RequestContext, q: unknown, limit: number, after?: string): Promise<MetadataHit[]> {
    return this.searcher.search(ctx, q, limit, after);
  }
}
