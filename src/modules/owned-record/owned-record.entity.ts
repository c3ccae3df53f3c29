import { Entity, Index, ManyToOne, PrimaryKeyProp, Property, type Rel } from '@mikro-orm/core';
import { TimedRecord } from '../../core/db/timed-record.entity';
import { User } from '../user/user.entity';
import { Project } from '../project/project.entity';

/**
 * The columns datasets and samples share: exactly one owner, at most one project, the public
 * flag and the record times. No table of its own. Each subclass declares its primary key
 * `uniqueId` (an MFID) itself. Entities are for writes: reads are rows (owned-record-row.ts).
 */
@Entity({ abstract: true })
@Index({ properties: ['project', 'uniqueId'] })
@Index({ properties: ['owner', 'uniqueId'] })
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- subclasses name their defaulted columns for MikroORM's OptionalProps
export abstract class OwnedRecordEntity<Optional extends string = never> extends TimedRecord<
  'public' | Optional
> {
  [PrimaryKeyProp]?: 'uniqueId';

  abstract uniqueId: string;

  @Property({ default: false })
  public: boolean = false;

  @ManyToOne(() => User, { fieldName: 'owner_id' })
  owner!: Rel<User>;

  @ManyToOne(() => Project, { fieldName: 'project_mfid', nullable: true, deleteRule: 'set null' })
  project?: Rel<Project> | null;
}
