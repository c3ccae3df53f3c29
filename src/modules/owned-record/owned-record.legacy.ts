import type { RequestContext } from '../../core/context';
import { qBool, bodyObject, type Query } from '../../core/rest/params';
import { optionalBool, optionalString, pickFields, type Body } from '../../core/rest/body';
import { toLegacyFlags } from '../../core/rest/wire';
import { validationError } from '../../core/errors';
import { toPublicUser } from '../user/user.legacy';
import { toLegacyProjectRef } from '../project/project.legacy';
import { toLegacyLink } from '../link/link.legacy';
import { toLegacyDeletionRequest } from '../deletion/deletion.legacy';
import type { OwnedRecordEntity } from './owned-record.entity';
import { textKeys, type TextSpec, type TextValues } from './owned-record.fields';
import type { OwnedRecordCreate, OwnedRecordPatch } from './owned-record.service';

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
  capabilities?: object | null;
}

/** How one kind of owned record appears on the legacy wire. */
export interface RecordWire<K extends string> {
  type: 'dataset' | 'sample';
  /** its text fields, written under their wire names, in this order */
  text: TextSpec<K>;
}

/**
 * The legacy REST shape of a dataset or sample (reference §4, §12; spec 2.1): every key, null
 * where empty. `own` holds the keys only its kind has, placed after the project's; it is
 * computed alongside the shared parts, so its DataLoader calls batch with theirs.
 * `projectIdFallback` is the slug shown when the record has no project.
 */
export async function toLegacyRecord<K extends string>(
  ctx: RequestContext,
  record: OwnedRecordEntity<string> & Partial<Record<K, string | null>>,
  wire: RecordWire<K>,
  opts: LegacyRecordOptions & { projectIdFallback?: string | null },
  own: Promise<Record<string, unknown>>,
): Promise<Record<string, unknown>> {
  const [project, owner, extras, ownKeys] = await Promise.all([
    record.project ? ctx.loaders.project.load(record.project.uniqueId) : null,
    opts.includeOwner ? ctx.loaders.user.load(record.owner.uniqueId) : null,
    legacyExtras(ctx, record.uniqueId, opts),
    own,
  ]);
  const out: Record<string, unknown> = { unique_id: record.uniqueId };
  for (const key of textKeys(wire.text)) out[wire.text[key].wire] = record[key] ?? null;
  Object.assign(out, {
    public: record.public,
    owner_orcid: record.owner.uniqueId,
    project_id: project?.projectId ?? opts.projectIdFallback ?? null,
    project_mfid: project?.uniqueId ?? null,
    project: toLegacyProjectRef(project),
    ...ownKeys,
    creation_time: record.creationTime.toISOString(),
    modification_time: record.modificationTime.toISOString(),
    resource_type: wire.type,
    capabilities: opts.capabilities ? toLegacyFlags(opts.capabilities) : null,
  });
  if (opts.includeOwner) out.owner = owner ? toPublicUser(ctx, owner) : null;
  return Object.assign(out, extras);
}

/**
 * The optional keys of a dataset or sample record, loaded through the request's DataLoaders so
 * a whole page costs one statement per kind of key. Call only for records the caller may read.
 */
async function legacyExtras(
  ctx: RequestContext,
  uniqueId: string,
  opts: ExtrasOptions,
): Promise<Record<string, unknown>> {
  const [metadata, links, deletion] = await Promise.all([
    opts.includeMetadata ? ctx.loaders.metadata.load(uniqueId) : undefined,
    opts.includeLinks ? ctx.loaders.links.byResource.load(uniqueId) : undefined,
    opts.includeDeletion ? ctx.loaders.pendingDeletion.load(uniqueId) : undefined,
  ]);
  const out: Record<string, unknown> = {};
  if (opts.includeMetadata) out.scientific_metadata = metadata ?? null;
  if (opts.includeLinks) out.links = (links ?? []).map(toLegacyLink);
  if (opts.includeDeletion) out.deletion_request = deletion ? toLegacyDeletionRequest(deletion) : null;
  return out;
}

/** The `include_metadata` and `include_links` flags of a legacy read (both default false). */
function extrasFlags(q: Query): ExtrasOptions {
  return {
    includeMetadata: qBool(q, 'include_metadata', false),
    includeLinks: qBool(q, 'include_links', false),
  };
}

/** What collections return of each record: `include_*` flags default to false. */
export function itemOptions(q: Query): LegacyRecordOptions {
  return { includeOwner: qBool(q, 'include_owner', false), ...extrasFlags(q) };
}

/** What single reads return: the owner by default and the pending deletion request (add `capabilities`). */
export function detailOptions(q: Query): LegacyRecordOptions {
  return { includeOwner: qBool(q, 'include_owner', true), ...extrasFlags(q), includeDeletion: true };
}

/** The body fields every owned record takes on create, besides its text fields. */
const CREATE_FIELDS = [
  'unique_id',
  'public',
  'project_id',
  'project_mfid',
  'owner',
  'owner_orcid',
  'scientific_metadata',
];
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

function wireNames<K extends string>(text: TextSpec<K>): string[] {
  return textKeys(text).map((k) => text[k].wire);
}

function textFromBody<K extends string>(text: TextSpec<K>, body: Body): TextValues<K> {
  const out: TextValues<K> = {};
  for (const key of textKeys(text)) {
    const wire = text[key].wire;
    if (wire in body) out[key] = optionalString(body, wire);
  }
  return out;
}

/**
 * A legacy create body of an owned record with the text fields of `text`; `own.fields` are the
 * kind's own fields (parsed by the caller from the returned body), `own.ignore` the read-only
 * fields of its kind that clients echo back. Unknown fields are refused.
 */
export function parseRecordCreate<K extends string>(
  text: TextSpec<K>,
  raw: unknown,
  own: { fields?: string[]; ignore?: string[] } = {},
): { body: Body; input: OwnedRecordCreate<K> } {
  const body = pickFields(bodyObject(raw), [...wireNames(text), ...CREATE_FIELDS, ...(own.fields ?? [])], {
    ignore: [...ECHOED, ...(own.ignore ?? [])],
  });
  const input: OwnedRecordCreate<K> = {
    ...textFromBody(text, body),
    uniqueId: optionalString(body, 'unique_id'),
    public: optionalBool(body, 'public'),
    projectId: optionalString(body, 'project_id'),
    projectMfid: optionalString(body, 'project_mfid'),
    owner: optionalString(body, 'owner'),
    ownerOrcid: optionalString(body, 'owner_orcid'),
    scientificMetadata: body.scientific_metadata as OwnedRecordCreate<K>['scientificMetadata'],
  };
  return { body, input };
}

/**
 * A legacy update body of an owned record: its text fields and `public` (never null), plus the
 * kind's `ownFields` (parsed by the caller from the returned body). Project and owner fields are
 * refused with the workflow that changes them.
 */
export function parseRecordPatch<K extends string>(
  text: TextSpec<K>,
  raw: unknown,
  ownFields: string[] = [],
): { body: Body; patch: OwnedRecordPatch<K> } {
  const body = pickFields(bodyObject(raw), [...wireNames(text), 'public', ...ownFields], {
    rejectWith: NOT_UPDATABLE,
  });
  const patch: OwnedRecordPatch<K> = textFromBody(text, body);
  if ('public' in body) {
    const value = optionalBool(body, 'public');
    if (value === undefined || body.public === null) throw validationError('public', 'must be true or false');
    patch.public = value;
  }
  return { body, patch };
}
