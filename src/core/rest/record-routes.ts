import type { RequestContext } from '../context';
import type { PageRequest, Total } from '../db/page';
import { decodeCursor } from '../pagination';
import { defineRoute, JsonText, type Route } from './route';
import {
  keysetPage,
  LIMIT,
  QInt,
  QStr,
  type Static,
  type TObject,
  type TProperties,
  type TSchema,
} from './schema';

/**
 * What the routes of a record collection call: one service method each. Reads and writes answer
 * with rows (`R`) read with an include set (`I`).
 */
export interface RecordCollection<R, F, C, P, I> {
  list(
    ctx: RequestContext,
    filter: F,
    page: PageRequest,
    include: I,
  ): Promise<{ items: R[]; nextCursor: string | null }>;
  total(ctx: RequestContext, filter: F): Promise<Total>;
  read(ctx: RequestContext, id: string, include: I): Promise<R>;
  create(ctx: RequestContext, input: C, include: I): Promise<R>;
  update(ctx: RequestContext, id: string, patch: P, include: I): Promise<R>;
}

/** A list page whose records are JSON text already. */
export interface JsonPage {
  /** each record's JSON */
  items: string[];
  nextCursor: string | null;
}

/**
 * A record collection on the legacy wire: its path, its service, its schemas and its wire
 * mapping from rows. `Q` is the list query (filters and `include_*` flags), `D` the single-read
 * query.
 */
export interface RecordRoutes<R, F, C, P, I, Q extends TProperties, D extends TProperties> {
  /** the collection, e.g. `/datasets`; single records live at `<path>/:id` */
  path: string;
  /** the singular noun for summaries (`dataset`) and the OpenAPI tag */
  noun: string;
  tag: string;
  /** the wire record (lists and single reads) */
  record: TSchema;
  listQuery: Q;
  detailQuery: D;
  createBody: TObject;
  patchBody: TObject;
  service(ctx: RequestContext): RecordCollection<R, F, C, P, I>;
  parseFilter(q: Static<TObject<Q>>): F;
  parseCreate(body: Record<string, unknown>): C;
  parsePatch(body: Record<string, unknown>): P;
  /** what list items, single reads and writes read of their rows */
  include: { list(q: Static<TObject<Q>>): I; detail(q: Static<TObject<D>>): I; written: I };
  /** the records of a list page */
  items(ctx: RequestContext, rows: R[], q: Static<TObject<Q>>): Promise<unknown[]>;
  /**
   * A list page as JSON text written by PostgreSQL from the same rows, byte for byte what
   * {@link items} gives (docs/performance.md, "REST lists"), or null for a query it does not
   * answer.
   */
  listJson?(
    ctx: RequestContext,
    filter: F,
    page: PageRequest,
    q: Static<TObject<Q>>,
  ): Promise<JsonPage> | null;
  /** parameters only the collection's own list takes (its sort), beside `listQuery` */
  sortQuery?: TProperties;
  /**
   * A sorted page when the query asks for one (`sort`), its `cursor` passed as issued (a sorted
   * list's cursor carries the sort key); null for the newest-first list.
   */
  sortedList?(
    ctx: RequestContext,
    filter: F,
    page: { limit: number; cursor?: string },
    q: Static<TObject<Q>>,
  ): Promise<{ items: R[]; nextCursor: string | null }> | null;
  /** a record as single reads return it */
  detail(ctx: RequestContext, row: R, q: Static<TObject<D>>): Promise<unknown>;
  /** a record as creates and updates return it, with its capabilities */
  written(ctx: RequestContext, row: R): Promise<unknown>;
}

/**
 * The routes of a record collection: `GET <path>` (a keyset page `{items, next_cursor, total}`),
 * `POST <path>` (201), `GET <path>/:id` and `PATCH <path>/:id`.
 */
export function recordRoutes<R, F, C, P, I, Q extends TProperties, D extends TProperties>(
  def: RecordRoutes<R, F, C, P, I, Q, D>,
): Route[] {
  const { path, noun, tag } = def;
  const id = { id: `the ${noun}'s MFID` };
  return [
    defineRoute(
      {
        method: 'get',
        path,
        tag,
        summary: `List ${noun}s (keyset pages)`,
        query: {
          ...def.listQuery,
          ...def.sortQuery,
          limit: LIMIT,
          cursor: QStr('`next_cursor` of the previous page'),
          // the 3.1 client sends `offset` when its caller passes one, and warns that it is ignored
          offset: QInt('ignored: these lists page by `cursor` (the 3.1 client sends it and warns)', {
            minimum: 0,
          }),
        },
        response: keysetPage(def.record, { totalExact: true }),
      },
      async (ctx, { query }) => {
        const records = def.service(ctx);
        const q = query as unknown as Static<TObject<Q>> & { limit?: number; cursor?: string };
        const filter = def.parseFilter(q);
        const limits = ctx.config.limits;
        const limit = Math.min(q.limit ?? limits.defaultPageSize, limits.maxPageSize);
        const sorted = def.sortedList?.(ctx, filter, { limit, cursor: q.cursor }, q);
        if (sorted) {
          const [page, total] = await Promise.all([sorted, records.total(ctx, filter)]);
          const items = await def.items(ctx, page.items, q);
          return { items, next_cursor: page.nextCursor, total: total.count, total_exact: total.exact };
        }
        const request = { limit, cursor: decodeCursor(q.cursor) };
        const json = def.listJson?.(ctx, filter, request, q);
        if (json) {
          const [p, total] = await Promise.all([json, records.total(ctx, filter)]);
          const s = JSON.stringify;
          return new JsonText(
            `{"items":[${p.items.join(',')}],"next_cursor":${s(p.nextCursor)},"total":${s(total.count)},"total_exact":${s(total.exact)}}`,
          );
        }
        const [page, total] = await Promise.all([
          records.list(ctx, filter, request, def.include.list(q)),
          records.total(ctx, filter),
        ]);
        const items = await def.items(ctx, page.items, q);
        return { items, next_cursor: page.nextCursor, total: total.count, total_exact: total.exact };
      },
    ),
    defineRoute(
      {
        method: 'post',
        path,
        tag,
        summary: `Create a ${noun}`,
        body: def.createBody,
        status: 201,
        response: def.record,
      },
      async (ctx, { body }) => {
        const input = def.parseCreate(body as Record<string, unknown>);
        return def.written(ctx, await def.service(ctx).create(ctx, input, def.include.written));
      },
    ),
    defineRoute(
      {
        method: 'get',
        path: `${path}/:id`,
        tag,
        summary: `Read a ${noun}`,
        params: id,
        query: def.detailQuery,
        response: def.record,
      },
      async (ctx, { params, query }) =>
        def.detail(ctx, await def.service(ctx).read(ctx, params.id, def.include.detail(query)), query),
    ),
    defineRoute(
      {
        method: 'patch',
        path: `${path}/:id`,
        tag,
        summary: `Update a ${noun}`,
        params: id,
        body: def.patchBody,
        response: def.record,
      },
      async (ctx, { params, body }) => {
        const patch = def.parsePatch(body as Record<string, unknown>);
        return def.written(ctx, await def.service(ctx).update(ctx, params.id, patch, def.include.written));
      },
    ),
  ];
}
