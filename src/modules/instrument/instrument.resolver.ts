import { Arg, Args, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../../core/context';
import { PageArgs, pageOf } from '../../core/graphql/page-args';
import { toConnection } from '../../core/graphql/connect';
import { User } from '../user/user.entity';
import { Instrument, type InstrumentStatus } from './instrument.entity';
import {
  CreateInstrumentInput,
  InstrumentCapabilities,
  InstrumentConnection,
  InstrumentStatusEnum,
  UpdateInstrumentInput,
} from './instrument.types';
import { nodeType } from '../../core/graphql/node';
import { isMfid } from '../../core/ids';

@Resolver(() => Instrument)
export class InstrumentResolver {
  @Query(() => Instrument, { description: 'One instrument, by MFID, slug or exact name.' })
  async instrument(
    @Arg('id', { description: 'MFID, slug or name.' }) id: string,
    @Ctx() ctx: RequestContext,
  ) {
    const instrument = await ctx.services.instrument.get(ctx, id);
    ctx.canonical.add(instrument);
    return instrument;
  }

  @Query(() => InstrumentConnection, { description: 'Instruments, newest first.' })
  instruments(
    @Args() args: PageArgs,
    @Arg('instrumentName', () => String, { nullable: true, description: 'Exact name.' })
    instrumentName: string | undefined,
    @Arg('status', () => [InstrumentStatusEnum], {
      nullable: true,
      description: 'Only instruments in one of these statuses (absent: every status).',
    })
    status: InstrumentStatus[] | undefined,
    @Ctx() ctx: RequestContext,
  ) {
    const filter = { instrumentName: instrumentName ?? undefined, status: status ?? undefined };
    const request = pageOf(ctx, args);
    return toConnection(
      InstrumentConnection,
      () => ctx.services.instrument.page(ctx, filter, request),
      () => ctx.services.instrument.count(ctx, filter),
    );
  }

  @Mutation(() => Instrument, { description: 'Registers an instrument (platform administrators).' })
  createInstrument(
    @Arg('input', { description: 'The new record.' }) input: CreateInstrumentInput,
    @Ctx() ctx: RequestContext,
  ) {
    return ctx.services.instrument.create(ctx, input);
  }

  @Mutation(() => Instrument, { description: 'Changes fields of an instrument.' })
  updateInstrument(
    @Arg('id', { description: 'MFID, slug or name.' }) id: string,
    @Arg('input', { description: 'The changes.' }) input: UpdateInstrumentInput,
    @Ctx() ctx: RequestContext,
  ) {
    return ctx.services.instrument.update(ctx, id, input);
  }

  @Mutation(() => Instrument, {
    description: "Changes an instrument's lifecycle status (whoever may change its fields).",
  })
  setInstrumentStatus(
    @Arg('id', { description: 'MFID, slug or name.' }) id: string,
    @Arg('status', () => InstrumentStatusEnum, { description: 'The new status.' }) status: InstrumentStatus,
    @Ctx() ctx: RequestContext,
  ) {
    return ctx.services.instrument.setStatus(ctx, id, status);
  }

  @FieldResolver(() => User, { description: 'The owner (operator), public-safe.' })
  owner(@Root() instrument: Instrument, @Ctx() ctx: RequestContext) {
    return ctx.loaders.user.load(instrument.owner.uniqueId);
  }

  @FieldResolver(() => String, { description: 'The canonical owner identifier.' })
  ownerOrcid(@Root() instrument: Instrument): string {
    return instrument.owner.uniqueId;
  }

  @FieldResolver(() => InstrumentCapabilities, {
    nullable: true,
    description: 'What you may do with it; null in collections (not calculated).',
  })
  capabilities(@Root() instrument: Instrument, @Ctx() ctx: RequestContext) {
    return ctx.canonical.has(instrument)
      ? ctx.services.instrument.policy.capabilities(ctx, instrument)
      : null;
  }
}

/** Instruments as `Node`s: fetched again by global id, as their single-record reads see them. */
export const INSTRUMENT_NODE = nodeType<Instrument>(
  'Instrument',
  isMfid,
  (i) => i.uniqueId,
  (ctx, keys) => ctx.services.instrument.byIds(ctx, keys),
);
