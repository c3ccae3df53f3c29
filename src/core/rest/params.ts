import { validationError } from '../errors';

/** A JSON request body that must be an object (an absent body is an empty one). */
export function bodyObject(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null || body === '') return {};
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw validationError('body', 'must be a JSON object');
  }
  return body as Record<string, unknown>;
}

/** `limit` clamped to the server's maximum page size (clients ask for up to 1000), the default when absent. */
export function limitOf(
  q: { limit?: number },
  limits: { defaultPageSize: number; maxPageSize: number },
): number {
  return Math.min(q.limit ?? limits.defaultPageSize, limits.maxPageSize);
}

/** `limit` and `offset` of an offset-paginated list, as the `OFFSET_PAGE` query schema decodes them. */
export function pageOf(
  q: { limit?: number; offset?: number },
  limits: { defaultPageSize: number; maxPageSize: number },
): { limit: number; offset: number } {
  return { limit: limitOf(q, limits), offset: q.offset ?? 0 };
}

/** The sort of a list from `sort` and `direction` (null: the list's own order); direction alone is a 422. */
export function sortOf<T extends string>(q: {
  sort?: T;
  direction?: 'asc' | 'desc';
}): { sort: T; direction: 'asc' | 'desc' } | null {
  if (q.sort === undefined) {
    if (q.direction !== undefined) throw validationError('direction', 'needs sort: give sort as well');
    return null;
  }
  return { sort: q.sort, direction: q.direction ?? 'asc' };
}

/**
 * `anchor_mfid` of a sorted record list (the 3.2 client's sibling windows): the page starts at
 * that record, included, and `next_cursor` continues it. Only with `sort`, never with `cursor`
 * (422 otherwise); what the MFID must name is checked by the list (`columnAnchor`).
 */
export function anchorOf(q: { anchor_mfid?: string; cursor?: string }, sorted: boolean): string | undefined {
  if (q.anchor_mfid === undefined) return undefined;
  if (!sorted)
    throw validationError('anchor_mfid', 'needs sort: a window starts at a record of a sorted list');
  if (q.cursor !== undefined && q.cursor !== '')
    throw validationError(
      'anchor_mfid',
      'not with cursor: the window starts at the anchor, next_cursor continues it',
    );
  return q.anchor_mfid;
}
