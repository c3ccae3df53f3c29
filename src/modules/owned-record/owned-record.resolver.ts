import { Ctx, FieldResolver, Resolver, Root, type ClassType } from 'type-graphql';
import type { RequestContext } from '../../core/context';
import { User } from '../user/user.entity';
import { ProjectRef, toProjectRef } from '../project/project.types';
import type { OwnedRecordEntity } from './owned-record.entity';

/**
 * The field resolvers datasets and samples share (owner and project, through the request's
 * DataLoaders), as a base class for the resolver of `objectType`. A factory: type-graphql binds
 * an inherited field resolver to the first resolver class that extends its base.
 */
export function ownedRecordResolver<T extends OwnedRecordEntity<string>>(objectType: ClassType<T>) {
  @Resolver(() => objectType)
  abstract class OwnedRecordResolver {
    @FieldResolver(() => String, { description: 'The canonical owner identifier (ORCID or MFID).' })
    ownerOrcid(@Root() record: T): string {
      return record.owner.uniqueId;
    }

    @FieldResolver(() => User, { nullable: true, description: 'The owner, public-safe.' })
    owner(@Root() record: T, @Ctx() ctx: RequestContext) {
      return ctx.loaders.user.load(record.owner.uniqueId);
    }

    @FieldResolver(() => ProjectRef, {
      nullable: true,
      description: 'The project it is assigned to, if any.',
    })
    async project(@Root() record: T, @Ctx() ctx: RequestContext): Promise<ProjectRef | null> {
      const p = record.project ? await ctx.loaders.project.load(record.project.uniqueId) : null;
      return toProjectRef(p);
    }
  }
  return OwnedRecordResolver;
}
