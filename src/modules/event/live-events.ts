import type { RequestContext } from '../../core/context';
import { AppError, unauthenticated, validationError } from '../../core/errors';
import type { ResourceService } from '../resource/resource.service';
import type { SessionService } from '../session/session.service';
import type { UserService } from '../user/user.service';
import type { EventFeed, FeedRow } from './event-feed';
import type { RecordReferences } from './record-references';

/** What a subscription follows: one resource, or every resource of one project. */
export type LiveTarget = { resource: string } | { project: string };

export interface LiveEventsDeps {
  feed: EventFeed;
  resources: ResourceService;
  users: UserService;
  sessions: Pick<SessionService, 'authenticate'>;
  references: RecordReferences;
}

/**
 * The events a GraphQL subscription delivers (docs/events.md, "Live updates"): its target must
 * be readable when it starts (else the same NOT_FOUND as a read), and each event is checked when
 * it is sent, as the subscriber: the key must still be valid and the user enabled (else the
 * subscription ends with UNAUTHENTICATED), and the event's resource readable (else the event is
 * left out); references to records the subscriber may not read are null (RecordReferences). A subscription to one resource hears of its removal, then ends.
 */
export class LiveEvents {
  constructor(private readonly deps: LiveEventsDeps) {}

  /** `resourceEvents`: the events of a resource, or of every resource of a project. */
  async resourceEvents(ctx: RequestContext, target: LiveTarget): Promise<AsyncIterable<FeedRow>> {
    if ('resource' in target) {
      const r = await this.deps.resources.find(ctx, target.resource);
      return this.deliver(
        ctx,
        await this.deps.feed.listenFromNow((row) => row.resource_id === r.uniqueId),
        r.uniqueId,
      );
    }
    const project = await this.deps.resources.find(ctx, target.project, 'project');
    return this.deliver(
      ctx,
      await this.deps.feed.listenFromNow(
        (row) => row.project_mfid === project.uniqueId || row.resource_id === project.uniqueId,
      ),
    );
  }

  /** `ingestionProgress`: the ingestion events of a dataset's files (requested … progress … complete). */
  async ingestion(ctx: RequestContext, datasetId: string): Promise<AsyncIterable<FeedRow>> {
    const ds = await this.deps.resources.find(ctx, datasetId, 'dataset');
    return this.deliver(
      ctx,
      this.deps.feed.listen((row) => row.resource_id === ds.uniqueId && row.type.startsWith('ingestion.')),
      ds.uniqueId,
    );
  }

  /**
   * The rows the subscriber may read, as an iterator whose `return()` takes effect at once: a
   * client that unsubscribes while no event is coming must free its listener and its place
   * (an async generator would wait for the next event to notice).
   */
  private deliver(
    ctx: RequestContext,
    rows: AsyncIterableIterator<FeedRow>,
    followed?: string,
  ): AsyncIterableIterator<FeedRow> {
    let ended = false;
    const end = async (): Promise<IteratorResult<FeedRow>> => {
      ended = true;
      await rows.return?.();
      return { value: undefined, done: true };
    };
    const iterator: AsyncIterableIterator<FeedRow> = {
      next: async () => {
        while (!ended) {
          const next = await rows.next();
          if (next.done) return end();
          const row = next.value;
          if (followed && row.type === 'resource.removed' && row.resource_id === followed) {
            ended = true; // this one, then the end
            void rows.return?.();
            return { value: row, done: false };
          }
          try {
            const visible = await this.visible(ctx, row);
            if (visible) return { value: visible, done: false };
          } catch (err) {
            await end();
            throw err;
          }
        }
        return { value: undefined, done: true };
      },
      return: end,
      [Symbol.asyncIterator]: () => iterator,
    };
    return iterator;
  }

  /**
   * The event as the subscriber may see it now (its key checked again first): null when they may
   * not read its resource, its references to records they may not read set to null.
   */
  private async visible(ctx: RequestContext, row: FeedRow): Promise<FeedRow | null> {
    // the subscription's EntityManager lives as long as it does: nothing cached may decide
    ctx.em.clear();
    // a page's socket is authenticated by its session (its token is ''), a client's by its key
    const secret = ctx.caller.sessionSecret;
    const caller = secret
      ? await this.deps.sessions.authenticate(ctx.em, secret)
      : await this.deps.users.authenticate(ctx.em, ctx.caller.token);
    if (!caller) {
      throw unauthenticated(
        secret ? 'Your session has ended: sign in again' : 'The API key is invalid, expired or revoked',
      );
    }
    const as = ctx.as(caller.user);
    try {
      await this.deps.resources.find(as, row.resource_id);
    } catch (err) {
      if (err instanceof AppError && err.code === 'NOT_FOUND') return null;
      throw err;
    }
    const [visible] = await this.deps.references.readableBy(as, [row]);
    return visible;
  }
}

/** The target of `resourceEvents(resource, project)`: exactly one of the two. */
export function liveTarget(
  resource: string | null | undefined,
  project: string | null | undefined,
): LiveTarget {
  if ((resource ?? null) === null && (project ?? null) === null) {
    throw validationError('resource', 'give resource or project');
  }
  if (resource && project) throw validationError('project', 'give resource or project, not both');
  return resource ? { resource } : { project: project ?? '' };
}
