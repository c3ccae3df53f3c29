import { validationError } from '../../core/errors';
import { defineRoute, type Route } from '../../core/rest/route';
import { Checked, NullableString, QBool, QInt, QStr, Type } from '../../core/rest/schema';
import { DATASET_QUERY, parseFilter } from '../dataset/dataset.legacy';
import { BATCH, BATCH_ITEM, toLegacyBatch, toLegacyBatchItem } from './batch.legacy';
import { BATCH_KINDS } from './batch-operation';

const tag = 'datasets';
const id = { id: 'the batch MFID' };

// the dataset list's filters, without its include flags
const INCLUDE_FLAGS: readonly string[] = ['include_owner', 'include_metadata', 'include_links'];
const SEARCH_QUERY = Object.fromEntries(
  Object.entries(DATASET_QUERY).filter(([name]) => !INCLUDE_FLAGS.includes(name)),
) as Omit<typeof DATASET_QUERY, 'include_owner' | 'include_metadata' | 'include_links'>;

const OPERATION = Type.Object(
  {
    kind: Type.Union(
      BATCH_KINDS.map((k) => Type.Literal(k)),
      { description: 'what the batch does to every target' },
    ),
    keyword: Type.Optional(Checked('add_keyword, remove_keyword: the keyword')),
    field: Type.Optional(
      Checked(
        'set_field: the field (dataset_name, measurement, data_type, data_format, session_name, timestamp)',
      ),
    ),
    value: Type.Optional(Checked('set_field: the new value (null clears it; a name must not be blank)')),
    metadata: Type.Optional(Checked('merge_metadata: the top-level keys to merge')),
    principal_type: Type.Optional(Checked('grant: user, project or group')),
    principal: Type.Optional(
      Checked('grant: who (ORCID, MFID, username or email; project slug or MFID; group name)'),
    ),
    permission: Type.Optional(Checked('grant: viewer, contributor, editor or admin')),
    public: Type.Optional(Checked('set_public: true or false')),
  },
  { additionalProperties: false, title: 'BatchOperation' },
);

/** Batch edits of datasets (docs/web-app.md, "Edit many at once"). */
export const batchRoutes: Route[] = [
  defineRoute(
    {
      method: 'post',
      path: '/dataset_batches',
      tag,
      summary: 'Preview a batch edit of many datasets (nothing changes)',
      description:
        'The targets are either `dataset_ids` or, with `all_results: true`, every dataset the list filters of the query (those of `GET /datasets`) select for you, resolved now and frozen into the preview. Answers what changes per dataset and which datasets you may not change (then the batch cannot be applied), with the token to apply it with.',
      query: SEARCH_QUERY,
      body: Type.Object(
        {
          dataset_ids: Type.Optional(
            Checked('the datasets (MFIDs)', { type: 'array', items: { type: 'string' } }),
          ),
          all_results: Type.Optional(
            Type.Boolean({ description: 'every result of the search in the query' }),
          ),
          operation: OPERATION,
        },
        { additionalProperties: false, title: 'BatchPreviewRequest' },
      ),
      status: 201,
      response: BATCH,
    },
    async (ctx, { query, body }) => {
      const b = body as { dataset_ids?: unknown; all_results?: boolean; operation?: Record<string, unknown> };
      const filters = Object.entries(query).filter(
        ([, v]: [string, unknown]) => v !== undefined && !(Array.isArray(v) && v.length === 0),
      );
      if (b.all_results !== true && filters.length) {
        throw validationError(filters[0][0], 'list filters select the targets only with all_results: true');
      }
      if (b.all_results === true && b.dataset_ids !== undefined) {
        throw validationError('dataset_ids', 'give either dataset_ids or all_results, not both');
      }
      const op = b.operation ?? {};
      const operation = {
        kind: op.kind,
        keyword: op.keyword,
        field: op.field,
        value: op.value,
        metadata: op.metadata,
        principalType: op.principal_type,
        principal: op.principal,
        permission: op.permission,
        public: op.public,
      };
      const targets = b.all_results === true ? { search: parseFilter(query) } : { ids: b.dataset_ids };
      return toLegacyBatch(await ctx.services.batch.preview(ctx, targets, operation));
    },
  ),
  defineRoute(
    {
      method: 'get',
      path: '/dataset_batches',
      tag,
      summary: 'Your batch edits, newest first',
      query: { limit: QInt('how many (default 20, at most 100)', { minimum: 1, maximum: 100 }) },
      response: Type.Array(BATCH),
    },
    async (ctx, { query }) => (await ctx.services.batch.list(ctx, query.limit ?? 20)).map(toLegacyBatch),
  ),
  defineRoute(
    {
      method: 'get',
      path: '/dataset_batches/:id',
      tag,
      summary: 'One of your batch edits',
      params: id,
      response: BATCH,
    },
    async (ctx, { params }) => toLegacyBatch(await ctx.services.batch.get(ctx, params.id)),
  ),
  defineRoute(
    {
      method: 'get',
      path: '/dataset_batches/:id/items',
      tag,
      summary: "A page of a batch's datasets with their values before and after, in MFID order",
      params: id,
      query: {
        cursor: QStr('the next_cursor of the previous page'),
        limit: QInt('page size (default 100, at most 1000)', { minimum: 1, maximum: 1000 }),
        changed_only: QBool('only the datasets the batch changes', true),
      },
      response: Type.Object(
        { items: Type.Array(BATCH_ITEM), next_cursor: NullableString() },
        { title: 'BatchItemPage' },
      ),
    },
    async (ctx, { params, query }) => {
      const page = await ctx.services.batch.items(ctx, params.id, {
        after: query.cursor,
        limit: query.limit ?? 100,
        changedOnly: query.changed_only ?? true,
      });
      return { items: page.items.map(toLegacyBatchItem), next_cursor: page.nextCursor };
    },
  ),
  defineRoute(
    {
      method: 'post',
      path: '/dataset_batches/:id/apply',
      tag,
      summary: 'Apply a previewed batch edit: all or nothing',
      description:
        "Locks every target, checks your permission on each again and compares their state with the preview's: any difference and nothing changes (403 for a permission, 409 for a change).",
      params: id,
      body: Type.Object(
        { token: Checked('the token of the preview') },
        { additionalProperties: false, title: 'BatchApply' },
      ),
      response: BATCH,
    },
    async (ctx, { params, body }) =>
      toLegacyBatch(await ctx.services.batch.apply(ctx, params.id, (body as { token?: unknown }).token)),
  ),
  defineRoute(
    {
      method: 'post',
      path: '/dataset_batches/:id/undo',
      tag,
      summary: 'Undo an applied batch edit as one step',
      description:
        'Puts back every value the batch changed; 409 and nothing changes when any of them has changed since (undo never overwrites a later change).',
      params: id,
      response: BATCH,
    },
    async (ctx, { params }) => toLegacyBatch(await ctx.services.batch.undo(ctx, params.id)),
  ),
];
