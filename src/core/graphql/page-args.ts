import { ArgsType, ArgumentValidationError, Field, Int } from 'type-graphql';
import { Min, validateOrReject, type ValidationError } from 'class-validator';
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

/** At most this many argument values are remembered as valid (the cursor is the caller's text). */
const VALID_MAX = 512;
const valid = new Set<string>();

/**
 * `args` validated as type-graphql validates `@Args()` (class-validator, the same error), once per
 * value for the process: for a page field resolved once per node of a list (`Dataset.files`),
 * which declares its `@Args({ validate: false })` and awaits this instead of a validation per
 * node. A value seen valid before answers undefined at once (no promise to wait for); else the
 * validation runs once per request and value, and a valid value is remembered (the oldest of
 * more than VALID_MAX is forgotten). Refused values are never remembered.
 */
export function validatedOnce(ctx: RequestContext, args: PageArgs): Promise<void> | undefined {
  const key = `${String(args.first)}:${String(args.after)}`;
  if (valid.has(key)) return undefined;
  return ctx.memo(`page-args:${key}`, async () => {
    try {
      // as type-graphql runs it under the schema's settings (schema.ts)
      await validateOrReject(Object.assign(new PageArgs(), args), {
        skipMissingProperties: true,
        forbidUnknownValues: false,
      });
    } catch (errors) {
      throw new ArgumentValidationError(errors as ValidationError[]);
    }
    if (valid.size >= VALID_MAX) valid.delete(valid.values().next().value as string);
    valid.add(key);
  });
}
