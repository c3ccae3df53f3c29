import { ArgsType, Field, Int } from 'type-graphql';
import { Min } from 'class-validator';
import type { RequestContext } from '../context';
import { validationError } from '../errors';
import { decodeCursor } from '../pagination';

@ArgsType()
export class PageArgs {
  @Field(() => Int, {
    nullable: true,
    description: 'Page size (default 100, at most the server maximum, 1000).',
  })
  @Min(1)
  first?: number;

  @Field(() => String, { nullable: true, description: 'The endCursor of the previous page.' })
  after?: string;
}

/** The page size and decoded cursor of a connection request. */
export function pageOf(ctx: RequestContext, args: PageArgs): { limit: number; cursor?: string } {
  const max = ctx.config.limits.maxPageSize;
  const limit = args.first ?? ctx.config.limits.defaultPageSize;
  if (limit > max) throw validationError('first', `must be at most ${max}`);
  return { limit, cursor: decodeCursor(args.after, 'after') };
}
