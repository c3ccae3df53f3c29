import { Extensions, Field, ObjectType } from 'type-graphql';
import { listCap } from '../../core/graphql/limits';
import { Node } from '../../core/graphql/node';
import { USER_MAX_PROJECTS } from '../project/project-member.service';
import { User } from '../user/user.entity';
import { ProjectMembership } from '../project/project.types';

@ObjectType({
  implements: Node,
  description:
    'An API key of yours: the one a request was authenticated with, or one `node` fetches (never the secret).',
})
export class ApiKeyInfo {
  @Field({ description: 'The key id.' })
  uniqueId!: string;

  @Field({ description: 'The first characters of the secret, to tell keys apart.' })
  prefix!: string;

  @Field(() => String, { nullable: true, description: 'A label given at issue.' })
  label!: string | null;

  @Field({ description: 'When the key was issued.' })
  createdAt!: Date;

  @Field(() => Date, { nullable: true, description: 'When the key expires; null if never.' })
  expiresAt!: Date | null;

  @Field(() => String, { description: 'active, expired or revoked.' })
  status!: string;

  @Field(() => Date, { nullable: true, description: 'When the key was revoked; null if it was not.' })
  revokedAt!: Date | null;

  @Field(() => Date, {
    nullable: true,
    description: 'When the key was last used (to within five minutes); null if never or not known.',
  })
  lastUsedAt!: Date | null;

  @Field(() => String, { nullable: true, description: "The key holder's id; null where not shown." })
  userId!: string | null;
}

@ObjectType({ description: 'A key you just created, with its secret: shown only here, never again.' })
export class IssuedApiKey {
  @Field(() => ApiKeyInfo, { description: 'The key (as listings show it).' })
  apiKey!: ApiKeyInfo;

  @Field({ description: 'The secret to send as `Authorization: Bearer`. It is not stored.' })
  secret!: string;
}

@ObjectType('AccountCapabilities', {
  description: 'What the caller may create, from the platform role they act with.',
})
export class AccountCapabilitiesInfo {
  @Field({ description: 'Administer service accounts.' })
  canManageServiceAccounts!: boolean;
  @Field({ description: 'Administer users (platform roles, keys).' })
  canManageUsers!: boolean;
  @Field({ description: 'Create projects.' })
  canCreateProject!: boolean;
  @Field({ description: 'Register instruments.' })
  canRegisterInstrument!: boolean;
  @Field({ description: 'Create samples.' })
  canCreateSample!: boolean;
  @Field({ description: 'Create datasets.' })
  canCreateDataset!: boolean;
  @Field({ description: 'Create records owned by another user.' })
  canCreateForOthers!: boolean;
}

@ObjectType({ description: 'Who you are: the full authentication context of the current API key.' })
export class Viewer {
  @Field(() => User, { description: 'Your user record.' })
  user!: User;

  @Field({ description: 'Your canonical id: the ORCID, or the MFID of a service account.' })
  orcid!: string;

  @Field({
    description:
      'Whether you act as a platform administrator on this request (false in normal privilege mode).',
  })
  isPlatformAdmin!: boolean;

  @Field(() => String, { description: 'Your stored platform role: none, contributor or admin.' })
  platformRole!: string;

  @Field(() => String, {
    description:
      'The privilege mode of this request (header Crucible-Privilege-Mode): elevated when you act as a platform administrator, else normal.',
  })
  effectivePrivilegeMode!: string;

  @Field({ description: 'Whether you may act elevated (your platform role is admin).' })
  canElevate!: boolean;

  @Field(() => AccountCapabilitiesInfo, { description: 'What you may create on this request.' })
  capabilities!: AccountCapabilitiesInfo;

  @Field(() => [String], {
    description: 'Legacy access-group names: your id and the slugs of your projects.',
  })
  @Extensions(listCap({ items: USER_MAX_PROJECTS }))
  accessGroupIds!: string[];

  @Field(() => ApiKeyInfo, { description: 'The key this request used.' })
  apiKey!: ApiKeyInfo;

  @Field(() => [ProjectMembership], {
    description:
      'Your projects and your role in each (a user belongs to at most 1000 projects besides those they lead).',
  })
  @Extensions(listCap({ items: USER_MAX_PROJECTS }))
  projects!: ProjectMembership[];
}
