import {
  Arg,
  Args,
  Ctx,
  FieldResolver,
  ID,
  Int,
  Mutation,
  Query,
  Resolver,
  Root,
  registerEnumType,
} from 'type-graphql';
import type { RequestContext } from '../../core/context';
import { connectionTypes } from '../../core/graphql/connection';
import { OffsetPageArgs, offsetConnection, offsetOf } from '../../core/graphql/offset-page';
import type { DatasetRow } from '../dataset/dataset-row';
import { DatasetType } from '../dataset/dataset.types';
import type { SampleRow } from '../sample/sample-row';
import { SampleType } from '../sample/sample.types';
import { DeletionRequest } from './deletion-request.entity';
import { User } from '../user/user.entity';
import { DeletionAudit } from './deletion-audit.entity';
import {
  DELETION_REQUEST_SCOPES,
  DELETION_REQUEST_SORTS,
  parseStatus,
  type DeletionRequestScope,
  type DeletionRequestSort,
} from './deletion.query';
import { validationError } from '../../core/errors';
import { isIntegerKey, nodeType } from '../../core/graphql/node';

const { Connection: DeletionRequestConnection } = connectionTypes(
  'DeletionRequest',
  DeletionRequest,
  'A page of deletion requests, newest first.',
);
const { Connection: DeletionAuditConnection } = connectionTypes(
  'DeletionAuditEntry',
  DeletionAudit,
  'A page of deletion audit entries, newest first.',
);

const DeletionRequestScopeEnum = Object.fromEntries(DELETION_REQUEST_SCOPES.map((s) => [s, s])) as {
  [S in DeletionRequestScope]: S;
};
registerEnumType(DeletionRequestScopeEnum, {
  name: 'DeletionRequestScope',
  description: 'Which deletion requests a list holds (the REST `scope`).',
  valuesConfig: {
    accessible: {
      description: 'The requests you may see: all for platform administrators, your own for anyone else.',
    },
    submitted: { description: 'The requests you made.' },
    reviewable: {
      description: 'The pending requests you may approve or reject now (platform administrators).',
    },
  },
});
const DeletionRequestSortEnum = Object.fromEntries(DELETION_REQUEST_SORTS.map((s) => [s, s])) as {
  [S in DeletionRequestSort]: S;
};
registerEnumType(DeletionRequestSortEnum, {
  name: 'DeletionRequestSort',
  description: 'The order of a deletion request list (the REST `sort`); ties by request id.',
  valuesConfig: {
    request_time: { description: 'When it was made.' },
    resource_name: { description: 'The name of the record it would delete.' },
    project_id: { description: "The record's project." },
    requester_name: { description: 'Who made it.' },
    status: { description: 'pending, approved or rejected.' },
  },
});
const DeletionSortDirectionEnum = { asc: 'asc', desc: 'desc' } as const;
registerEnumType(DeletionSortDirectionEnum, {
  name: 'DeletionSortDirection',
  description: 'asc or desc (the REST `direction`; needs a sort).',
  valuesConfig: { asc: { description: 'Ascending.' }, desc: { description: 'Descending.' } },
});

@Resolver(() => DeletionRequest)
export class DeletionResolver {
  @FieldResolver(() => User, {
    nullable: true,
    description: 'Who asked, public-safe (requesterId names them).',
  })
  requester(@Root() r: DeletionRequest, @Ctx() ctx: RequestContext) {
    return ctx.loaders.user.load(r.requesterId);
  }

  @FieldResolver(() => User, {
    nullable: true,
    description: 'Who reviewed it, public-safe (reviewerId names them); null while pending.',
  })
  reviewer(@Root() r: DeletionRequest, @Ctx() ctx: RequestContext) {
    return r.reviewerId ? ctx.loaders.user.load(r.reviewerId) : null;
  }

  @Mutation(() => DeletionRequest, {
    description:
      'Asks for the permanent deletion of a dataset or sample (needs admin permission on it). It stays, hidden from lists and searches, until a platform admin reviews the request.',
  })
  requestDeletion(
    @Arg('id', () => ID, { description: 'The dataset or sample MFID.' }) id: string,
    @Arg('reason', () => String, { nullable: true, description: 'Why it should go.' })
    reason: string | undefined,
    @Ctx() ctx: RequestContext,
  ) {
    return ctx.services.deletion.request(ctx, id, reason);
  }

  @Mutation(() => DeletionRequest, {
    description: 'Approves (removing the resource for good) or rejects a pending request (platform admins).',
  })
  reviewDeletionRequest(
    @Arg('id', () => Int, { description: 'The request id.' }) id: number,
    @Arg('approve', { description: 'true approves, false rejects.' }) approve: boolean,
    @Arg('reviewerNotes', () => String, { nullable: true, description: 'Notes for the record.' })
    reviewerNotes: string | undefined,
    @Ctx() ctx: RequestContext,
  ) {
    return ctx.services.deletion.review(ctx, id, approve ? 'approved' : 'rejected', reviewerNotes);
  }

  @Mutation(() => Boolean, {
    description:
      'Withdraws a pending deletion request (its requester, or a platform admin): the request goes, the history keeps a deletion.withdrawn event with the note.',
  })
  async withdrawDeletionRequest(
    @Arg('id', () => Int, { description: 'The request id.' }) id: number,
    @Arg('note', () => String, { nullable: true, description: 'Why it is withdrawn (kept in the history).' })
    note: string | undefined,
    @Ctx() ctx: RequestContext,
  ) {
    await ctx.services.deletion.withdraw(ctx, id, note);
    return true;
  }

  @Mutation(() => Boolean, {
    description:
      'Deletes a dataset or sample now (platform admins): needs an approved request unless force is true.',
  })
  async deleteResource(
    @Arg('id', () => ID, { description: 'The dataset or sample MFID.' }) id: string,
    @Arg('force', { defaultValue: false, description: 'Delete without an approved request.' }) force: boolean,
    @Ctx() ctx: RequestContext,
  ) {
    await ctx.services.deletion.deleteNow(ctx, id, force);
    return true;
  }

  @Query(() => DeletionRequestConnection, {
    description:
      'Deletion requests, newest first: every request for platform admins, your own for anyone else.',
  })
  async deletionRequests(
    @Args() args: OffsetPageArgs,
    @Arg('status', () => String, { nullable: true, description: 'pending, approved or rejected.' })
    status: string | undefined,
    @Arg('scope', () => DeletionRequestScopeEnum, {
      nullable: true,
      description: 'Which requests (default accessible).',
    })
    scope: DeletionRequestScope | null | undefined,
    @Arg('sort', () => DeletionRequestSortEnum, {
      nullable: true,
      description: 'The order (default newest first).',
    })
    sort: DeletionRequestSort | null | undefined,
    @Arg('direction', () => DeletionSortDirectionEnum, {
      nullable: true,
      description: 'With sort: asc (the default) or desc; without sort it is BAD_USER_INPUT.',
    })
    direction: 'asc' | 'desc' | null | undefined,
    @Ctx() ctx: RequestContext,
  ) {
    const page = offsetOf(ctx, args);
    if (!sort && direction) throw validationError('direction', 'needs sort: give sort as well');
    const result = await ctx.services.deletion.list(
      ctx,
      {
        status: parseStatus(status),
        scope: scope ?? undefined,
        sort: sort ? { sort, direction: direction ?? 'asc' } : null,
      },
      page,
    );
    return offsetConnection(DeletionRequestConnection, result, page.offset);
  }

  @Query(() => DeletionRequest, { description: 'One deletion request (platform admins).' })
  deletionRequest(
    @Arg('id', () => Int, { description: 'The request id.' }) id: number,
    @Ctx() ctx: RequestContext,
  ) {
    return ctx.services.deletion.get(ctx, id);
  }

  @Query(() => DeletionAuditConnection, {
    description: 'Deletions performed, newest first (platform admins).',
  })
  async deletionAudit(
    @Args() args: OffsetPageArgs,
    @Arg('resourceId', () => String, { nullable: true, description: 'Only this resource.' })
    resourceId: string | undefined,
    @Ctx() ctx: RequestContext,
  ) {
    const page = offsetOf(ctx, args);
    const result = await ctx.services.deletion.listAudit(ctx, { resourceId }, page);
    return offsetConnection(DeletionAuditConnection, result, page.offset);
  }

  @Query(() => DeletionAudit, { description: 'One deletion audit entry (platform admins).' })
  deletionAuditEntry(
    @Arg('id', () => Int, { description: 'The audit entry id.' }) id: number,
    @Ctx() ctx: RequestContext,
  ) {
    return ctx.services.deletion.getAudit(ctx, id);
  }
}

@Resolver(() => DatasetType)
export class DatasetDeletionResolver {
  @FieldResolver(() => DeletionRequest, {
    nullable: true,
    description: 'Its pending deletion request, if any.',
  })
  deletionRequest(@Root() ds: DatasetRow, @Ctx() ctx: RequestContext) {
    return ctx.loaders.pendingDeletion.load(ds.uniqueId);
  }
}

@Resolver(() => SampleType)
export class SampleDeletionResolver {
  @FieldResolver(() => DeletionRequest, {
    nullable: true,
    description: 'Its pending deletion request, if any.',
  })
  deletionRequest(@Root() sample: SampleRow, @Ctx() ctx: RequestContext) {
    return ctx.loaders.pendingDeletion.load(sample.uniqueId);
  }
}

/** Deletion requests as `Node`s (platform admins, as `deletionRequest`). */
export const DELETION_REQUEST_NODE = nodeType<DeletionRequest>(
  'DeletionRequest',
  (key) => isIntegerKey(key),
  (r) => String(r.id),
  (ctx, keys) => ctx.services.deletion.readable(ctx, keys.map(Number)),
);

/** Deletion audit entries as `Node`s (platform admins, as `deletionAuditEntry`). */
export const DELETION_AUDIT_NODE = nodeType<DeletionAudit>(
  'DeletionAuditEntry',
  (key) => isIntegerKey(key),
  (r) => String(r.id),
  (ctx, keys) => ctx.services.deletion.readableAudit(ctx, keys.map(Number)),
);
