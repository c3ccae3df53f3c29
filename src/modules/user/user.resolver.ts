import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../../core/context';
import { User } from './user.entity';

@Resolver(() => User)
export class UserResolver {
  @FieldResolver(() => String, {
    nullable: true,
    description: 'Email address: only on your own record, or for platform administrators.',
  })
  email(@Root() user: User, @Ctx() ctx: RequestContext): string | null {
    return ctx.services.user.policy.canSeeEmail(ctx, user) ? (user.email ?? null) : null;
  }
}
