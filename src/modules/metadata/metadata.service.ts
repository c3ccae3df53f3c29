import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../core/context';
import { conflict, forbidden } from '../../core/errors';
import { rawQuery } from '../../core/db/raw';
import type { ResourceType } from '../access/access-grant.entity';
import type { ProjectPolicy } from '../project/project.policy';
import type { AccessService } from '../access/access.service';
import type { AnyResource, ResourceService } from '../resource/resource.service';
import { checkDocument, deepMerge, type MetadataDocument } from './metadata.document';
import { MetadataSearch, type MetadataHit } from './metadata.search';

/** The scientific metadata of one resource; `data` is null when it has none. */
export interface MetadataRecord {
  uniqueId: string;
  resourceType: ResourceType;
  data: MetadataDocument | null;
}

/** How a write treats existing metadata. */
export type WriteMode = 'merge' | 'replace' | 'create';

/**
 * Scientific metadata of any resource: read, deep-merge, replace, and search. Reading needs
 * read access (project metadata: members and platform admins only); writing needs
 * `contribute`. Writes lock the row, so concurrent merges never lose keys.
 */
export class MetadataService {
  private readonly searcher: MetadataSearch;

  constructor(
    private readonly resources: ResourceService,
    access: AccessService,
    private readonly projectPolicy: ProjectPolicy,
  ) {
    this.searcher = new MetadataSearch(access, projectPolicy);
  }

  /** Validates an optional metadata document of an input (null/undefined: none). */
  checkDocument(value: unknown, field: string): MetadataDocument | null {
    return value === undefined || value === null ? null : checkDocument(value, field);
  }

  /** The resource, when the caller may read its metadata (403 for non-members on projects). */
  async readableResource(ctx: RequestContext, id: string): Promise<AnyResource> {
    const r = await this.resources.find(ctx, id);
    if (r.type === 'project' && !(await this.projectPolicy.isInsider(ctx, r.record))) {
      throw forbidden('The scientific metadata of a project is visible to its members only');
    }
    return r;
  }

  /**
   * The document of a resource the caller already reads, through the request's loader: null
   * when it has none, undefined when the caller may not see it (project non-members).
   */
  async documentFor(ctx: RequestContext, r: AnyResource): Promise<MetadataDocument | null | undefined> {
    if (r.type === 'project' && !(await this.projectPolicy.isInsider(ctx, r.record))) return undefined;
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
   * Writes metadata: `merge` deep-merges into what exists (creating it if absent); `replace`
   * replaces it all; `create` creates it and is a 409 when metadata already exists.
   */
  async write(ctx: RequestContext, id: string, mode: WriteMode, raw: unknown): Promise<MetadataRecord> {
    const doc = checkDocument(raw, 'body');
    const r = await this.resources.find(ctx, id);
    await this.resources.assertCan(ctx, 'contribute', r);
    const data = await ctx.em.transactional((tx) => this.writeIn(tx, r.type, r.uniqueId, mode, doc));
    return { uniqueId: r.uniqueId, resourceType: r.type, data };
  }

  /**
   * The write itself, inside `tx`, without permission checks: for services acting for the
   * system (ingestion merges parsed metadata with `merge`).
   */
  async writeIn(
    tx: EntityManager,
    type: ResourceType,
    id: string,
    mode: WriteMode,
    doc: MetadataDocument,
  ): Promise<MetadataDocument> {
    if (mode === 'create') {
      const created = await rawQuery<{ data: MetadataDocument }>(
        tx,
        `insert into scientific_metadata (resource_id, resource_type, data) values (?, ?, ?::jsonb)
         on conflict (resource_id) do nothing returning data`,
        [id, type, JSON.stringify(doc)],
      );
      if (!created.length) {
        throw conflict(
          `${id} already has scientific metadata: send overwrite=true to replace it, or PATCH to merge`,
        );
      }
      return created[0].data;
    }
    let next = doc;
    if (mode === 'merge') {
      // create-if-absent, then lock: concurrent merges queue up instead of losing keys
      await rawQuery(
        tx,
        `insert into scientific_metadata (resource_id, resource_type, data) values (?, ?, '{}'::jsonb)
         on conflict (resource_id) do nothing`,
        [id, type],
      );
      const rows = await rawQuery<{ data: MetadataDocument }>(
        tx,
        'select data from scientific_metadata where resource_id = ? for update',
        [id],
      );
      next = deepMerge(rows[0]?.data ?? {}, doc);
    }
    const saved = await rawQuery<{ data: MetadataDocument }>(
      tx,
      `insert into scientific_metadata (resource_id, resource_type, data) values (?, ?, ?::jsonb)
       on conflict (resource_id) do update set data = excluded.data, modification_time = now()
       returning data`,
      [id, type, JSON.stringify(next)],
    );
    return saved[0].data;
  }

  /** Stores the initial metadata of a record being created in `tx`. */
  async initialize(tx: EntityManager, type: ResourceType, id: string, doc: MetadataDocument): Promise<void> {
    await this.writeIn(tx, type, id, 'replace', doc);
  }

  /** Ranked full-text search over the metadata of every resource the caller may read. */
  search(ctx: RequestContext, q: unknown, limit: number): Promise<MetadataHit[]> {
    return this.searcher.search(ctx, q, limit);
  }
}
