import type { EntityClass, EntityData, FilterQuery, RequiredEntityData } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../core/context';
import { assertNoProblems, forbidden, notFound } from '../../core/errors';
import { isMfid, newMfid } from '../../core/ids';
import { uniquely } from '../../core/db/unique';
import { allows } from '../permission/permission';
import type { OwnedRecord, OwnedRecordPolicy } from '../permission/owned-record.policy';
import { User } from '../user/user.entity';
import type { UserService } from '../user/user.service';
import type { ProjectService } from '../project/project.service';
import { checkOptionalDocument } from '../metadata-store/metadata-document';
import type { MetadataStore } from '../metadata-store/metadata-store';
import { actorOf, type EventService } from '../outbox/event.service';
import { fieldChanges } from '../outbox/domain-event';
import type { OwnedRecordEntity } from './owned-record.entity';
import { checkTextSpec, textValues, type TextSpec, type TextValues } from './owned-record.fields';
import { ownedRecordOf, rowsByIds, type OwnedRecordRow, type RecordReader } from './owned-record-row';

/** What a new dataset or sample may say, besides its own fields. */
export type OwnedRecordCreate<K extends string> = TextValues<K> & {
  uniqueId?: string | null;
  public?: boolean | null;
  projectId?: string | null;
  projectMfid?: string | null;
  /** flexible owner: ORCID, MFID, username or email; defaults to the caller */
  owner?: string | null;
  /** deprecated owner selector; an error together with `owner` */
  ownerOrcid?: string | null;
  /** initial scientific metadata, stored in the same transaction */
  scientificMetadata?: Record<string, unknown> | null;
};

/** The changes an update of a dataset or sample may make, besides its own fields. */
export type OwnedRecordPatch<K extends string> = TextValues<K> & { public?: boolean };

/** One kind of owned record: its entity (writes), its rows (reads), its name and its text fields. */
export interface OwnedRecordKind<
  T extends OwnedRecordEntity<string>,
  K extends string,
  R extends OwnedRecordRow,
  I extends object,
> {
  entity: EntityClass<T>;
  rows: RecordReader<R, I>;
  /** as the access service, the metadata store and messages name it */
  type: 'dataset' | 'sample';
  text: TextSpec<K>;
}

export interface OwnedRecordDeps {
  users: UserService;
  projects: ProjectService;
  policy: OwnedRecordPolicy<OwnedRecord>;
  metadata: MetadataStore;
  events: EventService;
}

/**
 * Reading, creating and updating one kind of owned record (datasets, samples) under its policy:
 * the rules the two share. Reads are rows (`read`); writes work on entities and answer with the
 * record's row as it then reads. The services add what only their kind has through the hooks of
 * `create` and `update`.
 */
export class OwnedRecords<
  T extends OwnedRecordEntity<string>,
  K extends string,
  R extends OwnedRecordRow,
  I extends object,
> {
  private readonly label: string;

  constructor(
    private readonly kind: OwnedRecordKind<T, K, R, I>,
    private readonly deps: OwnedRecordDeps,
  ) {
    this.label = kind.type[0].toUpperCase() + kind.type.slice(1);
  }

  /** A record the caller may read, as an entity to change; 404 otherwise (also for malformed ids). */
  async get(ctx: RequestContext, uniqueId: string): Promise<T> {
    const record = isMfid(uniqueId)
      ? await ctx.em.findOne(this.kind.entity, { uniqueId } as FilterQuery<T>)
      : null;
    if (!record || !(await this.deps.policy.permission(ctx, record))) throw notFound(this.label, uniqueId);
    return record;
  }

  /** A record the caller may read, as a row with `include`; 404 otherwise (also for malformed ids). */
  async read(ctx: RequestContext, uniqueId: string, include: I): Promise<R> {
    const row = isMfid(uniqueId)
      ? (await rowsByIds(ctx.em, this.kind.rows, [uniqueId], include)).at(0)
      : undefined;
    if (!row || !(await this.deps.policy.permission(ctx, ownedRecordOf(row)))) {
      throw notFound(this.label, uniqueId);
    }
    return row;
  }

  /**
   * The records of `ids` the caller may read, as rows with `include`, in one statement (the
   * policy's visibility condition, as lists apply it); missing and unreadable ones left out.
   */
  async readable(ctx: RequestContext, ids: readonly string[], include: I): Promise<R[]> {
    const wanted = ids.filter(isMfid);
    if (wanted.length === 0) return [];
    const visible = await this.deps.policy.visibleWhere(ctx, this.kind.rows.alias);
    return rowsByIds(ctx.em, this.kind.rows, wanted, include, visible);
  }

  /** The row of a record just written (its writer reads it back: no permission check). */
  async written(em: EntityManager, uniqueId: string, include: I): Promise<R> {
    const [row] = await rowsByIds(em, this.kind.rows, [uniqueId], include);
    return row;
  }

  /**
   * Creates a record owned by `input.owner` (the caller by default), in the project it names,
   * with its initial scientific metadata, in one transaction. `relations` resolves the kind's
   * own relations (after the project, before the owner) into entity data.
   */
  async create(
    ctx: RequestContext,
    input: OwnedRecordCreate<K>,
    include: I,
    relations?: (em: EntityManager) => Promise<EntityData<T>>,
  ): Promise<R> {
    const problems = checkTextSpec(this.kind.text, input);
    if (input.uniqueId != null && !isMfid(input.uniqueId)) {
      problems.push({ field: 'unique_id', message: 'must be a 26-character MFID' });
    }
    if (input.public !== undefined && input.public !== null && typeof input.public !== 'boolean') {
      problems.push({ field: 'public', message: 'must be true or false' });
    }
    const metadata = checkOptionalDocument(input.scientificMetadata, 'scientific_metadata');
    assertNoProblems(problems);

    const em = ctx.em;
    const project = await this.deps.projects.resolveSelectors(em, input.projectId, input.projectMfid);
    const own = relations ? await relations(em) : {};
    const owner = await this.deps.users.resolveOwnerInput(ctx, input);
    await this.deps.projects.policy.assertMayCreateIn(ctx, project, owner, `${this.kind.type}s`);

    const uniqueId = input.uniqueId ?? newMfid();
    await uniquely(
      () =>
        em.transactional(async (tx) => {
          const data = {
            uniqueId,
            owner: tx.getReference(User, owner.uniqueId),
            project: project ?? null,
            ...own,
            public: input.public ?? false,
            ...textValues(this.kind.text, input),
          };
          // a generic T hides which of its keys are required: these are every owned record's
          tx.create(this.kind.entity, data as unknown as RequiredEntityData<T>);
          await tx.flush();
          if (metadata)
            await this.deps.metadata.initialize(tx, this.kind.type, uniqueId, metadata, actorOf(ctx));
          await this.deps.events.emit(tx, {
            type: `${this.kind.type}.created`,
            actorId: actorOf(ctx),
            resourceId: uniqueId,
            resourceType: this.kind.type,
            projectMfid: project?.uniqueId ?? null,
            payload: {
              owner: owner.uniqueId,
              public: data.public,
              fields: textValues(this.kind.text, input),
              metadata_keys: metadata ? Object.keys(metadata) : [],
            },
          });
        }),
      // one answer whatever holds or held it: the kind, readability or removal of that record stay unsaid
      `unique_id ${uniqueId} is taken`,
    );
    return this.written(em, uniqueId, include);
  }

  /**
   * Changes a record's text fields and public flag: `update` permission, and `manage` to make it
   * public or private. `check` vets the kind's own fields of the patch before anything changes.
   * Answers with the row, with `include`.
   */
  async update(
    ctx: RequestContext,
    uniqueId: string,
    patch: OwnedRecordPatch<K>,
    include: I,
    check?: () => Promise<void>,
  ): Promise<R> {
    const record = await this.get(ctx, uniqueId);
    const permission = await this.deps.policy.assertCan(ctx, 'update', record);
    if (patch.public !== undefined && !allows(permission, 'manage')) {
      throw forbidden(`Making a ${this.kind.type} public or private needs admin permission on it`);
    }
    const problems = checkTextSpec(this.kind.text, patch, true);
    // GraphQL's explicit null reaches here as null whatever the declared type
    const isPublic: unknown = patch.public;
    if (isPublic !== undefined && typeof isPublic !== 'boolean') {
      problems.push({ field: 'public', message: 'must be true or false' });
    }
    assertNoProblems(problems);
    if (check) await check();
    const before = this.snapshot(record);
    Object.assign(record, textValues(this.kind.text, patch));
    if (typeof isPublic === 'boolean') record.public = isPublic;
    const changes = fieldChanges(before, this.snapshot(record));
    await ctx.em.transactional(async (tx) => {
      tx.persist(record);
      if (Object.keys(changes).length === 0) return;
      await this.deps.events.emit(tx, {
        type: `${this.kind.type}.updated`,
        actorId: actorOf(ctx),
        resourceId: record.uniqueId,
        resourceType: this.kind.type,
        projectMfid: record.project?.uniqueId ?? null,
        payload: { changes },
      });
    });
    return this.written(ctx.em, uniqueId, include);
  }

  /** The values an update may change, by field name, for the event's field-level changes. */
  private snapshot(record: T): Record<string, unknown> {
    const values: Record<string, unknown> = { public: record.public };
    const fields = record as unknown as Record<string, unknown>;
    for (const key of Object.keys(this.kind.text)) values[key] = fields[key] ?? null;
    return values;
  }
}
