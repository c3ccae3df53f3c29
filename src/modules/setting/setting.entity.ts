import { Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';

/** A service-wide value every replica shares (for example the URL signing secret). */
@Entity({ tableName: 'service_setting' })
export class ServiceSetting {
  [OptionalProps]?: 'creationTime';

  @PrimaryKey({ length: 100 })
  key!: string;

  @Property({ type: 'text' })
  value!: string;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  creationTime: Date = new Date();
}
