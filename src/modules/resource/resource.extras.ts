import type { RequestContext } from '../../core/context';
import { qBool, type Query } from '../../core/rest/params';
import { toLegacyLink } from '../link/link.legacy';
import { toLegacyDeletionRequest } from '../deletion/deletion.legacy';
import type { MetadataService } from '../metadata/metadata.service';
import type { AnyResource } from './resource.service';

/** Optional parts of a dataset or sample record on the legacy wire. */
export interface ExtrasOptions {
  /** `scientific_metadata`: the plain document (null when none) */
  includeMetadata?: boolean;
  /** `links`: link objects (spec 2.5) */
  includeLinks?: boolean;
  /** `deletion_request`: the pending request, or null (single reads) */
  includeDeletion?: boolean;
}

/**
 * The optional keys of a dataset or sample record, loaded through the request's DataLoaders so
 * a whole page costs one statement per kind of key. Call only for records the caller may read.
 */
export async function legacyExtras(
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
export function extrasFlags(q: Query): ExtrasOptions {
  return {
    includeMetadata: qBool(q, 'include_metadata', false),
    includeLinks: qBool(q, 'include_links', false),
  };
}

/** Adds `scientific_metadata` when asked for and visible to the caller. */
export async function withMetadata(
  ctx: RequestContext,
  metadata: MetadataService,
  r: AnyResource,
  q: Query,
  out: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  if (!qBool(q, 'include_metadata', false)) return out;
  const doc = await metadata.documentFor(ctx, r);
  if (doc !== undefined) out.scientific_metadata = doc;
  return out;
}
