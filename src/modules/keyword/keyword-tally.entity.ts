import { BigIntType, Entity, Index, PrimaryKey, Property } from '@mikro-orm/core';

/**
 * How many datasets carrying a keyword share one visibility key: public ones all together
 * (owner and project null), private ones by owner and project. The exact total of a keyword
 * filter for any caller without reading the keyword's datasets (docs/scale.md, "The keyword
 * filter"). Kept by the database (triggers on `dataset_keyword` and `dataset`), never written by
 * the application. Counts every dataset, also those a deletion request hides (queries subtract
 * them). No foreign key to `keyword`: the rows of a removed keyword drop to zero and are never
 * read again.
 */
@Entity({ tableName: 'keyword_tally' })
@Index({
  name: 'keyword_tally_key_idx',
  expression:
    'create unique index keyword_tally_key_idx on keyword_tally (keyword_id, public, owner_id, project_mfid) nulls not distinct',
})
@Index({ name: 'keyword_tally_project_idx', properties: ['keywordId', 'projectMfid'] })
export class KeywordTally {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @Property()
  keywordId!: number;

  @Property()
  public!: boolean;

  @Property({ length: 32, nullable: true })
  ownerId?: string | null;

  @Property({ length: 26, nullable: true })
  projectMfid?: string | null;

  @Property({ type: new BigIntType('number') })
  n!: number;
}
