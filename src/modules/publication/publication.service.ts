import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../core/context';
import { conflict, notFound, validationError } from '../../core/errors';
import { isMfid, newMfid } from '../../core/ids';
import type { DatasetService } from '../dataset/dataset.service';
import type { FileService } from '../file/file.service';
import type { EventType } from '../outbox/domain-event';
import { actorOf, type EventService } from '../outbox/event.service';
import { parseEmbargoDate } from '../access/embargo';
import { checkMetadata, checkReason, PUBLICATION_LIMITS, type PublicationInput } from './publication-input';
import { Publication, type PublicationState } from './publication.entity';
import type { PublicationPolicy } from './publication.policy';
import { citationRecord, type CitationRecord } from './citation-record';
import { dataciteXml } from './citation-datacite';
import { assertValidDataciteXml } from './datacite-schema';
import type { DataciteRegistrar } from './datacite-registration';
import { EXPORT_FORMAT_NAMES, EXPORT_FORMATS, type ExportFormatName } from './citation-export';
import { recordSetsIn } from './oai.service';
import { manifestIn } from './publication-manifest';

export interface PublicationDeps {
  /** PUBLIC_BASE_URL: landing pages and file URLs in citations */
  baseUrl: string;
  /** PUBLISHER_NAME */
  publisher: string;
  datasets: DatasetService;
  files: FileService;
  policy: PublicationPolicy;
  events: EventService;
  /** DOIs through DataCite (does nothing when DataCite is not configured) */
  datacite: DataciteRegistrar;
}

/** What a list of publications may be narrowed to. */
export interface PublicationFilter {
  state?: PublicationState;
  /** words the title contains (case-insensitive, in any order) */
  title?: string;
}

/** The versions next to a publication that the caller may read. */
export interface PublicationVersions {
  previous: Publication | null;
  next: Publication | null;
}

/** The ids of a dataset list a client sent: 1 to 1,000 distinct dataset MFIDs, else 422. */
function checkDatasetIds(raw: unknown): string[] {
  const max = PUBLICATION_LIMITS.datasets;
  if (!Array.isArray(raw) || raw.length === 0 || raw.length > max)
    throw validationError('dataset_ids', `must be a list of 1 to ${max} dataset ids`);
  raw.forEach((id, i) => {
    if (!isMfid(id)) throw validationError(`dataset_ids[${i}]`, 'must be a dataset MFID');
  });
  const ids = raw as string[];
  if (new Set(ids).size !== ids.length) throw validationError('dataset_ids', 'must not repeat a dataset');
  return ids;
}

/**
 * Publications (docs/publications.md): drafts made from datasets the caller may manage,
 * published with their metadata and file manifest frozen, new versions linked to the one they
 * follow, withdrawal that keeps a tombstone. Every change is one transaction that locks the
 * publication's row (and, where `manage` is checked, the datasets' rows) and emits its event.
 */
export class PublicationService {
  readonly policy: PublicationPolicy;

  constructor(private readonly deps: PublicationDeps) {
    this.policy = deps.policy;
  }

  /** A new draft of these datasets (each of which the caller must be able to manage). */
  async create(ctx: RequestContext, datasetIds: unknown, input: PublicationInput): Promise<Publication> {
    const ids = checkDatasetIds(datasetIds);
    const metadata = checkMetadata(input);
    const embargo =
      input.embargoUntil === undefined ? null : parseEmbargoDate(input.embargoUntil, 'embargo_until');
    const uniqueId = newMfid();
    await ctx.em.transactional(async (tx) => {
      await this.policy.assertManagesAll(ctx, tx, ids, true);
      const pub = tx.create(Publication, {
        uniqueId,
        state: 'draft',
        creatorId: ctx.userId,
        metadata,
        datasetIds: ids,
        doi: this.deps.datacite.newDoi(),
        embargoUntil: embargo ?? null,
      });
      await tx.flush();
      await this.registerIn(tx, pub);
      await this.emit(ctx, tx, 'publication.created', uniqueId, { dataset_ids: ids });
    });
    return this.reread(ctx, uniqueId);
  }

  /** A publication the caller may read; 404 otherwise (malformed ids included). */
  async get(ctx: RequestContext, id: string): Promise<Publication> {
    const pub = isMfid(id) ? await ctx.em.findOne(Publication, { uniqueId: id }) : null;
    return this.policy.assertCanRead(ctx, pub, id);
  }

  /** The publications of these MFIDs the caller may read (`node(id:)`). */
  async readable(ctx: RequestContext, ids: readonly string[]): Promise<Publication[]> {
    const wanted = ids.filter(isMfid);
    if (!wanted.length) return [];
    const rows = await ctx.em.find(Publication, { uniqueId: { $in: wanted } });
    const out: Publication[] = [];
    for (const pub of rows) {
      try {
        out.push(await this.policy.assertCanRead(ctx, pub, pub.uniqueId));
      } catch {
        // unreadable: left out, as a missing one
      }
    }
    return out;
  }

  /** A page of the publications the caller may read, newest first, and their number. */
  async list(
    ctx: RequestContext,
    filter: PublicationFilter,
    page: { limit: number; offset: number },
  ): Promise<{ items: Publication[]; total: number }> {
    const words = (filter.title ?? '').split(/\s+/).filter(Boolean);
    const titled = words.map((w) => ({
      metadata: { title: { $ilike: `%${w.replace(/[\\%_]/g, '\\$&')}%` } },
    }));
    const where = {
      $and: [this.policy.visibleWhere(ctx), filter.state ? { state: filter.state } : {}, ...titled],
    };
    const [items, total] = await ctx.em.findAndCount(Publication, where, {
      orderBy: { uniqueId: 'desc' },
      limit: page.limit,
      offset: page.offset,
    });
    return { items, total };
  }

  /** Changes a draft's metadata or datasets (a new dataset list is checked like a new draft's). */
  async update(
    ctx: RequestContext,
    id: string,
    input: PublicationInput,
    datasetIds?: unknown,
  ): Promise<Publication> {
    await this.get(ctx, id);
    await ctx.em.transactional(async (tx) => {
      const pub = await this.locked(ctx, tx, id);
      this.assertState(pub, 'draft', 'only a draft may change: publish a new version instead');
      const metadata = checkMetadata(input, pub.metadata);
      const ids = datasetIds === undefined ? pub.datasetIds : checkDatasetIds(datasetIds);
      if (datasetIds !== undefined) await this.policy.assertManagesAll(ctx, tx, ids, true);
      pub.metadata = metadata;
      pub.datasetIds = ids;
      if (input.embargoUntil !== undefined)
        pub.embargoUntil = parseEmbargoDate(input.embargoUntil, 'embargo_until');
      await tx.flush();
      await this.registerIn(tx, pub);
      await this.emit(ctx, tx, 'publication.updated', pub.uniqueId, {});
    });
    return this.reread(ctx, id);
  }

  /**
   * Publishes a draft: freezes its metadata and copies its file manifest (every file of every
   * dataset with its name, size and SHA-256; a file without a SHA-256, a remote one, refuses
   * the publication naming it: the service never fetches remote bytes). Needs `manage` on every
   * dataset, checked on their rows as locked.
   */
  async publish(ctx: RequestContext, id: string): Promise<Publication> {
    await this.get(ctx, id);
    await ctx.em.transactional(async (tx) => {
      const pub = await this.locked(ctx, tx, id);
      this.assertState(pub, 'draft', 'it is already published');
      await this.policy.assertManagesAll(ctx, tx, pub.datasetIds, true);
      pub.manifest = await manifestIn(this.deps, ctx, tx, pub.datasetIds);
      await recordSetsIn(tx, pub.uniqueId, pub.datasetIds);
      pub.state = 'published';
      pub.publishedAt = new Date();
      await tx.flush();
      await this.registerIn(tx, pub);
      // the previous version's record now names this one (IsPreviousVersionOf): sent again
      for (const other of await this.deps.datacite.neighboursIn(tx, pub))
        await this.deps.datacite.enqueueIn(tx, other);
      const files = pub.manifest.reduce((n, d) => n + d.files.length, 0);
      await this.emit(ctx, tx, 'publication.published', pub.uniqueId, {
        previous_version_id: pub.previousVersionId ?? null,
        files,
      });
    });
    return this.reread(ctx, id);
  }

  /**
   * A new draft version of a published publication, with its metadata and datasets to start
   * from; publishing it links both ways (IsNewVersionOf / IsPreviousVersionOf). A version has
   * at most one next version (409 for a second).
   */
  async newVersion(ctx: RequestContext, id: string): Promise<Publication> {
    await this.get(ctx, id);
    const uniqueId = newMfid();
    await ctx.em.transactional(async (tx) => {
      const pub = await this.locked(ctx, tx, id);
      this.assertState(pub, 'published', 'only a published publication gets a new version');
      if (await tx.count(Publication, { previousVersionId: pub.uniqueId }))
        throw conflict(`Publication ${pub.uniqueId} already has a new version`);
      await this.policy.assertManagesAll(ctx, tx, pub.datasetIds, true);
      const created = tx.create(Publication, {
        uniqueId,
        state: 'draft',
        creatorId: ctx.userId,
        metadata: pub.metadata,
        datasetIds: pub.datasetIds,
        embargoUntil: pub.embargoUntil ?? null,
        previousVersionId: pub.uniqueId,
        // a version of its own: a DOI of its own
        doi: this.deps.datacite.newDoi(),
      });
      await tx.flush();
      await this.registerIn(tx, created);
      await this.emit(ctx, tx, 'publication.created', uniqueId, {
        dataset_ids: pub.datasetIds,
        previous_version_id: pub.uniqueId,
      });
    });
    return this.reread(ctx, uniqueId);
  }

  /** Withdraws a published publication: it stays, as a tombstone with the reason. */
  async withdraw(ctx: RequestContext, id: string, reason: unknown): Promise<Publication> {
    const why = checkReason(reason);
    await this.get(ctx, id);
    await ctx.em.transactional(async (tx) => {
      const pub = await this.locked(ctx, tx, id);
      this.assertState(pub, 'published', 'only a published publication may be withdrawn');
      pub.state = 'withdrawn';
      pub.withdrawnAt = new Date();
      pub.withdrawalReason = why;
      await tx.flush();
      await this.registerIn(tx, pub);
      await this.emit(ctx, tx, 'publication.withdrawn', pub.uniqueId, { reason: why });
    });
    return this.reread(ctx, id);
  }

  /** The previous and next versions of a publication, each when the caller may read it. */
  async versions(ctx: RequestContext, pub: Publication): Promise<PublicationVersions> {
    const [previous, next] = await Promise.all([
      pub.previousVersionId ? ctx.em.findOne(Publication, { uniqueId: pub.previousVersionId }) : null,
      ctx.em.findOne(Publication, { previousVersionId: pub.uniqueId }),
    ]);
    const readable = async (p: Publication | null) =>
      p ? this.policy.assertCanRead(ctx, p, p.uniqueId).catch(() => null) : null;
    return { previous: await readable(previous), next: await readable(next) };
  }

  /** The citation record of a publication the caller may read: every export format renders it. */
  async citation(ctx: RequestContext, id: string): Promise<CitationRecord> {
    return (await this.withCitation(ctx, id)).record;
  }

  /**
   * A publication the caller may read with its citation record and its readable neighbouring
   * versions (the landing page: publication-landing.rest.ts).
   */
  async withCitation(
    ctx: RequestContext,
    id: string,
  ): Promise<{ pub: Publication; record: CitationRecord; versions: PublicationVersions }> {
    const pub = await this.get(ctx, id);
    const versions = await this.versions(ctx, pub);
    const link = (p: Publication | null) => (p ? { id: p.uniqueId, doi: p.doi ?? null } : null);
    const record = citationRecord(
      pub,
      {
        previous: link(versions.previous),
        next: versions.next?.state === 'draft' ? null : link(versions.next),
      },
      { baseUrl: this.deps.baseUrl, publisher: this.deps.publisher },
    );
    return { pub, record, versions };
  }

  /** PUBLIC_BASE_URL and PUBLISHER_NAME, as the citation records are made with. */
  get citationSettings(): { baseUrl: string; publisher: string } {
    return { baseUrl: this.deps.baseUrl, publisher: this.deps.publisher };
  }

  /** A publication in one export format: its media type and text. */
  async exportAs(
    ctx: RequestContext,
    id: string,
    format: string,
  ): Promise<{ mediaType: string; body: string }> {
    const record = await this.citation(ctx, id);
    if (!(EXPORT_FORMAT_NAMES as string[]).includes(format))
      throw validationError('format', `must be one of ${EXPORT_FORMAT_NAMES.join(', ')}`);
    const f = EXPORT_FORMATS[format as ExportFormatName];
    // a DataCite record leaves only valid (as it is sent to DataCite): 422 naming the field otherwise
    if (format.startsWith('datacite-')) await assertValidDataciteXml(dataciteXml(record));
    return { mediaType: f.mediaType, body: f.render(record) };
  }

  /**
   * The registration error of a publication for this caller: only those who may change it see
   * why DataCite refused it (others see null).
   */
  async registrationError(ctx: RequestContext, pub: Publication): Promise<string | null> {
    if (!pub.registrationError) return null;
    const mayEdit = await this.policy.assertCanEdit(ctx, pub, pub.uniqueId).then(
      () => true,
      () => false,
    );
    return mayEdit ? pub.registrationError : null;
  }

  /**
   * With DataCite: checks the record DataCite would get against the DataCite Metadata Schema 4.7
   * (422 naming the field: the change is rolled back, nothing is sent), then enqueues its
   * registration in the change's transaction (committed with it, or not at all). A change clears
   * an earlier refusal: the new record is tried again.
   */
  private async registerIn(tx: EntityManager, pub: Publication): Promise<void> {
    if (!pub.doi || !this.deps.datacite.configured) return;
    await this.deps.datacite.assertSendableIn(tx, pub);
    if (pub.registrationError) {
      pub.registrationError = null;
      await tx.flush();
    }
    await this.deps.datacite.enqueueIn(tx, pub.uniqueId);
  }

  /** The publication's row locked for this transaction, once the caller may change it. */
  private async locked(ctx: RequestContext, tx: EntityManager, id: string): Promise<Publication> {
    const pub = await tx.findOne(
      Publication,
      { uniqueId: id },
      { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
    );
    return this.policy.assertCanEdit(ctx.within(tx), pub, id);
  }

  private assertState(pub: Publication, state: PublicationState, why: string): void {
    if (pub.state !== state) throw conflict(`Publication ${pub.uniqueId} is ${pub.state}: ${why}`);
  }

  private async emit(
    ctx: RequestContext,
    tx: EntityManager,
    type: EventType,
    uniqueId: string,
    payload: Record<string, unknown>,
  ): Promise<void> {
    await this.deps.events.emit(tx, {
      type,
      actorId: actorOf(ctx),
      resourceId: uniqueId,
      resourceType: 'publication',
      projectMfid: null,
      payload,
    });
  }

  private async reread(ctx: RequestContext, id: string): Promise<Publication> {
    const pub = await ctx.em.findOne(Publication, { uniqueId: id }, { refresh: true });
    if (!pub) throw notFound('Publication', id);
    return pub;
  }
}
