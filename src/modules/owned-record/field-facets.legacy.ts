import type { RequestContext } from '../../core/context';
import { validationError } from '../../core/errors';
import { DIRECTIONS, Enum, NullableString, QInt, QStr, Type } from '../../core/rest/schema';
import { toPublicUser } from '../user/user.legacy';
import { toLegacyProjectRef } from '../project/project.legacy';
import {
  FACET_SORTS,
  FIELD_FACET_DEFAULT,
  FIELD_FACET_MAX,
  type FacetFieldSpec,
  type FacetSort,
  type FieldFacetPage,
  type FieldFacetRequest,
} from './field-facets';

/** The parameters of a facet page of one field (`GET /datasets/facets`, `GET /samples/facets`). */
export function fieldFacetQuery(fields: readonly string[], required: boolean) {
  return {
    field: required
      ? Enum(fields, { description: 'the field to group by' })
      : Type.Optional(
          Enum(fields, {
            description:
              'the field to group by: one page of its buckets (absent: every dimension at once, the older answer)',
          }),
        ),
    limit: QInt(`buckets per page (default ${FIELD_FACET_DEFAULT}); only with field`, {
      minimum: 1,
      maximum: FIELD_FACET_MAX,
    }),
    sort: Type.Optional(
      Enum(FACET_SORTS, { description: 'bucket order: value (default), label or count; then by value' }),
    ),
    direction: Type.Optional(
      Enum(DIRECTIONS, { description: 'asc (default) or desc; allowed without sort' }),
    ),
    cursor: QStr('`next_cursor` of the previous page (opaque); only with field'),
  };
}

interface FacetPageQuery<F extends string> {
  field?: F;
  limit?: number;
  sort?: FacetSort;
  direction?: 'asc' | 'desc';
  cursor?: string;
}

/**
 * The page a facet query asks for, or null without `field` (then the page parameters are a
 * 422, as is a missing `field` where it is `required`).
 */
export function fieldFacetRequest<F extends string>(
  q: FacetPageQuery<F>,
  required: true,
): FieldFacetRequest & { field: F };
export function fieldFacetRequest<F extends string>(
  q: FacetPageQuery<F>,
  required: false,
): (FieldFacetRequest & { field: F }) | null;
export function fieldFacetRequest<F extends string>(
  q: FacetPageQuery<F>,
  required: boolean,
): (FieldFacetRequest & { field: F }) | null {
  if (q.field === undefined) {
    if (required) throw validationError('field', 'is required');
    const stray = (['limit', 'sort', 'direction', 'cursor'] as const).find((k) => q[k] !== undefined);
    if (stray) throw validationError(stray, 'needs field: give the field to group by');
    return null;
  }
  return {
    field: q.field,
    limit: q.limit ?? FIELD_FACET_DEFAULT,
    sort: q.sort ?? 'value',
    direction: q.direction ?? 'asc',
    cursor: q.cursor,
  };
}

/** A page of buckets on the wire: `{field, items, limit, next_cursor}`, each bucket with its typed reference. */
export async function fieldFacetsWire(
  ctx: RequestContext,
  spec: FacetFieldSpec,
  page: FieldFacetPage,
  limit: number,
): Promise<Record<string, unknown>> {
  const values = page.items.map((b) => b.value);
  let refs: (Record<string, unknown> | null)[] = values.map(() => null);
  if (spec.ref === 'owner') {
    refs = (await ctx.loaders.user.loadMany(values)).map((u) =>
      u && !(u instanceof Error) ? toPublicUser(ctx, u) : null,
    );
  } else if (spec.ref === 'project') {
    refs = (await ctx.loaders.project.loadMany(values)).map((p) =>
      p && !(p instanceof Error) ? toLegacyProjectRef(p) : null,
    );
  } else if (spec.ref === 'instrument') {
    refs = (await ctx.loaders.instrument.loadMany(values)).map((i) =>
      i && !(i instanceof Error)
        ? { unique_id: i.uniqueId, instrument_id: i.instrumentId, instrument_name: i.instrumentName }
        : null,
    );
  }
  return {
    field: page.field,
    items: page.items.map((b, i) => ({
      value: b.value,
      label: b.label,
      count: b.count,
      ...(spec.ref ? { [spec.ref]: refs[i] } : {}),
    })),
    limit,
    next_cursor: page.nextCursor,
  };
}

const REF = Type.Union([Type.Object({ unique_id: Type.String() }), Type.Null()]);

/** A page of buckets of one field. */
export const FIELD_FACETS = Type.Object(
  {
    field: Type.String({ description: 'the field grouped by' }),
    items: Type.Array(
      Type.Object(
        {
          value: Type.String({ description: 'what the list filter takes: the text, or an MFID' }),
          label: NullableString({
            description:
              "for display: the value, the owner's username, the project's title, the instrument's name",
          }),
          count: Type.Integer({ minimum: 1, description: 'records of the result set carrying the value' }),
          owner: Type.Optional(REF),
          project: Type.Optional(REF),
          instrument: Type.Optional(REF),
        },
        { title: 'FacetBucket' },
      ),
    ),
    limit: Type.Integer({ minimum: 1, description: 'the page size applied' }),
    next_cursor: NullableString({ description: 'the cursor of the following page; null on the last' }),
  },
  { title: 'FieldFacets' },
);
