import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { IsEmail, IsOptional, MaxLength } from 'class-validator';
import { User } from './user.entity';

@InputType({ description: 'Changes to your own profile.' })
export class ProfileInput {
  @Field(() => String, {
    nullable: true,
    description: 'Username (letters, digits, ".", "_", "-"); null clears it.',
  })
  @IsOptional()
  @MaxLength(64)
  username?: string | null;

  @Field(() => String, { nullable: true, description: 'Email address.' })
  @IsOptional()
  @IsEmail()
  email?: string | null;

  @Field(() => String, { nullable: true, description: 'Given name.' })
  @IsOptional()
  @MaxLength(200)
  firstName?: string | null;

  @Field(() => String, { nullable: true, description: 'Family name.' })
  @IsOptional()
  @MaxLength(200)
  lastName?: string | null;
}

@ObjectType({ description: 'A service account with a newly issued API key (shown once).' })
export class IssuedServiceAccount {
  @Field(() => User, { description: 'The service account.' })
  user!: User;

  @Field({ description: 'The API key secret. It is not stored and cannot be shown again.' })
  apiKey!: string;
}

@ObjectType({ description: 'A page of accounts awaiting activation, the longest waiting first.' })
export class PendingUserPage {
  @Field(() => [User], { description: 'The accounts of this page.' })
  items!: User[];

  @Field(() => Int, { description: 'How many accounts await activation in all.' })
  total!: number;
}
