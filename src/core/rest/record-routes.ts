import type { Router } from 'express';
import type { RequestContext } from '../context';
import type { PageRequest } from '../db/page';
import { decodeCursor } from '../pagination';
import { handle, param } from './handler';
import { qLimit, qStr, type Query } from './params';

/** What the routes of a record collection call: one service method each. */
export interface RecordCollection<T, F, C, P, Page extends { items: T[]; nextCursor: string | null }> {
  list(ctx: RequestContext, filter: F, page: PageRequest): Promise<Page>;
  count(ctx: RequestContext, filter: F): Promise<number>;
  get(ctx: RequestContext, id: string): Promise<T>;
  create(ctx: RequestContext, input: C): Promise<T>;
  update(ctx: RequestContext, id: string, patch: P): Promise<T>;
  policy: { capabilities(ctx: RequestContext, record: T): Promise<object> };
}

/** A record collection on the legacy wire: its path, its service and its wire mapping. */
export interface RecordRoutes<T, F, C, P, Page extends { items: T[]; nextCursor: string | null }> {
  /** the collection, e.g. `/datasets`; single records live at `<path>/:id` */
  path: string;
  service(ctx: RequestContext): RecordCollection<T, F, C, P, Page>;
  parseFilter(q: Query): F;
  parseCreate(body: unknown): C;
  parsePatch(body: unknown): P;
  /** the records of a list page */
  items(ctx: RequestContext, page: Page, q: Query): Promise<unknown[]>;
  /** a record as single reads return it */
  detail(ctx: RequestContext, record: T, q: Query): Promise<unknown>;
  /** a record as creates and updates return it, with its capabilities */
  written(ctx: RequestContext, record: T, capabilities: object): Promise<unknown>;
}

/**
 * The routes of a record collection: `GET <path>` (a keyset page `{items, next_cursor, total}`),
 * `POST <path>` (201), `GET <path>/:id` and `PATCH <path>/:id`.
 */
export function recordRoutes<T, F, C, P, Page extends { items: T[]; nextCursor: string | null }>(
  router: Router,
  def: RecordRoutes<T, F, C, P, Page>,
): void {
  router.get(
    def.path,
    handle(async (ctx, req) => {
      const records = def.service(ctx);
      const filter = def.parseFilter(req.query);
      const limit = qLimit(req.query, ctx.config.limits.defaultPageSize, ctx.config.limits.maxPageSize);
      const page = await records.list(ctx, filter, {
        limit,
        cursor: decodeCursor(qStr(req.query, 'cursor')),
      });
      const [items, total] = await Promise.all([def.items(ctx, page, req.query), records.count(ctx, filter)]);
      return { items, next_cursor: page.nextCursor, total };
    }),
  );
  router.post(
    def.path,
    handle(async (ctx, req) => {
      const records = def.service(ctx);
      const record = await records.create(ctx, def.parseCreate(req.body));
      return def.written(ctx, record, await records.policy.capabilities(ctx, record));
    }, 201),
  );
  router.get(
    `${def.path}/:id`,
    handle(async (ctx, req) => def.detail(ctx, await def.service(ctx).get(ctx, param(req, 'id')), req.query)),
  );
  router.patch(
    `${def.path}/:id`,
    handle(async (ctx, req) => {
      const records = def.service(ctx);
      const record = await records.update(ctx, param(req, 'id'), def.parsePatch(req.body));
      return def.written(ctx, record, await records.policy.capabilities(ctx, record));
    }),
  );
}
