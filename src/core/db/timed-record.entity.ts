import { Field, ObjectType } from 'type-graphql';
import { Entity, OptionalProps, Property } from '@mikro-orm/core';

/**
 * The creation and last-change times of a catalog record (`creation_time`, `modification_time`),
 * both public GraphQL fields. No table and no GraphQL type of its own (type-graphql emits only
 * the types the schema references): entities extend it. `Optional` names the subclass's own
 * properties that have defaults (MikroORM's `OptionalProps`).
 */
@ObjectType()
@Entity({ abstract: true })
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- subclasses name their defaulted columns for MikroORM's OptionalProps
export abstract class TimedRecord<Optional extends string = never> {
  [OptionalProps]?: 'creationTime' | 'modificationTime' | Optional;

  @Field({ description: 'When the record was created.' })
  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  creationTime: Date = new Date();

  @Field({ description: 'When the record last changed.' })
  @Property({ type: 'timestamptz', defaultRaw: 'now()', onUpdate: () => new Date() })
  modificationTime: Date = new Date();
}
