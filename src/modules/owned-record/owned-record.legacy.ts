import type { RequestContext } from '../../core/context';
import {
  Checked,
  echoed,
  NullableString,
  refused,
  Type,
  type TObject,
  type TProperties,
  type TSchema,
} from '../../core/rest/schema';
import { CAPABILITY_VALUE, toWireCapabilities, type CapabilityFlags } from '../../core/rest/wire';
import type { IncludeFlags } from '../../core/rest/include';
import { toPublicUser } from '../user/user.legacy';
import { toLegacyProjectRef } from '../project/project.legacy';
import { toLegacyLink } from '../link/link.legacy';
import { deletionRequestFields } from '../deletion/deletion.legacy';
import type { OwnedRecordRow, OwnerRow } from './owned-record-row';
import { textKeys, type TextSpec, type TextValues } from './owned-record.fields';
import type { OwnedRecordCreate, OwnedRecordPatch } from './owned-record.service';
import type { OwnedRecordFilter } from './owned-record.query';
import { validationError } from '../../core/errors';
import { isIsoDateTime } from '../../core/rest/validate';

/** Optional parts of a dataset or sample record on the legacy wire. */
interface ExtrasOptions {
  /** `scientific_metadata`: the plain document (null when none) */
  includeMetadata?: boolean;
  /** `links`: link objects (spec 2.5) */
  includeLinks?: boolean;
  /** `deletion_request`: the pending request, or null (single reads) */
  includeDeletion?: boolean;
}

export interface LegacyRecordOptions extends ExtrasOptions {
  /** `owner`: the public-safe owner */
  includeOwner?: boolean;
  /** `capabilities` (single reads and writes; null otherwise) */
  capabilities?: CapabilityFlags | null;
}

/** How one kind of owned record appears on the legacy wire. */
export interface RecordWire<K extends string> {
  type: 'dataset' | 'sample';
  /** its text fields, written under their wire names, in this order */
  text: TextSpec<K>;
}

/**
 * The legacy REST shape of a dataset or sample (reference §4, §12; spec 2.1) from its row, which
 * includes its project (and its owner with `includeOwner`): every key, null where empty. `own`
 * holds the keys only its kind has, placed after the project's; `extras` the loaded optional
 * keys (`legacyExtras`), which close the record after the owner.
 */
export function toLegacyRecord<K extends string>(
  ctx: RequestContext,
  record: OwnedRecordRow & Partial<Record<K, string | null>>,
  wire: RecordWire<K>,
  opts: LegacyRecordOptions,
  own: Record<string, unknown>,
  extras: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { unique_id: record.uniqueId };
  for (const key of textKeys(wire.text)) out[wire.text[key].wire] = record[key] ?? null;
  out.public = record.public;
  out.owner_orcid = record.ownerId;
  out.project_id = record.projectId ?? null;
  out.project_mfid = record.project?.uniqueId ?? null;
  out.project = toLegacyProjectRef(record.project);
  Object.assign(out, own);
  out.creation_time = record.creationTime.toISOString();
  out.modification_time = record.modificationTime.toISOString();
  out.resource_type = wire.type;
  out.capabilities = opts.capabilities ? toWireCapabilities(ctx, opts.capabilities, false) : null;
  return Object.assign(out, legacyTail(ctx, record.owner, opts, extras));
}

/**
 * The optional keys that close a record, in their order: `owner` (the row's, with
 * `includeOwner`), then the loaded `extras` ({@link legacyExtras}).
 */
export function legacyTail(
  ctx: RequestContext,
  owner: OwnerRow | null | undefined,
  opts: LegacyRecordOptions,
  extras: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (opts.includeOwner) out.owner = owner ? toPublicUser(ctx, owner) : null;
  return Object.assign(out, extras);
}

/**
 * The optional keys of dataset or sample records `opts` asks for (`scientific_metadata`,
 * `links`, `deletion_request`, in that order), by record, loaded through the request's
 * DataLoaders: a page costs one statement per kind of key. Only for records the caller may read.
 */
export async function legacyExtras(
  ctx: RequestContext,
  ids: readonly string[],
  opts: ExtrasOptions,
): Promise<Record<string, unknown>[]> {
  const each = <T>(on: boolean | undefined, load: (id: string) => Promise<T>) =>
    on ? Promise.all(ids.map(load)) : undefined;
  const [metadata, links, deletions] = await Promise.all([
    each(opts.includeMetadata, (id) => ctx.loaders.metadata.load(id)),
    each(opts.includeLinks, (id) => ctx.loaders.links.byResource.load(id)),
    each(opts.includeDeletion, (id) => ctx.loaders.pendingDeletion.load(id)),
  ]);
  return ids.map((_, i) => {
    const out: Record<string, unknown> = {};
    if (metadata) out.scientific_metadata = metadata[i] ?? null;
    if (links) out.links = links[i].map(toLegacyLink);
    if (deletions) {
      const deletion = deletions[i];
      out.deletion_request = deletion ? deletionRequestFields(deletion) : null;
    }
    return out;
  });
}

/** The `include_*` flags of a legacy read, as the route's query schema decodes them. */
/** The `include_metadata` and `include_links` flags of a legacy read (both default false). */
function extrasFlags(q: IncludeFlags): ExtrasOptions {
  return { includeMetadata: q.include_metadata ?? false, includeLinks: q.include_links ?? false };
}

/** What collections return of each record: `include_*` flags default to false. */
export function itemOptions(q: IncludeFlags): LegacyRecordOptions {
  return { includeOwner: q.include_owner ?? false, ...extrasFlags(q) };
}

/** What single reads return: the owner by default and the pending deletion request (add `capabilities`). */
export function detailOptions(q: IncludeFlags): LegacyRecordOptions {
  return { includeOwner: q.include_owner ?? true, ...extrasFlags(q), includeDeletion: true };
}

/** Read-only fields clients echo back from a record they read: dropped on create. */
const ECHOED = [
  'creation_time',
  'modification_time',
  'resource_type',
  'capabilities',
  'project',
  'links',
  'deletion_request',
];
const NOT_UPDATABLE: Record<string, string> = {
  project_id: 'the project changes only through project reassignment',
  project_mfid: 'the project changes only through project reassignment',
  owner: 'ownership changes only through POST /resources/{mfid}/transfer_ownership',
  owner_orcid: 'ownership changes only through POST /resources/{mfid}/transfer_ownership',
};

/** The text fields of `text` as body properties (null clears a field). */
function textProperties<K extends string>(text: TextSpec<K>): TProperties {
  return Object.fromEntries(
    textKeys(text).map((k) => [
      text[k].wire,
      Type.Optional(
        NullableString({
          maxLength: text[k].max,
          ...(k === 'timestamp' ? { description: 'ISO 8601 date or date-time' } : {}),
        }),
      ),
    ]),
  );
}

type Body = Record<string, unknown>;

function textFromBody<K extends string>(text: TextSpec<K>, body: Body): TextValues<K> {
  const out: TextValues<K> = {};
  for (const key of textKeys(text)) {
    const wire = text[key].wire;
    if (wire in body) out[key] = body[wire] as string | null;
  }
  return out;
}

/**
 * The create body of an owned record with the text fields of `text`; `own.fields` are the kind's
 * own fields, `own.ignore` the read-only fields of its kind that clients echo back. Unknown
 * fields are refused.
 */
export function recordCreateBody<K extends string>(
  text: TextSpec<K>,
  own: { fields?: Record<string, TSchema>; ignore?: string[]; title: string },
): TObject {
  const optional = Type.Optional(NullableString());
  return Type.Object(
    {
      ...textProperties(text),
      unique_id: Type.Optional(
        NullableString({ description: 'an MFID of your choice (minted when absent)' }),
      ),
      public: Type.Optional(Type.Boolean()),
      project_id: optional,
      project_mfid: optional,
      owner: Type.Optional(NullableString({ description: 'ORCID of the owner (admins only)' })),
      owner_orcid: optional,
      scientific_metadata: Type.Optional(Checked('a JSON object, or null')),
      ...own.fields,
      ...echoed([...ECHOED, ...(own.ignore ?? [])]),
    },
    { additionalProperties: false, title: own.title },
  );
}

/** The update body of an owned record: its text fields and `public` (never null), plus `ownFields`. */
export function recordPatchBody<K extends string>(
  text: TextSpec<K>,
  own: { fields?: Record<string, TSchema>; title: string },
): TObject {
  return Type.Object(
    {
      ...textProperties(text),
      public: Type.Optional(Type.Boolean()),
      ...own.fields,
      ...refused(NOT_UPDATABLE),
    },
    { additionalProperties: false, title: own.title },
  );
}

/** The service input of a create body checked by {@link recordCreateBody}. */
export function recordCreateInput<K extends string>(text: TextSpec<K>, body: Body): OwnedRecordCreate<K> {
  const str = (f: string) => body[f] as string | null | undefined;
  return {
    ...textFromBody(text, body),
    uniqueId: str('unique_id'),
    public: body.public as boolean | undefined,
    projectId: str('project_id'),
    projectMfid: str('project_mfid'),
    owner: str('owner'),
    ownerOrcid: str('owner_orcid'),
    scientificMetadata: body.scientific_metadata as OwnedRecordCreate<K>['scientificMetadata'],
  };
}

/** The service patch of an update body checked by {@link recordPatchBody}. */
export function recordPatchInput<K extends string>(text: TextSpec<K>, body: Body): OwnedRecordPatch<K> {
  const patch: OwnedRecordPatch<K> = textFromBody(text, body);
  if ('public' in body) patch.public = body.public as boolean;
  return patch;
}

/** The wire record of a dataset or sample, as {@link toLegacyRecord} writes it. */
export function recordWireSchema<K extends string>(
  text: TextSpec<K>,
  own: TProperties,
  title: string,
): TObject {
  const nullable = NullableString();
  const textProps = Object.fromEntries(textKeys(text).map((k) => [text[k].wire, nullable]));
  const nullableObject = Type.Union([Type.Object({}), Type.Null()]);
  return Type.Object(
    {
      unique_id: Type.String(),
      ...textProps,
      public: Type.Boolean(),
      owner_orcid: Type.String(),
      project_id: nullable,
      project_mfid: nullable,
      project: nullableObject,
      ...own,
      creation_time: Type.String({ format: 'date-time' }),
      modification_time: Type.String({ format: 'date-time' }),
      resource_type: Type.String(),
      capabilities: Type.Union([Type.Record(Type.String(), CAPABILITY_VALUE), Type.Null()], {
        description: 'what the caller may do (single reads and writes; null in lists)',
      }),
      owner: Type.Optional(nullableObject),
      scientific_metadata: Type.Optional(nullableObject),
      links: Type.Optional(Type.Array(Type.Object({}))),
      deletion_request: Type.Optional(nullableObject),
    },
    { title },
  );
}

/** `visibility` of a dataset or sample list: every readable record, or only public or private ones. */
const VISIBILITIES = ['all', 'public', 'private'] as const;

/**
 * The list filters the 3.2 client adds on datasets and samples: `owner_id`, `visibility`,
 * `affiliation` (owner: your own records), the creation and modification time ranges, and
 * `<field>_is_null` for each of `nullable` (wire field -> column). `include_total` is accepted:
 * the total is always computed.
 */
export function recordListQuery(nullable: Record<string, string>) {
  const time = (what: string) => Type.Optional(Type.String({ format: 'date-time', description: what }));
  return {
    owner_id: Type.Optional(Type.String({ description: "the owner's ORCID or MFID" })),
    visibility: Type.Optional(
      Type.Unsafe<(typeof VISIBILITIES)[number]>({
        type: 'string',
        enum: [...VISIBILITIES],
        description: 'all (default), public or private records',
      }),
    ),
    affiliation: Type.Optional(
      Type.Array(Type.Unsafe<'owner'>({ type: 'string', enum: ['owner'] }), {
        description: 'owner: only your own records',
      }),
    ),
    include_total: Type.Optional(Type.Boolean({ description: 'accepted; `total` is always given' })),
    creation_time_gte: time('created at or after (ISO 8601)'),
    creation_time_lte: time('created at or before (ISO 8601)'),
    modification_time_gte: time('changed at or after (ISO 8601)'),
    modification_time_lte: time('changed at or before (ISO 8601)'),
    ...Object.fromEntries(
      Object.keys(nullable).map((wire) => [
        `${wire}_is_null`,
        Type.Optional(Type.Boolean({ description: `true: ${wire} is empty; false: it is set` })),
      ]),
    ),
  };
}

/** A query time (ISO 8601): 422 naming the parameter when it is not one. */
function queryTime(name: string, value: unknown): Date | undefined {
  if (typeof value !== 'string') return undefined;
  if (!isIsoDateTime(value)) throw validationError(name, 'must be an ISO 8601 date-time');
  return new Date(value);
}

/** The filter keys of {@link recordListQuery}'s parameters. */
export function recordListFilter(
  q: Record<string, unknown>,
  nullable: Record<string, string>,
): Partial<OwnedRecordFilter> {
  const nullColumns: string[] = [];
  const setColumns: string[] = [];
  for (const [wire, column] of Object.entries(nullable)) {
    const v = q[`${wire}_is_null`];
    if (v === true) nullColumns.push(column);
    else if (v === false) setColumns.push(column);
  }
  const visibility = q.visibility as string | undefined;
  const out: Partial<OwnedRecordFilter> = {};
  if (typeof q.owner_id === 'string') out.ownerId = q.owner_id;
  if (visibility === 'public' || visibility === 'private') {
    if (typeof q.public === 'boolean' && q.public !== (visibility === 'public')) {
      throw validationError('visibility', `contradicts public=${q.public ? 'true' : 'false'}`);
    }
    out.public = visibility === 'public';
  }
  if ((q.affiliation as string[] | undefined)?.includes('owner')) out.ownedByCaller = true;
  const times: [keyof OwnedRecordFilter & `${string}${'From' | 'To'}`, string][] = [
    ['createdFrom', 'creation_time_gte'],
    ['createdTo', 'creation_time_lte'],
    ['modifiedFrom', 'modification_time_gte'],
    ['modifiedTo', 'modification_time_lte'],
  ];
  // only the keys given: an absent filter key keeps the list's tallied totals (docs/scale.md)
  for (const [key, wire] of times) {
    const d = queryTime(wire, q[wire]);
    if (d) out[key] = d;
  }
  if (nullColumns.length) out.nullColumns = nullColumns;
  if (setColumns.length) out.setColumns = setColumns;
  return out;
}
