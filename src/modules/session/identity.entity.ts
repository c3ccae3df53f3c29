import {
  Entity,
  Index,
  ManyToOne,
  OptionalProps,
  PrimaryKey,
  PrimaryKeyProp,
  Property,
  Unique,
  type Rel,
} from '@mikro-orm/core';
import { User } from '../user/user.entity';

/**
 * A person's account at an OpenID provider linked to their catalog account: the provider's
 * issuer and `sub` name it for good (docs/authentication.md, "Matching people to accounts").
 */
@Entity({ tableName: 'user_identity' })
@Unique({ properties: ['issuer', 'subject'] })
export class UserIdentity {
  [PrimaryKeyProp]?: 'uniqueId';
  [OptionalProps]?: 'linkedAt' | 'lastSignInAt';

  @PrimaryKey({ length: 36 })
  uniqueId!: string;

  @Property({ length: 500 })
  issuer!: string;

  @Property({ length: 255 })
  subject!: string;

  @Index()
  @ManyToOne(() => User, { fieldName: 'user_id', deleteRule: 'cascade' })
  user!: Rel<User>;

  /** the email the provider asserted (verified) at the last sign-in, for the administrator's eyes */
  @Property({ length: 320, nullable: true })
  email?: string | null;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  linkedAt: Date = new Date();

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  lastSignInAt: Date = new Date();
}
