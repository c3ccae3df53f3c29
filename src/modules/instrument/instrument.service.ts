import { isBlank, NAME_BLANK } from '../owned-record/owned-record.fields';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../core/context';
import { OwnershipColumns } from '../../core/db/ownership-columns';
import { AppError, assertNoProblems, notFound, validationError, type FieldProblem } from '../../core/errors';
import { isMfid, newMfid } from '../../core/ids';
import { slugEquals, slugify, validateSlug } from '../../core/slugs';
import type { FilterQuery } from '@mikro-orm/core';
import { AccessGrant } from '../access/access-grant.entity';
import { uniquely } from '../../core/db/unique';
import { keysetFind, offsetFind } from '../../core/db/keyset';
import type { KeysetPage } from '../../core/pagination';
import { User } from '../user/user.entity';
import type { UserService } from '../user/user.service';
import { Instrument, INSTRUMENT_STATUSES, type InstrumentStatus } from './instrument.entity';
import type { InstrumentPolicy } from './instrument.policy';

export const INSTRUMENT_TEXT_FIELDS = {
  location: 300,
  manufacturer: 300,
  model: 300,
  instrumentType: 200,
  description: 100_000,
  otherId: 200,
  otherIdSource: 200,
} as const;
type TextField = keyof typeof INSTRUMENT_TEXT_FIELDS;

export type InstrumentText = Partial<Record<TextField, string | null>>;

/** The sort keys of `GET /instruments` (the 3.2 client's `INSTRUMENT_SORTS`). */
export const INSTRUMENT_SORTS = ['instrument_id', 'name', 'created', 'updated'] as const;
export type InstrumentSort = (typeof INSTRUMENT_SORTS)[number];
const INSTRUMENT_SORT_FIELDS: Record<InstrumentSort, string> = {
  instrument_id: 'instrumentId',
  name: 'instrumentName',
  created: 'creationTime',
  updated: 'modificationTime',
};

/** The filters of an instrument list (REST `GET /instruments`, GraphQL `instruments`). */
export interface InstrumentFilter {
  /** the name, exact */
  instrumentName?: string;
  /** the slug, exact and case-insensitive */
  instrumentId?: string;
  /** exact values of text fields, by entity property */
  exact?: Partial<Record<TextField, string>>;
  /** the owner's MFID or ORCID */
  ownerId?: string;
  status?: InstrumentStatus[];
  /** instruments the caller owns, or maintains (an editor or admin grant) */
  affiliation?: ('owner' | 'maintainer')[];
  sort?: { sort: InstrumentSort; direction: 'asc' | 'desc' } | null;
}

export interface InstrumentCreateInput extends InstrumentText {
  instrumentName: string;
  /** active (the default), maintenance or decommissioned; anything else is 422 */
  status?: string | null;
  instrumentId?: string | null;
  /** flexible owner (the operator): ORCID, MFID, username or email; defaults to the caller */
  owner?: string | null;
  public?: boolean;
}

/** A change; `null` (GraphQL's explicit null) is refused for the fields that cannot be empty. */
export interface InstrumentPatch extends InstrumentText {
  instrumentName?: string | null;
  /** null sets it back to active */
  status?: string | null;
  instrumentId?: string | null;
  public?: boolean | null;
}

/** Registered instruments. */
/** The ownership columns of `instrument`, written only through this module. */
export const INSTRUMENT_OWNERSHIP = new OwnershipColumns('instrument');

export class InstrumentService {
  /** owner and public flag, for transfer, the public flag and user deletion (`…In(tx)`) */
  readonly ownership = INSTRUMENT_OWNERSHIP;

  constructor(
    private readonly users: UserService,
    readonly policy: InstrumentPolicy,
  ) {}

  /** By MFID, slug or exact name. */
  async find(em: EntityManager, id: string): Promise<Instrument | null> {
    if (isMfid(id)) return em.findOne(Instrument, { uniqueId: id });
    return em.findOne(Instrument, { $or: [{ instrumentId: id }, { instrumentName: id }] });
  }

  /**
   * The instrument a slug (exact, case-insensitive) and/or an MFID name, as the caller may read
   * it: 404 like a missing one when nothing matches or the caller may not read it; 422 when the
   * two name different instruments (`PUT /datasets/{id}/instrument`).
   */
  async readableBySelectors(
    ctx: RequestContext,
    sel: { instrumentId?: string; instrumentMfid?: string },
  ): Promise<Instrument> {
    const found: Instrument[] = [];
    for (const [value, where] of [
      [sel.instrumentMfid, (v: string) => (isMfid(v) ? { uniqueId: v } : null)],
      [sel.instrumentId, (v: string) => ({ instrumentId: slugEquals(v) })],
    ] as const) {
      if (value === undefined) continue;
      const query = where(value);
      const instrument = query ? await ctx.em.findOne(Instrument, query) : null;
      // directory records: every caller may read one (an unreadable one would be this 404 too)
      if (!instrument) throw notFound('Instrument', value);
      found.push(instrument);
    }
    if (!found.length) throw validationError('instrument_id', 'is required (or instrument_mfid)');
    if (new Set(found.map((i) => i.uniqueId)).size > 1) {
      throw new AppError('VALIDATION', 'instrument_id and instrument_mfid name different instruments', [
        { field: 'instrument_id', message: 'names another instrument than instrument_mfid' },
        { field: 'instrument_mfid', message: 'names another instrument than instrument_id' },
      ]);
    }
    return found[0];
  }

  /**
   * Resolves the instrument selectors of a dataset input. Each must name a registered
   * instrument (spec 2.1: `instrument_name` is a registered instrument name; unresolved names
   * exist only on imported legacy records), and together they must name the same one: 422
   * otherwise, naming the field.
   */
  async resolveSelectors(
    em: EntityManager,
    sel: { instrumentMfid?: string | null; instrumentId?: string | null; instrumentName?: string | null },
  ): Promise<Instrument | null> {
    const found: [string, Instrument][] = [];
    if (sel.instrumentMfid) {
      const i = await em.findOne(Instrument, { uniqueId: sel.instrumentMfid });
      if (!i) throw validationError('instrument_mfid', `no instrument has the MFID "${sel.instrumentMfid}"`);
      found.push(['instrument_mfid', i]);
    }
    if (sel.instrumentId) {
      const i = await em.findOne(Instrument, { instrumentId: sel.instrumentId });
      if (!i) throw validationError('instrument_id', `no instrument has the id "${sel.instrumentId}"`);
      found.push(['instrument_id', i]);
    }
    if (sel.instrumentName) {
      const i = await em.findOne(Instrument, { instrumentName: sel.instrumentName });
      if (i) found.push(['instrument_name', i]);
      else if (found.length)
        throw validationError('instrument_name', `does not name the instrument ${found[0][1].instrumentId}`);
      else
        throw validationError(
          'instrument_name',
          `no instrument is registered as "${sel.instrumentName}" (a platform administrator registers instruments)`,
        );
    }
    const distinct = new Set(found.map(([, i]) => i.uniqueId));
    if (distinct.size > 1) {
      throw new AppError(
        'VALIDATION',
        `${found.map(([f]) => f).join(', ')} name different instruments`,
        found.map(([field]) => ({ field, message: 'conflicts with another instrument selector' })),
      );
    }
    return found[0]?.[1] ?? null;
  }

  async get(ctx: RequestContext, id: string): Promise<Instrument> {
    const instrument = await this.find(ctx.em, id);
    if (!instrument) throw notFound('Instrument', id);
    return instrument;
  }

  /** The instruments of these MFIDs (every caller may read them, as `get`), in one statement. */
  byIds(ctx: RequestContext, ids: readonly string[]): Promise<Instrument[]> {
    return ctx.em.find(Instrument, { uniqueId: { $in: ids.filter(isMfid) } });
  }

  async list(
    ctx: RequestContext,
    filter: InstrumentFilter,
    page: { limit: number; offset: number },
  ): Promise<{ items: Instrument[]; total: number }> {
    const sort = filter.sort;
    const dir = sort?.direction ?? 'asc';
    const orderBy: Record<string, 'asc' | 'desc'> = sort
      ? { [INSTRUMENT_SORT_FIELDS[sort.sort]]: dir, uniqueId: dir }
      : { instrumentName: 'asc' };
    return offsetFind(ctx.em, Instrument, await this.listWhere(ctx, filter), orderBy, page);
  }

  /** The condition of a filtered instrument list (instruments are a directory: no visibility filter). */
  private async listWhere(ctx: RequestContext, filter: InstrumentFilter): Promise<FilterQuery<Instrument>> {
    const where: FilterQuery<Instrument>[] = [];
    if (filter.instrumentName !== undefined) where.push({ instrumentName: filter.instrumentName });
    if (filter.instrumentId !== undefined) where.push({ instrumentId: slugEquals(filter.instrumentId) });
    for (const [key, value] of Object.entries(filter.exact ?? {})) where.push({ [key]: value });
    if (filter.ownerId !== undefined) where.push({ owner: filter.ownerId });
    if (filter.status?.length) where.push({ status: { $in: filter.status } });
    if (filter.affiliation?.length) {
      const either: FilterQuery<Instrument>[] = [];
      if (filter.affiliation.includes('owner')) either.push({ owner: ctx.userId });
      if (filter.affiliation.includes('maintainer')) {
        const grants = await ctx.em.find(
          AccessGrant,
          {
            resourceType: 'instrument',
            principalType: 'user',
            principalId: ctx.userId,
            permission: { $in: ['editor', 'admin'] },
          },
          { fields: ['resourceId'] },
        );
        either.push({ uniqueId: { $in: grants.map((g) => g.resourceId) } });
      }
      where.push({ $or: either });
    }
    return where.length ? { $and: where } : {};
  }

  async page(
    ctx: RequestContext,
    filter: { instrumentName?: string; status?: InstrumentStatus[] },
    page: { limit: number; cursor?: string },
  ): Promise<KeysetPage<Instrument>> {
    return keysetFind(ctx.em, Instrument, await this.listWhere(ctx, filter), page);
  }

  /**
   * Changes an instrument's lifecycle status (`POST /instruments/{id}/status`,
   * `setInstrumentStatus`): whoever may change its fields may (`update`, an editor maintainer
   * included), as through `PATCH`. 422 for another status.
   */
  async setStatus(ctx: RequestContext, id: string, status: unknown): Promise<Instrument> {
    const problems: FieldProblem[] = [];
    const value = statusOf(status ?? '', problems);
    const instrument = await this.get(ctx, id);
    await this.policy.assertCanUpdate(ctx, instrument, false);
    assertNoProblems(problems);
    if (value && value !== instrument.status) {
      instrument.status = value;
      await ctx.em.flush();
    }
    return instrument;
  }

  async count(ctx: RequestContext, filter: InstrumentFilter): Promise<number> {
    return ctx.em.count(Instrument, await this.listWhere(ctx, filter));
  }

  async create(ctx: RequestContext, input: InstrumentCreateInput): Promise<Instrument> {
    this.policy.assertCanCreate(ctx);
    const problems = checkText(input);
    const status = statusOf(input.status, problems) ?? 'active';
    const name = ((input.instrumentName as string | undefined) ?? '').trim(); // REST may omit it
    if (!name)
      problems.push({
        field: 'instrument_name',
        message: isBlank(input.instrumentName) ? NAME_BLANK : 'is required',
      });
    else if (name.length > 200)
      problems.push({ field: 'instrument_name', message: 'must be at most 200 characters' });
    assertNoProblems(problems);
    const slug = input.instrumentId
      ? validateSlug('instrument_id', input.instrumentId)
      : await this.freeSlug(ctx.em, name);
    const owner = input.owner ? await this.users.resolveField(ctx.em, 'owner', input.owner) : ctx.caller.user;
    const instrument = ctx.em.create(Instrument, {
      uniqueId: newMfid(),
      instrumentId: slug,
      instrumentName: name,
      owner: ctx.em.getReference(User, owner.uniqueId),
      public: input.public ?? false,
      ...textValues(input),
      status,
    });
    await uniquely(() => ctx.em.flush(), `an instrument named ${name} or with slug ${slug} already exists`);
    return instrument;
  }

  async update(ctx: RequestContext, id: string, patch: InstrumentPatch): Promise<Instrument> {
    const instrument = await this.get(ctx, id);
    await this.policy.assertCanUpdate(ctx, instrument, patch.public !== undefined);
    const problems = checkText(patch);
    const status = statusOf(patch.status, problems);
    const { instrumentName, instrumentId, public: isPublic } = patch;
    if (instrumentName === null) problems.push({ field: 'instrument_name', message: 'must not be null' });
    else if (instrumentName !== undefined && !instrumentName.trim()) {
      problems.push({ field: 'instrument_name', message: NAME_BLANK });
    }
    if (instrumentId === null) problems.push({ field: 'instrument_id', message: 'must not be null' });
    if (isPublic === null) problems.push({ field: 'public', message: 'must be true or false, not null' });
    assertNoProblems(problems);
    if (instrumentId != null && instrumentId !== instrument.instrumentId) {
      instrument.instrumentId = validateSlug('instrument_id', instrumentId);
    }
    if (instrumentName != null) instrument.instrumentName = instrumentName.trim();
    if (isPublic != null) instrument.public = isPublic;
    Object.assign(instrument, textValues(patch));
    if (patch.status !== undefined) instrument.status = status ?? 'active';
    await uniquely(() => ctx.em.flush(), 'another instrument has that name or slug');
    return instrument;
  }

  private async freeSlug(em: EntityManager, name: string): Promise<string> {
    const base = slugify(name);
    for (let i = 1; ; i++) {
      const candidate = i === 1 ? base : `${base}-${i}`;
      if ((await em.count(Instrument, { instrumentId: candidate })) === 0) return candidate;
    }
  }
}

/** A status as given (undefined and null pass through), or a problem for `status`. */
function statusOf(value: unknown, problems: FieldProblem[]): InstrumentStatus | null | undefined {
  if (value === undefined || value === null) return value;
  if (typeof value === 'string' && (INSTRUMENT_STATUSES as readonly string[]).includes(value)) {
    return value as InstrumentStatus;
  }
  problems.push({ field: 'status', message: `must be one of: ${INSTRUMENT_STATUSES.join(', ')}` });
  return undefined;
}

function textValues(input: InstrumentText): InstrumentText {
  const out: InstrumentText = {};
  for (const key of Object.keys(INSTRUMENT_TEXT_FIELDS) as TextField[]) {
    if (input[key] !== undefined) out[key] = input[key];
  }
  return out;
}

function checkText(input: InstrumentText): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const [key, max] of Object.entries(INSTRUMENT_TEXT_FIELDS) as [TextField, number][]) {
    const v = input[key];
    if (typeof v === 'string' && v.length > max) {
      problems.push({
        field: key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`),
        message: `must be at most ${max} characters`,
      });
    }
  }
  return problems;
}
