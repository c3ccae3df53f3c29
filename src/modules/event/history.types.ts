import { Field, ID, ObjectType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import { connectionTypes } from '../../core/graphql/connection';
import { Node } from '../../core/graphql/node';
import type { HistoryEntry as Entry } from './history.service';

/** The GraphQL type of a history entry (history.service.ts `HistoryEntry`). */
@ObjectType('ResourceEvent', {
  implements: Node,
  description:
    'Something that happened to a resource: who did what, when. As a Node it is readable by whoever may read the history it is part of.',
})
export class HistoryEntry implements Entry {
  @Field(() => ID, { description: 'The event id (an MFID; the webhook-id of its deliveries).' })
  uniqueId!: string;

  @Field({
    description: 'What happened, e.g. dataset.updated or access.granted (docs/events.md lists them).',
  })
  type!: string;

  @Field({ description: 'When it happened.' })
  time!: Date;

  @Field(() => String, {
    nullable: true,
    description: 'Who did it (a user id); null for the service itself.',
  })
  actorId!: string | null;

  @Field({ description: 'The resource it happened to.' })
  resourceId!: string;

  @Field({ description: 'dataset, sample, project or instrument.' })
  resourceType!: string;

  @Field(() => String, { nullable: true, description: "The MFID of the resource's project at the time." })
  projectMfid!: string | null;

  @Field(() => GraphQLJSONObject, {
    description:
      'The details: field-level changes ({field: {from, to}}), changed metadata keys, the grant, ...',
  })
  payload!: Record<string, unknown>;
}

export const { Connection: HistoryConnection } = connectionTypes(
  'ResourceEvent',
  HistoryEntry,
  'A page of a resource history, newest first.',
);
