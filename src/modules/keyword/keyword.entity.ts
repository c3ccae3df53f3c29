import { OptionalProps, Entity, Index, PrimaryKey, Property } from '@mikro-orm/core';

/** A keyword; text is unique case-insensitively and kept with the case it was first added in. */
@Entity({ tableName: 'keyword' })
@Index({
  name: 'keyword_text_lower_idx',
  expression: 'create unique index keyword_text_lower_idx on keyword (lower(text))',
})
export class Keyword {
  [OptionalProps]?: 'creationTime';

  @PrimaryKey({ autoincrement: true })
  id!: number;

  @Property({ length: 200 })
  text!: string;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  creationTime: Date = new Date();
}
