import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../core/context';
import { conflict, notFound, validationError } from '../../core/errors';
import { rawQuery } from '../../core/db/raw';
import type { AnyResource, ResourceService } from '../resource/resource.service';
import type { PageRequest } from '../../core/db/page';
import type { DatasetRow } from '../dataset/dataset-row';
import type { DatasetService } from '../dataset/dataset.service';
import type { DatasetFilter } from '../dataset/dataset.query';
import type { SampleRow } from '../sample/sample-row';
import type { SampleService } from '../sample/sample.service';
import type { SampleFilter } from '../sample/sample.query';
import type { LinkRow } from './link.loaders';
import type { RelativeFilter } from './link.filter';
import { isRelationshipType, type EdgeKind, type RelationshipType } from './relationship';
import type { LinkPolicy } from './link.policy';
import { actorOf, type EventService } from '../outbox/event.service';

type Linkable = Extract<AnyResource, { type: 'dataset' | 'sample' }>;
export type LinkableType = Linkable['type'];

/** Types the legacy typed routes insist on, in path order; generic routes detect them. */
export type ExpectedTypes = [LinkableType, LinkableType];

/** A link between two resources; for associations the sample is the parent, the dataset the child. */
export interface LinkInfo {
  kind: EdgeKind;
  parentId: string;
  parentType: 'dataset' | 'sample';
  childId: string;
  childType: 'dataset' | 'sample';
  relationshipType: RelationshipType | null;
}

const TABLE: Record<'dataset_dataset' | 'sample_sample', string> = {
  dataset_dataset: 'dataset_link',
  sample_sample: 'sample_link',
};
/** advisory lock keys serializing the cycle check and insert of one kind of directed link */
const LOCK: Record<'dataset_dataset' | 'sample_sample', number> = {
  dataset_dataset: 7247_2001,
  sample_sample: 7247_2002,
};

/**
 * Provenance links between datasets and between samples (directed, acyclic, typed), and
 * dataset-sample associations (undirected). Both ends must be readable. Creating a link needs
 * `contribute` on the child (on the dataset for an association): a link describes where the
 * child comes from. Removing one needs `contribute` on either end (`LinkPolicy`).
 */
export class LinkService {
  constructor(
    private readonly resources: ResourceService,
    private readonly datasets: DatasetService,
    private readonly samples: SampleService,
    private readonly policy: LinkPolicy,
    private readonly events: EventService,
  ) {}

  /**
   * The link objects of a readable dataset or sample (other resources have none), in their
   * order (parents, children, associations): `limit` of them (the default page size when
   * omitted, at most MAX_PAGE_SIZE) after the first `offset`.
   */
  async linksOf(ctx: RequestContext, id: string, page: Partial<PageRequest> = {}): Promise<LinkRow[]> {
    const { maxPageSize } = ctx.config.limits;
    const limit = page.limit ?? maxPageSize;
    const offset = page.offset ?? 0;
    if (!Number.isInteger(limit) || limit < 1 || limit > maxPageSize) {
      throw validationError('limit', `must be a whole number from 1 to ${maxPageSize}`);
    }
    if (!Number.isInteger(offset) || offset < 0)
      throw validationError('offset', 'must be a whole number >= 0');
    const r = await this.resources.find(ctx, id);
    if (r.type !== 'dataset' && r.type !== 'sample') return [];
    return ctx.loaders.links.page(offset, limit).load(r.uniqueId);
  }

  /** The children or parents of a readable dataset, or the datasets of a readable sample. */
  async datasetRelatives(
    ctx: RequestContext,
    id: string,
    relation: 'children' | 'parents' | 'ofSample',
    filter: DatasetFilter,
    page: PageRequest,
  ): Promise<{ items: DatasetRow[]; total: number }> {
    const focus =
      relation === 'ofSample' ? await this.samples.read(ctx, id) : await this.datasets.read(ctx, id);
    const associated = relation === 'ofSample' ? { sampleMfid: focus.uniqueId } : {};
    const f = { ...filter, ...relativeFilter(relation, focus.uniqueId), ...associated };
    return pageAndTotal(ctx, this.datasets, f, page);
  }

  /** The children or parents of a readable sample, or the samples of a readable dataset. */
  async sampleRelatives(
    ctx: RequestContext,
    id: string,
    relation: 'children' | 'parents' | 'ofDataset',
    filter: SampleFilter,
    page: PageRequest,
  ): Promise<{ items: SampleRow[]; total: number }> {
    const focus =
      relation === 'ofDataset' ? await this.datasets.read(ctx, id) : await this.samples.read(ctx, id);
    const associated = relation === 'ofDataset' ? { datasetMfid: focus.uniqueId } : {};
    const f = { ...filter, ...relativeFilter(relation, focus.uniqueId), ...associated };
    return pageAndTotal(ctx, this.samples, f, page);
  }

  /** Links two resources; the kind follows from their types (auto-detected). */
  async link(
    ctx: RequestContext,
    parentId: string,
    childId: string,
    relationshipType?: unknown,
    types?: ExpectedTypes,
  ): Promise<LinkInfo> {
    const rt = parseRelationshipType(relationshipType);
    // one after the other: which 404 answers must not depend on which lookup finishes first
    const parent = await this.linkable(ctx, parentId, types?.[0]);
    const child = await this.linkable(ctx, childId, types?.[1]);
    const kind = kindOf(parent, child);
    if (parent.uniqueId === child.uniqueId)
      throw validationError('child_mfid', 'a resource cannot be linked to itself');
    if (kind === 'sample_dataset') {
      if (rt) throw validationError('relationship_type', 'is not allowed on a dataset-sample association');
      const [dataset, sample] = parent.type === 'dataset' ? [parent, child] : [child, parent];
      await this.policy.assertMayLink(ctx, dataset);
      const info = association(dataset.uniqueId, sample.uniqueId);
      await ctx.em.transactional(async (tx) => {
        const added = await rawQuery(
          tx,
          `insert into dataset_sample (dataset_mfid, sample_mfid) values (?, ?) on conflict do nothing returning 1`,
          [dataset.uniqueId, sample.uniqueId],
        );
        if (added.length) await this.emitLink(tx, ctx, 'link.added', info);
      });
      return info;
    }
    await this.policy.assertMayLink(ctx, child);
    return ctx.em.transactional(async (tx) => {
      const saved = await this.insertDirected(tx, kind, parent.uniqueId, child.uniqueId, rt);
      const info: LinkInfo = {
        kind,
        parentId: parent.uniqueId,
        parentType: parent.type,
        childId: child.uniqueId,
        childType: child.type,
        relationshipType: saved.relationshipType,
      };
      if (saved.changed) await this.emitLink(tx, ctx, 'link.added', info);
      return info;
    });
  }

  /**
   * Removes the link between two resources, given in either order (for the legacy typed routes,
   * `directed` insists on this parent and child). 404 when there is no such link.
   */
  async unlink(
    ctx: RequestContext,
    a: string,
    b: string,
    opts: { types?: ExpectedTypes; directed?: boolean } = {},
  ): Promise<LinkInfo> {
    const first = await this.linkable(ctx, a, opts.types?.[0]);
    const second = await this.linkable(ctx, b, opts.types?.[1]);
    const kind = kindOf(first, second);
    await this.policy.assertMayUnlink(ctx, first, second);
    if (kind === 'sample_dataset') {
      const [dataset, sample] = first.type === 'dataset' ? [first, second] : [second, first];
      const info = association(dataset.uniqueId, sample.uniqueId);
      await ctx.em.transactional(async (tx) => {
        const gone = await rawQuery(
          tx,
          'delete from dataset_sample where dataset_mfid = ? and sample_mfid = ? returning 1',
          [dataset.uniqueId, sample.uniqueId],
        );
        if (!gone.length) throw notFound('Link between', `${a} and ${b}`);
        await this.emitLink(tx, ctx, 'link.removed', info);
      });
      return info;
    }
    return ctx.em.transactional(async (tx) => {
      const rows = await rawQuery<{
        parent_mfid: string;
        child_mfid: string;
        relationship_type: RelationshipType | null;
      }>(
        tx,
        `delete from ${TABLE[kind]} where (parent_mfid = ? and child_mfid = ?)${
          opts.directed ? '' : ' or (parent_mfid = ? and child_mfid = ?)'
        } returning parent_mfid, child_mfid, relationship_type`,
        opts.directed ? [a, b] : [a, b, b, a],
      );
      if (!rows.length) throw notFound('Link between', `${a} and ${b}`);
      const info: LinkInfo = {
        kind,
        parentId: rows[0].parent_mfid,
        parentType: first.type,
        childId: rows[0].child_mfid,
        childType: first.type,
        relationshipType: rows[0].relationship_type,
      };
      await this.emitLink(tx, ctx, 'link.removed', info);
      return info;
    });
  }

  /** A readable dataset or sample; other resource types cannot be linked (422). */
  private async linkable(ctx: RequestContext, id: string, type?: LinkableType): Promise<Linkable> {
    const r = await this.resources.find(ctx, id, type);
    if (r.type !== 'dataset' && r.type !== 'sample') {
      throw validationError('resource_type', `only datasets and samples can be linked; ${id} is a ${r.type}`);
    }
    return r;
  }

  /**
   * Inserts parent -> child after checking, in the same transaction and under a lock, that the
   * child does not already reach the parent (which would close a cycle). Linking an existing
   * pair again keeps it, updating its relationship type when one is given.
   */
  private async insertDirected(
    tx: EntityManager,
    kind: 'dataset_dataset' | 'sample_sample',
    parent: string,
    child: string,
    rt: RelationshipType | null,
  ): Promise<{ relationshipType: RelationshipType | null; changed: boolean }> {
    const table = TABLE[kind];
    await rawQuery(tx, 'select pg_advisory_xact_lock(?)', [LOCK[kind]]);
    const cyclic = await rawQuery<{ found: boolean }>(
      tx,
      `with recursive below(id) as (
         select child_mfid from ${table} where parent_mfid = ?
         union
         select l.child_mfid from ${table} l join below b on l.parent_mfid = b.id
       ) select exists (select 1 from below where id = ?) as found`,
      [child, parent],
    );
    if (cyclic[0].found)
      throw conflict(
        `linking ${parent} -> ${child} would create a cycle: ${child} is already an ancestor of ${parent}`,
      );
    const existing = await rawQuery<{ relationship_type: RelationshipType | null }>(
      tx,
      `select relationship_type from ${table} where parent_mfid = ? and child_mfid = ?`,
      [parent, child],
    );
    const rows = await rawQuery<{ relationship_type: RelationshipType | null }>(
      tx,
      `insert into ${table} (parent_mfid, child_mfid, relationship_type) values (?, ?, ?)
       on conflict (parent_mfid, child_mfid)
       do update set relationship_type = coalesce(excluded.relationship_type, ${table}.relationship_type)
       returning relationship_type`,
      [parent, child, rt],
    );
    const relationshipType = rows[0].relationship_type;
    const changed = !existing.length || existing[0].relationship_type !== relationshipType;
    return { relationshipType, changed };
  }

  /** A link event, on the child (the dataset, for a dataset-sample association). */
  private async emitLink(
    tx: EntityManager,
    ctx: RequestContext,
    type: 'link.added' | 'link.removed',
    info: LinkInfo,
  ): Promise<void> {
    await this.events.emit(tx, {
      type,
      actorId: actorOf(ctx),
      resourceId: info.childId,
      resourceType: info.childType,
      payload: {
        kind: info.kind,
        parent_id: info.parentId,
        parent_type: info.parentType,
        child_id: info.childId,
        child_type: info.childType,
        relationship_type: info.relationshipType,
      },
    });
  }
}

/** The filter keeping the children or the parents of `id` (nothing for other relations). */
function relativeFilter(relation: string, id: string): RelativeFilter {
  if (relation === 'children') return { childrenOf: id };
  if (relation === 'parents') return { parentsOf: id };
  return {};
}

/** One page of a record collection and its total. */
async function pageAndTotal<F, T>(
  ctx: RequestContext,
  records: {
    list(ctx: RequestContext, filter: F, page: PageRequest): Promise<{ items: T[] }>;
    count(ctx: RequestContext, filter: F): Promise<number>;
  },
  filter: F,
  page: PageRequest,
): Promise<{ items: T[]; total: number }> {
  const [rows, total] = await Promise.all([records.list(ctx, filter, page), records.count(ctx, filter)]);
  return { items: rows.items, total };
}

function parseRelationshipType(raw: unknown): RelationshipType | null {
  if (raw === undefined || raw === null || raw === '') return null;
  if (!isRelationshipType(raw))
    throw validationError('relationship_type', 'must be is_derived_from or is_part_of');
  return raw;
}

function kindOf(a: Linkable, b: Linkable): EdgeKind {
  if (a.type === 'dataset' && b.type === 'dataset') return 'dataset_dataset';
  if (a.type === 'sample' && b.type === 'sample') return 'sample_sample';
  return 'sample_dataset';
}

function association(datasetId: string, sampleId: string): LinkInfo {
  return {
    kind: 'sample_dataset',
    parentId: sampleId,
    parentType: 'sample',
    childId: datasetId,
    childType: 'dataset',
    relationshipType: null,
  };
}
