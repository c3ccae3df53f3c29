import { Field, ID, ObjectType } from 'type-graphql';
import { OptionalProps, PrimaryKeyProp, Entity, Enum, Index, PrimaryKey, Property } from '@mikro-orm/core';
import { PLATFORM_ROLES, type PlatformRole } from '../../core/auth/privilege';
import { Node } from '../../core/graphql/node';

/**
 * A person (keyed by ORCID) or a service account (keyed by MFID). `id` is the legacy integer id
 * some clients sort by; `uniqueId` is the canonical key everywhere else.
 */
@ObjectType('User', {
  implements: Node,
  description:
    'A person (keyed by ORCID) or a service account (keyed by MFID). The public-safe record: email only for yourself or platform administrators.',
})
@Entity({ tableName: 'app_user' })
@Index({
  name: 'app_user_email_lower_idx',
  expression: 'create unique index app_user_email_lower_idx on app_user (lower(email))',
})
@Index({
  name: 'app_user_username_lower_idx',
  expression: 'create unique index app_user_username_lower_idx on app_user (lower(username))',
})
@Index({
  name: 'app_user_search_trgm_idx',
  expression:
    "create index app_user_search_trgm_idx on app_user using gin ((coalesce(username, '') || ' ' || coalesce(first_name, '') || ' ' || coalesce(last_name, '')) gin_trgm_ops)",
})
export class User {
  [PrimaryKeyProp]?: 'uniqueId';
  [OptionalProps]?:
    | 'id'
    | 'isServiceAccount'
    | 'platformRole'
    | 'disabledAt'
    | 'pendingSince'
    | 'creationTime'
    | 'modificationTime';

  @Field(() => ID, { description: 'ORCID for people, MFID for service accounts.' })
  @PrimaryKey({ length: 32 })
  uniqueId!: string;

  @Property({ autoincrement: true, unique: true, columnType: 'serial' })
  id!: number;

  @Field(() => String, { description: 'Login-style handle, unique.', nullable: true })
  @Property({ length: 64, nullable: true })
  username?: string | null;

  @Property({ length: 320, nullable: true })
  email?: string | null;

  @Field(() => String, { description: 'Given name.', nullable: true })
  @Property({ length: 200, nullable: true })
  firstName?: string | null;

  @Field(() => String, { description: 'Family name.', nullable: true })
  @Property({ length: 200, nullable: true })
  lastName?: string | null;

  @Field({ description: 'Whether this is a service account (instrument operators, pipelines).' })
  @Property({ default: false })
  isServiceAccount: boolean = false;

  /**
   * What the user may create and whether they may act as a platform administrator
   * (docs/access-control.md, "Platform roles and privilege mode"). Policies never read it: they
   * read the role the caller acts with on the request (`ctx.platformRole`, `ctx.isPlatformAdmin`).
   */
  @Enum({ items: () => PLATFORM_ROLES, default: 'contributor' })
  platformRole: PlatformRole = 'contributor';

  /** Set while the account is disabled (admin command line): its keys authenticate nothing. */
  @Property({ type: 'timestamptz', nullable: true })
  disabledAt?: Date | null;

  /**
   * Set while the account awaits an administrator's activation (a person first signed in through
   * the OpenID provider under `OIDC_NEW_USERS=pending`): it has no rights and no session.
   */
  @Property({ type: 'timestamptz', nullable: true })
  pendingSince?: Date | null;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  creationTime: Date = new Date();

  @Property({ type: 'timestamptz', defaultRaw: 'now()', onUpdate: () => new Date() })
  modificationTime: Date = new Date();
}
