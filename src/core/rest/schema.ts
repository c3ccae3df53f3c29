import { Type, type SchemaOptions, type TSchema, type TUnsafe } from '@sinclair/typebox';

/**
 * Schema builders for the REST shim's inputs and outputs. Every schema is plain JSON Schema
 * (2020-12, what OpenAPI 3.1 uses): the route helper validates with it and the OpenAPI document
 * prints it unchanged.
 */
export { Type } from '@sinclair/typebox';
export type { Static, TSchema, TObject, TProperties } from '@sinclair/typebox';

/** Marks the field a client may echo back from a record it read: accepted and dropped. */
export const ECHOED = 'x-echoed';
/** Messages for schema keywords (`{type: '…'}`) where clients know other words than the defaults. */
export const MESSAGES = 'x-messages';
/** The explanation for a field that is refused on this route (e.g. ownership on an update). */
export const REFUSED = 'x-refused';

/** A string or null (absent, null and a string are accepted; anything else is 422). */
export const NullableString = (opts: SchemaOptions = {}): TUnsafe<string | null> =>
  Type.Unsafe<string | null>({ ...opts, type: ['string', 'null'] });

/** A string that must be present and not empty. */
export const RequiredString = (opts: SchemaOptions = {}): TUnsafe<string> =>
  Type.Unsafe<string>({ ...opts, type: 'string', minLength: 1 });

/** Any JSON value, passed on to the service, which validates it (its rules are in the description). */
export const Checked = <T = unknown>(description: string, shape: Record<string, unknown> = {}): TUnsafe<T> =>
  Type.Unsafe<T>({ ...shape, description: `${description} (checked by the service)` });

/** Read-only fields clients echo back from a record they read: accepted and ignored. */
export function echoed(names: readonly string[]): Record<string, TSchema> {
  return Object.fromEntries(
    names.map((name) => [
      name,
      Type.Optional(Type.Unsafe({ readOnly: true, [ECHOED]: true, description: 'read-only: ignored' })),
    ]),
  );
}

/** Fields refused on this route, each with the reason (`not: {}` fails whatever is sent). */
export function refused(reasons: Record<string, string>): Record<string, TSchema> {
  return Object.fromEntries(
    Object.entries(reasons).map(([name, reason]) => [
      name,
      Type.Optional(Type.Unsafe<never>({ not: {}, [REFUSED]: reason, description: `refused: ${reason}` })),
    ]),
  );
}

/** A query flag: `true`/`false`, also Python's `True`/`False`, `1`/`0` and `yes`/`no`. */
export const QBool = (description: string, def?: boolean) =>
  Type.Optional(Type.Boolean(def === undefined ? { description } : { description, default: def }));

/**
 * The largest query integer unless a parameter declares its own maximum: PostgreSQL's and
 * GraphQL's `Int`, so `offset` has one bound on both transports (README "API overview",
 * docs/entity-graph.md §6a); an offset further on is no page of any list.
 */
export const MAX_QUERY_INT = 2 ** 31 - 1;

/** A query integer, between `minimum` and `maximum` (MAX_QUERY_INT unless given); outside, 422. */
export const QInt = (description: string, opts: { minimum: number; maximum?: number; default?: number }) =>
  Type.Optional(Type.Integer({ description, maximum: MAX_QUERY_INT, ...opts }));

/** A repeatable query parameter (`?x=a&x=b`); empty values are dropped. */
export const QList = (description: string) =>
  Type.Optional(Type.Array(Type.String(), { description, default: [] }));

/** A query string (the last one when repeated). */
export const QStr = (description: string, opts: SchemaOptions = {}) =>
  Type.Optional(Type.String({ description, ...opts }));

/** `limit` of a list: the server's default page size when absent, clamped to its maximum. */
export const LIMIT = QInt('page size (default DEFAULT_PAGE_SIZE, clamped to MAX_PAGE_SIZE)', { minimum: 1 });
export const OFFSET = QInt(`items to skip (at most ${MAX_QUERY_INT})`, { minimum: 0, default: 0 });
/** `limit` and `offset` of an offset-paginated list. */
export const OFFSET_PAGE = { limit: LIMIT, offset: OFFSET };

/** The REST error body (README "Errors"). */
export const ERROR_BODY = Type.Object(
  {
    detail: Type.String({ description: 'what went wrong' }),
    code: Type.String({ description: 'the error code, the same as GraphQL `extensions.code`' }),
    fields: Type.Optional(
      Type.Array(Type.Object({ field: Type.String(), message: Type.String() }), {
        description: 'the input fields at fault (validation errors)',
      }),
    ),
    request_id: Type.Optional(Type.String({ description: 'on internal errors: the id to quote' })),
  },
  { title: 'Error' },
);

/** `{detail}`: the message of a route that answers no record. */
export const MESSAGE = Type.Object({ detail: Type.String() }, { title: 'Message' });

/** The offset envelope `{items, total}`. */
export const offsetPage = (item: TSchema): TSchema =>
  Type.Object({ items: Type.Array(item), total: Type.Integer({ minimum: 0 }) });

/** The keyset envelope `{items, next_cursor, total}`, with `total_exact` where a total may be bounded. */
export const keysetPage = (item: TSchema, opts: { totalExact?: boolean } = {}): TSchema =>
  Type.Object({
    items: Type.Array(item),
    next_cursor: NullableString({ description: 'pass as `cursor` for the next page; null on the last' }),
    total: Type.Integer({
      minimum: 0,
      description: opts.totalExact
        ? 'how many records match; with `total_exact: false`, at least this many (TOTAL_COUNT_LIMIT)'
        : 'how many records match',
    }),
    ...(opts.totalExact
      ? {
          total_exact: Type.Boolean({
            description:
              'false when a full-text (`text`) or metadata search matches more than TOTAL_COUNT_LIMIT records: `total` is then that limit, a lower bound; always true for the other filters',
          }),
        }
      : {}),
  });

/** One of the given strings. */
export const Enum = <T extends string>(values: readonly T[], opts: SchemaOptions = {}): TUnsafe<T> =>
  Type.Unsafe<T>({ ...opts, type: 'string', enum: [...values] });

/** `direction` of a sorted list. */
export const DIRECTIONS = ['asc', 'desc'] as const;
export type Direction = (typeof DIRECTIONS)[number];

/**
 * `sort` (one of `values`) and `direction` of a list the 3.2 client sorts; `direction` without
 * `sort` is a 422 (`sortOf`).
 */
/** `anchor_mfid` of a sorted record list (`anchorOf`). */
export const ANCHOR_QUERY = {
  anchor_mfid: QStr(
    'start the sorted page at this record, included (a window around it; `direction` chooses the side); only with `sort`, not with `cursor`; 422 when the list does not hold it',
    { maxLength: 26 },
  ),
};

export const sortQuery = <T extends string>(values: readonly T[], defaults: string) => ({
  sort: Type.Optional(Enum(values, { description: `the sort key (absent: ${defaults})` })),
  direction: Type.Optional(
    Enum(DIRECTIONS, { description: 'asc or desc (default asc); only with `sort` (422 otherwise)' }),
  ),
});
