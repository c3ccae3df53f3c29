import { ArgsType, Field, Int } from 'type-graphql';
import { Min } from 'class-validator';
import type { RequestContext } from '../context';
import { validationError } from '../errors';
import type { OffsetPage } from '../db/page';
import { pageInfo } from './connection';
import { cursorBody, encodeCursor } from '../cursor';

@ArgsType()
export class OffsetPageArgs {
  @Field(() => Int, { nullable: true, description: 'Page size (default 100, at most 1000).' })
  @Min(1)
  first?: number;

  @Field(() => String, { nullable: true, description: 'The endCursor of the previous page.' })
  after?: string;
}

/** These admin lists have integer keys: their cursors encode an offset. */
export function offsetOf(ctx: RequestContext, args: OffsetPageArgs): { limit: number; offset: number } {
  const limit = args.first ?? ctx.config.limits.defaultPageSize;
  if (limit > ctx.config.limits.maxPageSize)
    throw validationError('first', `must be at most ${ctx.config.limits.maxPageSize}`);
  if (!args.after) return { limit, offset: 0 };
  const body = cursorBody('o', args.after, 100);
  if (body === null || !/^\d{1,12}$/.test(body))
    throw validationError('after', 'is not a cursor this server issued');
  return { limit, offset: Number(body) };
}

export function offsetConnection<T extends object, C extends object>(
  ConnectionClass: new () => C,
  page: OffsetPage<T>,
  offset: number,
): C {
  const edges = page.items.map((node, i) => ({
    cursor: encodeCursor('o', String(offset + i + 1)),
    node,
  }));
  return Object.assign(new ConnectionClass(), {
    edges,
    nodes: page.items,
    pageInfo: pageInfo(edges, offset + page.items.length < page.total),
    counter: () => Promise.resolve(page.total),
  });
}
