import { Field, ID, Int, ObjectType } from 'type-graphql';
import { User } from '../user/user.entity';
import { ProjectRef } from '../project/project.types';
import { LinkedResource } from '../link/link.types';
import { PermissionLevelEnum } from '../access/access.types';
import { ResourceUnion } from '../resource/resource.types';

@ObjectType({ description: "How one user's permission on the record changes." })
export class AccessChangeType {
  @Field(() => User, { description: 'The user, public-safe.' })
  user!: User;

  @Field(() => PermissionLevelEnum, {
    nullable: true,
    description: 'Their permission now (null: no access).',
  })
  before!: PermissionLevelEnum | null;

  @Field(() => PermissionLevelEnum, { nullable: true, description: 'Their permission after the change.' })
  after!: PermissionLevelEnum | null;
}

@ObjectType({ description: 'A grant the change affects.' })
export class AffectedGrantType {
  @Field({ description: 'user, project or group.' })
  principalType!: string;

  @Field({ description: 'The user id, project MFID or group name.' })
  principalId!: string;

  @Field({ description: 'The permission granted.' })
  permission!: string;

  @Field({ description: 'removed or kept.' })
  effect!: string;

  @Field({ description: 'Why.' })
  reason!: string;
}

@ObjectType({ description: 'Records related to the one that changes.' })
export class RelatedRecordsType {
  @Field(() => [LinkedResource], { description: 'Linked datasets and samples you may read.' })
  links!: LinkedResource[];

  @Field(() => Int, { nullable: true, description: 'Datasets: how many files it has.' })
  files!: number | null;

  @Field(() => Int, { nullable: true, description: 'Projects: how many datasets are assigned to it.' })
  datasets!: number | null;

  @Field(() => Int, { nullable: true, description: 'Projects: how many samples are assigned to it.' })
  samples!: number | null;
}

@ObjectType({
  description:
    'The exact effect of an ownership transfer or project reassignment: a preview (nothing changed) or the change applied.',
})
export class ChangePreviewType {
  @Field({ description: 'transfer_ownership or reassign_project.' })
  action!: string;

  @Field({ description: 'false: a preview, nothing changed; true: the change was applied.' })
  applied!: boolean;

  @Field(() => ID, { description: 'The MFID of the record.' })
  resourceId!: string;

  @Field(() => ResourceUnion, { description: 'The record (as changed, when applied).' })
  resource!: object;

  @Field(() => User, { nullable: true, description: 'Transfers: the owner now.' })
  currentOwner!: User | null;

  @Field(() => User, { nullable: true, description: 'Transfers: the new owner.' })
  newOwner!: User | null;

  @Field(() => ProjectRef, { nullable: true, description: 'Reassignments: the project now (null: none).' })
  currentProject!: ProjectRef | null;

  @Field(() => ProjectRef, { nullable: true, description: 'Reassignments: the new project.' })
  newProject!: ProjectRef | null;

  @Field(() => [AccessChangeType], { description: 'Who gains access (or more of it).' })
  gains!: AccessChangeType[];

  @Field(() => [AccessChangeType], { description: 'Who loses access (or some of it).' })
  losses!: AccessChangeType[];

  @Field(() => [AffectedGrantType], { description: 'Grants the change affects.' })
  grantsAffected!: AffectedGrantType[];

  @Field(() => RelatedRecordsType, { description: 'Related records.' })
  related!: RelatedRecordsType;

  @Field({
    description:
      'Pass it back with confirm: the confirm fails (CONFLICT) if anything the preview depended on changed.',
  })
  token!: string;
}
