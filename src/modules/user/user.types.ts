import { Field, InputType, ObjectType } from 'type-graphql';
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
