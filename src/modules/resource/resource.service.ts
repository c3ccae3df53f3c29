import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../core/context';
import { AppError, forbidden, notFound, validationError } from '../../core/errors';
import { rawQuery } from '../../core/db/raw';
import type { OwnershipColumns } from '../../core/db/ownership-columns';
import { isMfid } from '../../core/ids';
import { RESOURCE_TYPES, type ResourceType } from '../permission/permission';
import { allows, refusal, type Action, type Permission } from '../permission/permission';
import type { AccessSubject } from '../permission/access.service';
import type { DatasetRow } from '../dataset/dataset-row';
import type { DatasetService } from '../dataset/dataset.service';
import type { SampleRow } from '../sample/sample-row';
import type { SampleService } from '../sample/sample.service';
import type { Project } from '../project/project.entity';
import type { ProjectService } from '../project/project.service';
import type { Instrument } from '../instrument/instrument.entity';
import type { InstrumentService } from '../instrument/instrument.service';
import { ownedRecordOf } from '../owned-record/owned-record-row';
import { actorOf, type EventService } from '../outbox/event.service';

export type AnyResource =
  | { type: 'dataset'; uniqueId: string; record: DatasetRow }
  | { type: 'sample'; uniqueId: string; record: SampleRow }
  | { type: 'project'; uniqueId: string; record: Project }
  | { type: 'instrument'; uniqueId: string; record: Instrument };

/** The columns ownership workflows read and change, as stored. */
export interface OwnershipRow {
  uniqueId: string;
  ownerId: string;
  projectMfid: string | null;
  /** a dataset's instrument (null for other types) */
  instrumentMfid: string | null;
  public: boolean | null;
}

/** The access subject of a resource of `type` whose ownership columns are `row`. */
export function subjectOfRow(type: ResourceType, row: OwnershipRow): AccessSubject {
  return {
    uniqueId: row.uniqueId,
    type,
    ownerId: row.ownerId,
    projectMfid: row.projectMfid,
    instrumentMfid: row.instrumentMfid,
    public: row.public ?? false,
  };
}

const OWNERSHIP_COLUMNS: Record<
  ResourceType,
  { table: string; project: string; instrument: string; visible: string }
> = {
  dataset: { table: 'dataset', project: 'project_mfid', instrument: 'instrument_mfid', visible: 'public' },
  sample: { table: 'sample', project: 'project_mfid', instrument: 'null', visible: 'public' },
  project: { table: 'project', project: 'null', instrument: 'null', visible: 'null' },
  instrument: { table: 'instrument', project: 'null', instrument: 'null', visible: 'public' },
};

export interface ResourceDeps {
  datasets: DatasetService;
  samples: SampleService;
  projects: ProjectService;
  instruments: InstrumentService;
  events: EventService;
}

/**
 * Any catalog resource by MFID: type detection, reads under each type's policy, and one way to
 * ask "may the caller do X to it" whatever its type. Datasets and samples the caller may not
 * read are 404; projects and instruments are readable by every authenticated caller.
 */
export class ResourceService {
  constructor(private readonly deps: ResourceDeps) {}

  /** Validates a `resource_type` selector: 422 unless it is a supported type. */
  parseType(raw: unknown, field = 'resource_type'): ResourceType {
    if (typeof raw === 'string' && (RESOURCE_TYPES as readonly string[]).includes(raw)) {
      return raw as ResourceType;
    }
    throw validationError(field, `must be one of ${RESOURCE_TYPES.join(', ')}`);
  }

  /**
   * The type of the record with this id, whoever may read it, or null. Internal: callers that
   * answer a request go through `find`, which checks visibility. Besides
   * MFIDs, a project slug names its project (legacy clients address project metadata so).
   */
  async detect(em: EntityManager, id: string): Promise<{ type: ResourceType; uniqueId: string } | null> {
    if (!isMfid(id)) {
      const project = await this.deps.projects.find(em, id);
      return project ? { type: 'project', uniqueId: project.uniqueId } : null;
    }
    const rows = await rawQuery<{ type: ResourceType }>(
      em,
      `select 'dataset' as type from dataset where unique_id = ?
       union all select 'sample' from sample where unique_id = ?
       union all select 'project' from project where unique_id = ?
       union all select 'instrument' from instrument where unique_id = ?
       limit 1`,
      [id, id, id, id],
    );
    return rows.length ? { type: rows[0].type, uniqueId: id } : null;
  }

  /**
   * A resource the caller may read, of `type` when given; 404 otherwise. The 404 is the same
   * for a record the caller may not read as for an id nothing has (same message, naming the
   * type asked for, or `Resource`): neither its existence nor its type leaks.
   */
  async find(ctx: RequestContext, id: string, type?: ResourceType): Promise<AnyResource> {
    const missing = () => notFound(type ? capitalize(type) : 'Resource', id);
    const detected = await this.detect(ctx.em, id);
    if (!detected || (type && detected.type !== type)) throw missing();
    try {
      return await this.readable(ctx, detected.type, detected.uniqueId);
    } catch (err) {
      throw err instanceof AppError && err.code === 'NOT_FOUND' ? missing() : err;
    }
  }

  /** The record of a detected resource through its own service (404 when the caller may not read it). */
  private async readable(ctx: RequestContext, type: ResourceType, uniqueId: string): Promise<AnyResource> {
    switch (type) {
      case 'dataset':
        return { type, uniqueId, record: await this.deps.datasets.read(ctx, uniqueId) };
      case 'sample':
        return { type, uniqueId, record: await this.deps.samples.read(ctx, uniqueId) };
      case 'project':
        return { type, uniqueId, record: await this.deps.projects.get(ctx, uniqueId) };
      case 'instrument':
        return { type, uniqueId, record: await this.deps.instruments.get(ctx, uniqueId) };
    }
  }

  /**
   * Makes a dataset, sample or instrument public or private (needs `manage`); projects have no
   * public flag (422). The check and the write share one transaction holding the record's row
   * lock (the lock ownership transfer and reassignment take), the check made on the row as
   * locked, so a stale permission never flips the flag.
   */
  async setPublic(ctx: RequestContext, id: string, value: boolean): Promise<AnyResource> {
    const r = await this.find(ctx, id);
    if (r.type === 'project')
      throw validationError('resource_type', 'projects have no public flag: every caller may read them');
    await this.assertCan(ctx, 'manage', r);
    await ctx.em.transactional(async (tx) => {
      const row = await this.ownershipRow(tx, r.type, r.uniqueId, true);
      if (!row) throw notFound('Resource', r.uniqueId);
      await this.assertCanOn(ctx.within(tx), 'manage', subjectOfRow(r.type, row));
      await this.ownershipOf(r.type).setPublicIn(tx, r.uniqueId, value);
      if ((row.public ?? false) !== value) {
        await this.deps.events.emit(tx, {
          type: value ? 'access.public' : 'access.private',
          actorId: actorOf(ctx),
          resourceId: r.uniqueId,
          resourceType: r.type,
          projectMfid: row.projectMfid ?? null,
        });
      }
    });
    ctx.resetScope();
    return this.reread(ctx, r);
  }

  /**
   * The resource as committed after a change the caller made (rows are read again, entities
   * refreshed: the request's identity map still holds the old values), whether or not the caller
   * may still read it.
   */
  async reread(ctx: RequestContext, r: AnyResource): Promise<AnyResource> {
    switch (r.type) {
      case 'dataset':
        return { ...r, record: await this.deps.datasets.reread(ctx, r.uniqueId) };
      case 'sample':
        return { ...r, record: await this.deps.samples.reread(ctx, r.uniqueId) };
      default:
        await ctx.em.refresh(r.record);
        return r;
    }
  }

  /** The caller's effective permission on a resource (null: may not read it). */
  permission(ctx: RequestContext, r: AnyResource): Promise<Permission | null> {
    switch (r.type) {
      case 'dataset':
        return this.deps.datasets.policy.permission(ctx, ownedRecordOf(r.record));
      case 'sample':
        return this.deps.samples.policy.permission(ctx, ownedRecordOf(r.record));
      case 'project':
        return this.deps.projects.policy.permission(ctx, r.record);
      case 'instrument':
        return this.deps.instruments.policy.permission(ctx, r.record);
    }
  }

  /** What the access rules need to know about a resource (its policy's subject). */
  subject(r: AnyResource): AccessSubject {
    switch (r.type) {
      case 'dataset':
        return this.deps.datasets.policy.subject(ownedRecordOf(r.record));
      case 'sample':
        return this.deps.samples.policy.subject(ownedRecordOf(r.record));
      case 'project':
        return this.deps.projects.policy.subject(r.record);
      case 'instrument':
        return this.deps.instruments.policy.subject(r.record);
    }
  }

  /**
   * The permission the caller would hold on a resource described by `subject`, by the policy of
   * its type: previews ask it about the record as it would become.
   */
  permissionOf(ctx: RequestContext, subject: AccessSubject): Promise<Permission | null> {
    switch (subject.type) {
      case 'dataset':
        return this.deps.datasets.policy.permissionOf(ctx, subject);
      case 'sample':
        return this.deps.samples.policy.permissionOf(ctx, subject);
      case 'project':
        return this.deps.projects.policy.permissionOf(ctx, subject);
      case 'instrument':
        return this.deps.instruments.policy.permissionOf(ctx, subject);
    }
  }

  /**
   * The ownership columns of a resource read straight from its row inside `em` (a transaction's
   * when `lock`, which then holds the row until it ends), or null when it is gone.
   */
  async ownershipRow(
    em: EntityManager,
    type: ResourceType,
    uniqueId: string,
    lock = false,
  ): Promise<OwnershipRow | null> {
    const { table, project, instrument, visible } = OWNERSHIP_COLUMNS[type];
    const rows = await rawQuery<OwnershipRow>(
      em,
      `select unique_id as "uniqueId", owner_id as "ownerId", ${project} as "projectMfid",
         ${instrument} as "instrumentMfid", ${visible} as "public"
       from ${table} where unique_id = ?${lock ? ' for update' : ''}`,
      [uniqueId],
    );
    return rows[0] ?? null;
  }

  /** Gives a resource a new owner, inside the caller's transaction (ownership transfer). */
  setOwnerIn(em: EntityManager, type: ResourceType, uniqueId: string, ownerId: string): Promise<void> {
    return this.ownershipOf(type).setOwnerIn(em, uniqueId, ownerId);
  }

  /** Assigns a dataset or sample to another project, inside the caller's transaction. */
  setProjectIn(
    em: EntityManager,
    type: 'dataset' | 'sample',
    uniqueId: string,
    projectMfid: string,
  ): Promise<void> {
    return this.ownershipOf(type).setProjectIn(em, uniqueId, projectMfid);
  }

  /** The ownership columns of a type's table, as its module writes them. */
  private ownershipOf(type: ResourceType): OwnershipColumns {
    const { datasets, samples, projects, instruments } = this.deps;
    return { dataset: datasets, sample: samples, project: projects, instrument: instruments }[type].ownership;
  }

  /** 404 when the caller may not read the resource, 403 when they may not do `action`. */
  assertCan(ctx: RequestContext, action: Action, r: AnyResource): Promise<Permission> {
    return this.assertCanOn(ctx, action, this.subject(r));
  }

  /**
   * `assertCan` on the resource `subject` describes (checks inside a transaction pass the row
   * they locked), by the policy of its type.
   */
  async assertCanOn(ctx: RequestContext, action: Action, subject: AccessSubject): Promise<Permission> {
    const p = await this.permissionOf(ctx, subject);
    // as `find` answers for an id nothing has: an unreadable record's type does not leak
    if (!p) throw notFound('Resource', subject.uniqueId);
    if (!allows(p, action)) throw forbidden(refusal(action, `${subject.type} ${subject.uniqueId}`, p));
    return p;
  }

  /** The display name of a resource. */
  name(r: AnyResource): string | null {
    switch (r.type) {
      case 'dataset':
        return r.record.datasetName ?? null;
      case 'sample':
        return r.record.sampleName ?? null;
      case 'project':
        return r.record.title ?? r.record.projectId;
      case 'instrument':
        return r.record.instrumentName;
    }
  }
}

export function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
