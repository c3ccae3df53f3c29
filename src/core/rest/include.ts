import { QBool } from './schema';

/** The `include_*` flags of a legacy single read or list. */
export interface IncludeFlags {
  include_owner?: boolean;
  include_metadata?: boolean;
  include_links?: boolean;
  include_datasets?: boolean;
}

/** The query parameters of the `include_*` flags. */
export const INCLUDE_QUERY = {
  include_owner: QBool('add `owner` (the public-safe owner); default true on single reads, false in lists'),
  include_metadata: QBool('add `scientific_metadata` (null when none)', false),
  include_links: QBool('add `links`', false),
};

/**
 * `out` with `scientific_metadata` added when `include_metadata` asks for it and `document`
 * (the record's document for this caller, undefined when they may not see it) gives one.
 */
export async function withMetadata(
  q: IncludeFlags,
  out: Record<string, unknown>,
  document: () => Promise<unknown>,
): Promise<Record<string, unknown>> {
  if (!q.include_metadata) return out;
  const doc = await document();
  if (doc !== undefined) out.scientific_metadata = doc;
  return out;
}
