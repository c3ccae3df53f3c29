import { Arg, ID, Resolver, Root, Subscription, type SubscribeResolverData } from 'type-graphql';
import type { RequestContext } from '../../core/context';
import { toEntry } from './history.service';
import { HistoryEntry } from './history.types';
import type { FeedRow } from './event-feed';
import { liveTarget } from './live-events';

type Data = SubscribeResolverData<unknown, Record<string, unknown>, RequestContext>;
const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** Live events over WebSocket (graphql-ws on /graphql; docs/events.md, "Live updates"). */
@Resolver()
export class LiveEventsResolver {
  @Subscription(() => HistoryEntry, {
    description:
      'The events of one resource, or of every resource of a project, as they are committed: each one only if you may read its resource when it is sent. A subscription to one resource ends after its removal.',
    subscribe: ({ args, context }: Data) =>
      context.services.liveEvents.resourceEvents(
        context,
        liveTarget(text(args.resource), text(args.project)),
      ),
  })
  resourceEvents(
    @Root() row: FeedRow,
    @Arg('resource', () => ID, { nullable: true, description: 'The MFID of a resource.' }) _resource?: string,
    @Arg('project', () => ID, {
      nullable: true,
      description: 'The MFID of a project: the events of its resources.',
    })
    _project?: string,
  ): HistoryEntry {
    return toEntry(row);
  }

  @Subscription(() => HistoryEntry, {
    description:
      "The ingestion events of a dataset's files as they happen: requested, started, progress (payload bytes_read / bytes_total), complete, failed, not_supported.",
    subscribe: ({ args, context }: Data) =>
      context.services.liveEvents.ingestion(context, text(args.dataset) ?? ''),
  })
  ingestionProgress(
    @Root() row: FeedRow,
    @Arg('dataset', () => ID, { description: 'The dataset MFID.' }) _dataset: string,
  ): HistoryEntry {
    return toEntry(row);
  }
}
