import type DataLoader from 'dataloader';
import { Ctx, FieldResolver, Resolver, Root, type ClassType } from 'type-graphql';
import type { RequestContext } from '../../core/context';
import { User } from '../user/user.entity';
import { ProjectRef } from '../project/project.types';
import {
  fromRow,
  type OwnedRecordInclude,
  type OwnedRecordRow,
  type OwnerRow,
  type RowKey,
} from './owned-record-row';

/**
 * The field resolvers datasets and samples share (owner and project), as a base class for the
 * resolver of `objectType`, whose nodes are rows: a relation the row's read left out comes from
 * the kind's row loader (`rows`). A factory: type-graphql binds an inherited field resolver to
 * the first resolver class that extends its base.
 */
export function ownedRecordResolver<R extends OwnedRecordRow, I extends OwnedRecordInclude>(
  objectType: ClassType,
  rows: (ctx: RequestContext) => DataLoader<RowKey<I>, R | null, string>,
) {
  @Resolver(() => objectType)
  abstract class OwnedRecordResolver {
    @FieldResolver(() => String, { description: 'The canonical owner identifier (ORCID or MFID).' })
    ownerOrcid(@Root() record: R): string {
      return record.ownerId;
    }

    @FieldResolver(() => User, { nullable: true, description: 'The owner, public-safe.' })
    owner(@Root() record: R, @Ctx() ctx: RequestContext): OwnerRow | null | Promise<OwnerRow | null> {
      return fromRow(record, 'owner', rows(ctx), (r) => r.owner ?? null);
    }

    @FieldResolver(() => ProjectRef, {
      nullable: true,
      description: 'The project it is assigned to, if any.',
    })
    project(@Root() record: R, @Ctx() ctx: RequestContext): ProjectRef | null | Promise<ProjectRef | null> {
      return fromRow(record, 'project', rows(ctx), (r) => r.project ?? null);
    }
  }
  return OwnedRecordResolver;
}
