import type { RequestContext } from '../../core/context';
import { defineRoute, type Route } from '../../core/rest/route';
import { Enum, NullableString, Type } from '../../core/rest/schema';
import { GRANTABLE_PERMISSIONS } from '../permission/permission';
import { toPublicUser } from '../user/user.legacy';
import type { InstrumentOperator } from './instrument-operator.service';

const tag = 'instruments';

/** A bound service account as the 3.2 client reads it (`ProjectMember`). */
const OPERATOR = Type.Object(
  {
    unique_id: Type.String(),
    username: NullableString(),
    first_name: NullableString(),
    last_name: NullableString(),
    email: Type.Optional(NullableString({ description: 'for platform administrators only' })),
    is_service_account: Type.Literal(true),
    role: Enum(GRANTABLE_PERMISSIONS, { description: 'its permission on the instrument (binding: editor)' }),
  },
  { title: 'InstrumentServiceAccount' },
);
const OPERATORS = Type.Array(OPERATOR);

function toOperators(ctx: RequestContext, operators: InstrumentOperator[]): Record<string, unknown>[] {
  return operators.map((o) => ({ ...toPublicUser(ctx, o.user), is_service_account: true, role: o.role }));
}

const params = { id: 'the instrument MFID or slug' };
const withAccount = { ...params, sa: 'the service account (MFID, username or email)' };

/** The service accounts acting for an instrument (docs/access-control.md, "Instrument service accounts"). */
export const instrumentOperatorRoutes: Route[] = [
  defineRoute(
    {
      method: 'get',
      path: '/instruments/:id/service_accounts',
      tag,
      summary: 'The service accounts bound to an instrument (needs admin on it)',
      params,
      response: OPERATORS,
    },
    async (ctx, { params }) => toOperators(ctx, await ctx.services.instrumentOperator.list(ctx, params.id)),
  ),
  defineRoute(
    {
      method: 'post',
      path: '/instruments/:id/service_accounts/:sa',
      tag,
      summary: 'Bind a service account to an instrument as its operator (editor); answers the bound accounts',
      params: withAccount,
      response: OPERATORS,
    },
    async (ctx, { params }) =>
      toOperators(ctx, await ctx.services.instrumentOperator.bind(ctx, params.id, params.sa)),
  ),
  defineRoute(
    {
      method: 'delete',
      path: '/instruments/:id/service_accounts/:sa',
      tag,
      summary: 'Unbind a service account from an instrument; answers the bound accounts',
      params: withAccount,
      response: OPERATORS,
    },
    async (ctx, { params }) =>
      toOperators(ctx, await ctx.services.instrumentOperator.unbind(ctx, params.id, params.sa)),
  ),
];
