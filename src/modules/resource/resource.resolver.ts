import { Arg, Ctx, ID, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../../core/context';
import { ResourceTypeEnum, ResourceUnion } from './resource.types';

@Resolver()
export class ResourceResolver {
  @Query(() => ResourceUnion, {
    description:
      'Any resource by MFID, its type detected (NOT_FOUND when it does not exist or you may not read it). Projects also by slug.',
  })
  async resource(
    @Arg('id', () => ID, { description: 'The MFID.' }) id: string,
    @Arg('type', () => ResourceTypeEnum, { nullable: true, description: 'Insist on this type.' })
    type: ResourceTypeEnum | undefined,
    @Ctx() ctx: RequestContext,
  ) {
    const r = await ctx.services.resource.find(ctx, id, type);
    ctx.canonical.add(r.record);
    return r.record;
  }

  @Query(() => ResourceTypeEnum, { description: 'The type of the resource with this MFID.' })
  async resourceType(
    @Arg('id', () => ID, { description: 'The MFID.' }) id: string,
    @Ctx() ctx: RequestContext,
  ) {
    return (await ctx.services.resource.find(ctx, id)).type;
  }
}
