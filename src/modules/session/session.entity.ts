import {
  Entity,
  Enum,
  Index,
  ManyToOne,
  OptionalProps,
  PrimaryKey,
  PrimaryKeyProp,
  Property,
  type Rel,
} from '@mikro-orm/core';
import { User } from '../user/user.entity';
import { PRIVILEGE_MODES, type PrivilegeMode } from '../../core/auth/privilege';

/**
 * A browser session (docs/authentication.md): the cookie holds a random secret, this row its
 * SHA-256. It ends at sign-out (`revokedAt`), after `SESSION_IDLE_MINUTES` without a request
 * (`lastSeenAt`), at `expiresAt` (`SESSION_MAX_HOURS` after sign-in), or when its user is disabled.
 */
@Entity({ tableName: 'user_session' })
export class UserSession {
  [PrimaryKeyProp]?: 'uniqueId';
  [OptionalProps]?: 'createdAt' | 'lastSeenAt' | 'privilegeMode';

  /** the public id (a UUID, not an MFID: a session is no catalog record): never the secret */
  @PrimaryKey({ length: 36 })
  uniqueId!: string;

  @Property({ length: 64, unique: true })
  hash!: string;

  @Index()
  @ManyToOne(() => User, { fieldName: 'user_id', deleteRule: 'cascade' })
  user!: Rel<User>;

  /** how the person signed in: `api_key` (the page's key form) or `oidc` */
  @Property({ length: 20 })
  method!: string;

  /**
   * The privilege mode requests made with this session act in (docs/authentication.md,
   * "Elevation"): every session starts `normal`; only a platform administrator's is ever
   * `elevated`, by `POST /auth/session/elevate`.
   */
  @Enum({ items: () => PRIVILEGE_MODES, default: 'normal' })
  privilegeMode: PrivilegeMode = 'normal';

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  createdAt: Date = new Date();

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  lastSeenAt: Date = new Date();

  @Property({ type: 'timestamptz' })
  expiresAt!: Date;

  @Property({ type: 'timestamptz', nullable: true })
  revokedAt?: Date | null;
}
