import { Arg, Ctx, Field, FieldResolver, Mutation, ObjectType, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../../core/context';
import { Instrument } from '../instrument/instrument.entity';
import { User } from '../user/user.entity';
import { allows } from '../permission/permission';
import { PermissionLevelEnum } from './access.types';
import type { InstrumentOperator } from './instrument-operator.service';

@ObjectType({
  description:
    'A service account bound to an instrument (its operator): it holds contributor on the datasets recorded with the instrument.',
})
export class InstrumentServiceAccount {
  @Field(() => User, { description: 'The service account, public-safe.' })
  user!: User;

  @Field(() => PermissionLevelEnum, { description: 'Its permission on the instrument (a binding: editor).' })
  role!: PermissionLevelEnum;
}

function toOperators(operators: InstrumentOperator[]): InstrumentServiceAccount[] {
  return operators.map((o) => ({ user: o.user, role: o.role as PermissionLevelEnum }));
}

const INSTRUMENT = { description: 'The instrument MFID or slug.' };
const ACCOUNT = { description: 'The service account: MFID, username or email.' };

/**
 * The service accounts of an instrument in GraphQL, by the rules of the REST routes
 * (`InstrumentOperatorService`, docs/access-control.md §5a): all three need admin on the
 * instrument.
 */
@Resolver(() => Instrument)
export class InstrumentOperatorResolver {
  @FieldResolver(() => [InstrumentServiceAccount], {
    nullable: true,
    description:
      'The service accounts bound to the instrument, with their role; null unless you may manage the instrument (admin on it).',
  })
  async serviceAccounts(
    @Root() instrument: Instrument,
    @Ctx() ctx: RequestContext,
  ): Promise<InstrumentServiceAccount[] | null> {
    if (!allows(await ctx.services.instrument.policy.permission(ctx, instrument), 'manage')) return null;
    return toOperators(await ctx.services.instrumentOperator.list(ctx, instrument.uniqueId));
  }

  @Mutation(() => [InstrumentServiceAccount], {
    description:
      'Binds a service account to an instrument as its operator (editor on the instrument, contributor on its datasets); needs admin on the instrument. A person is BAD_USER_INPUT. Answers the bound accounts.',
  })
  async bindInstrumentServiceAccount(
    @Arg('id', () => String, INSTRUMENT) id: string,
    @Arg('serviceAccount', () => String, ACCOUNT) account: string,
    @Ctx() ctx: RequestContext,
  ): Promise<InstrumentServiceAccount[]> {
    return toOperators(await ctx.services.instrumentOperator.bind(ctx, id, account));
  }

  @Mutation(() => [InstrumentServiceAccount], {
    description:
      'Unbinds a service account from an instrument (removes its grant there, and with it its access to the datasets recorded with the instrument); needs admin on the instrument; NOT_FOUND when it held none. Answers the bound accounts.',
  })
  async unbindInstrumentServiceAccount(
    @Arg('id', () => String, INSTRUMENT) id: string,
    @Arg('serviceAccount', () => String, ACCOUNT) account: string,
    @Ctx() ctx: RequestContext,
  ): Promise<InstrumentServiceAccount[]> {
    return toOperators(await ctx.services.instrumentOperator.unbind(ctx, id, account));
  }
}
