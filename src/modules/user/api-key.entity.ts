import {
  OptionalProps,
  PrimaryKeyProp,
  Entity,
  Index,
  ManyToOne,
  PrimaryKey,
  Property,
  type Rel,
} from '@mikro-orm/core';
import { User } from './user.entity';

/** An API key. Only the SHA-256 of the secret is stored; the secret is shown once, at issue. */
@Entity({ tableName: 'api_key' })
export class ApiKey {
  [PrimaryKeyProp]?: 'uniqueId';
  [OptionalProps]?: 'createdAt';

  @PrimaryKey({ length: 26 })
  uniqueId!: string;

  @Property({ length: 64, unique: true })
  hash!: string;

  /** The first characters of the secret, to tell keys apart in listings. */
  @Property({ length: 16 })
  prefix!: string;

  @Index()
  @ManyToOne(() => User, { fieldName: 'user_id', deleteRule: 'cascade' })
  user!: Rel<User>;

  @Property({ length: 200, nullable: true })
  label?: string | null;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  createdAt: Date = new Date();

  @Property({ type: 'timestamptz', nullable: true })
  expiresAt?: Date | null;

  @Property({ type: 'timestamptz', nullable: true })
  revokedAt?: Date | null;

  @Property({ type: 'timestamptz', nullable: true })
  lastUsedAt?: Date | null;
}
