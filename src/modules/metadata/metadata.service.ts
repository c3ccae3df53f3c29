import type { RequestContext } from '../../core/context';
import { rawQuery } from '../../core/db/raw';
import { notFound, validationError } from '../../core/errors';
import type { ResourceType } from '../permission/permission';
import type { ProjectPolicy } from '../project/project.policy';
import type { AccessService } from '../permission/access.service';
import type { AnyResource, ResourceService } from '../resource/resource.service';
import { checkDocument, type MetadataDocument } from '../metadata-store/metadata-document';
import type { MetadataStore, WriteMode } from '../metadata-store/metadata-store';
import { MetadataSearch, type MetadataHit } from './metadata-search';
import { actorOf, type EventService } from '../outbox/event.service';

/** The most metadata versions one page lists. */
export const MAX_VERSIONS_PAGE = 100;

/** One version of a resource's metadata: the whole document as a write left it. */
export interface MetadataVersionRecord {
  version: number;
  data: MetadataDocument;
  actorId: string | null;
  time: Date;
}

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
      const written = await this.store.changeIn(tx, r.type, r.uniqueId, mode, doc, actorOf(ctx));
      if (written.changedKeys.length) {
        await this.events.emit(tx, {
          type: 'metadata.changed',
          actorId: actorOf(ctx),
          resourceId: r.uniqueId,
          resourceType: r.type,
          payload: { mode, keys: written.changedKeys, version: written.version },
        });
      }
      return written.data;
    });
    return { uniqueId: r.uniqueId, resourceType: r.type, data };
  }

  /**
   * The metadata versions of a resource whose metadata the caller may read, newest first:
   * `limit` of them (at most 100) older than version `before`.
   */
  async versions(
    ctx: RequestContext,
    id: string,
    limit: number,
    before?: number,
  ): Promise<{ resourceId: string; items: MetadataVersionRecord[]; nextBefore: number | null }> {
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_VERSIONS_PAGE) {
      throw validationError('limit', `must be an integer from 1 to ${MAX_VERSIONS_PAGE}`);
    }
    if (before !== undefined && (!Number.isInteger(before) || before < 1)) {
      throw validationError('before', 'must be a positive integer');
    }
    const r = await this.readableResource(ctx, id);
    const rows = await rawQuery<{
      version: number;
      data: MetadataDocument;
      actor_id: string | null;
      time: Date;
    }>(
      ctx.em,
      `select version, data, actor_id, time from metadata_version
       where resource_id = ? and version < ? order by version desc limit ?`,
      [r.uniqueId, before ?? 2_147_483_647, limit + 1],
    );
    const items = rows.slice(0, limit).map((row) => ({
      version: row.version,
      data: row.data,
      actorId: row.actor_id,
      time: new Date(row.time),
    }));
    return {
      resourceId: r.uniqueId,
      items,
      nextBefore: rows.length > limit ? items[items.length - 1].version : null,
    };
  }

  /**
   * Restores an earlier metadata version of a resource as a new change (a replace): `update`
   * permission on it (editors). The version is looked up under this resource only, so no other
   * record's version can be named; an unknown version is 404. One transaction: the document,
   * its new version and a `metadata.changed` event (`mode` `restore`, `restored_version`).
   * Restoring what is already there changes nothing.
   */
  async restore(
    ctx: RequestContext,
    id: string,
    rawVersion: unknown,
  ): Promise<MetadataRecord & { version: number | null }> {
    if (typeof rawVersion !== 'number' || !Number.isInteger(rawVersion) || rawVersion < 1) {
      throw validationError('version', 'must be a positive integer');
    }
    const r = await this.readableResource(ctx, id);
    await this.resources.assertCan(ctx, 'update', r);
    return ctx.em.transactional(async (tx) => {
      const rows = await rawQuery<{ data: MetadataDocument }>(
        tx,
        'select data from metadata_version where resource_id = ? and version = ?',
        [r.uniqueId, rawVersion],
      );
      if (!rows.length) throw notFound('Metadata version', `${r.uniqueId}/${String(rawVersion)}`);
      const written = await this.store.changeIn(
        tx,
        r.type,
        r.uniqueId,
        'replace',
        rows[0].data,
        actorOf(ctx),
      );
      if (written.changedKeys.length) {
        await this.events.emit(tx, {
          type: 'metadata.changed',
          actorId: actorOf(ctx),
          resourceId: r.uniqueId,
          resourceType: r.type,
          payload: {
            mode: 'restore',
            keys: written.changedKeys,
            version: written.version,
            restored_version: rawVersion,
          },
        });
      }
      return { uniqueId: r.uniqueId, resourceType: r.type, data: written.data, version: written.version };
    });
  }

  /**
   * Full-text search over the metadata of every resource the caller may read: a page of `limit`
   * hits newest first, after the MFID `after` (the last hit of the previous page).
   */
  search(ctx: RequestContext, q: unknown, limit: number, after?: string): Promise<MetadataHit[]> {
    return this.searcher.search(ctx, q, limit, after);
  }
}
