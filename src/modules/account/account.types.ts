import { Extensions, Field, ObjectType } from 'type-graphql';
import { listCap } from '../../core/graphql/limits';
import { USER_MAX_PROJECTS } from '../project/project-member.service';
import { User } from '../user/user.entity';
import { ProjectMembership } from '../project/project.types';

@ObjectType({ description: 'The API key this request was authenticated with (never the secret).' })
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
}

@ObjectType({ description: 'Who you are: the full authentication context of the current API key.' })
export class Viewer {
  @Field(() => User, { description: 'Your user record.' })
  user!: User;

  @Field({ description: 'Your canonical id: the ORCID, or the MFID of a service account.' })
  orcid!: string;

  @Field({ description: 'Whether you are a platform administrator.' })
  isPlatformAdmin!: boolean;

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
