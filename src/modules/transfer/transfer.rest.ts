import { validationError } from '../../core/errors';
import { defineRoute, type Route } from '../../core/rest/route';
import { Checked, NullableString, QBool, QStr, Type } from '../../core/rest/schema';
import { CHANGE, toLegacyChange } from './transfer.legacy';

const tag = 'access';
/**
 * `confirm` and `token` in the JSON body or in the query (`?confirm=true`, `True` too): a
 * confirmation must never be dropped silently. Given in both places, they must agree.
 */
const CONFIRM = {
  confirm: Type.Optional(Type.Boolean({ description: 'apply the change (else: a preview)' })),
  token: Type.Optional(NullableString({ description: 'the token of the preview being confirmed' })),
};
const CONFIRM_QUERY = {
  confirm: QBool('same as the body field'),
  token: QStr('same as the body field'),
};

function confirmation(
  query: { confirm?: boolean; token?: string },
  body: { confirm?: boolean; token?: string | null },
): { confirm?: boolean; token?: string | null } {
  const pick = <T>(field: string, fromBody: T | undefined, fromQuery: T | undefined): T | undefined => {
    if (fromBody !== undefined && fromQuery !== undefined && fromBody !== fromQuery) {
      throw validationError(field, 'given in the body and in the query with different values');
    }
    return fromBody ?? fromQuery;
  };
  return {
    confirm: pick('confirm', body.confirm, query.confirm),
    token: pick('token', body.token ?? undefined, query.token),
  };
}

const id = { id: 'the resource MFID' };
const REASSIGN_BODY = Type.Object(
  {
    project_id: Type.Optional(NullableString({ description: 'the new project (slug)' })),
    project_mfid: Type.Optional(NullableString({ description: 'or its MFID' })),
    ...CONFIRM,
  },
  { additionalProperties: false, title: 'ReassignProject' },
);

/** The preview/confirm workflows (spec 1.10, 3, 4.1): ownership transfer and project reassignment. */
export const transferRoutes: Route[] = [
  defineRoute(
    {
      method: 'post',
      path: '/resources/:id/transfer_ownership',
      tag,
      summary: 'Preview, then confirm, a change of owner',
      params: id,
      query: CONFIRM_QUERY,
      body: Type.Object(
        { new_owner: Type.Optional(Checked('the new owner: ORCID, username or email')), ...CONFIRM },
        { additionalProperties: false, title: 'TransferOwnership' },
      ),
      response: CHANGE,
    },
    async (ctx, { params, query, body }) => {
      const b = body as { new_owner?: unknown; confirm?: boolean; token?: string | null };
      const result = await ctx.services.transfer.transferOwnership(ctx, params.id, {
        newOwner: b.new_owner,
        ...confirmation(query, b),
      });
      return toLegacyChange(ctx, result);
    },
  ),
  // `/project` is the 3.2 client's name for the same workflow
  ...(
    [
      ['/resources/:id/reassign_project', 'Preview, then confirm, a move to another project'],
      ['/resources/:id/project', "Preview, then confirm, a move to another project (the 3.2 client's path)"],
    ] as const
  ).map(([path, summary]) =>
    defineRoute(
      {
        method: 'post',
        path,
        tag,
        summary,
        params: id,
        query: CONFIRM_QUERY,
        body: REASSIGN_BODY,
        response: CHANGE,
      },
      async (ctx, { params, query, body }) => {
        const b = body as {
          project_id?: string | null;
          project_mfid?: string | null;
          confirm?: boolean;
          token?: string | null;
        };
        const result = await ctx.services.transfer.reassignProject(ctx, params.id, {
          projectId: b.project_id,
          projectMfid: b.project_mfid,
          ...confirmation(query, b),
        });
        return toLegacyChange(ctx, result);
      },
    ),
  ),
];
