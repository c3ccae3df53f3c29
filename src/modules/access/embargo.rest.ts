import { defineRoute, type Route } from '../../core/rest/route';
import { Checked, NullableString, Type } from '../../core/rest/schema';
import type { DatasetEmbargo } from './embargo.service';

const EMBARGO = Type.Object(
  {
    dataset_id: Type.String({ description: 'the dataset MFID' }),
    embargo_until: NullableString({
      format: 'date-time',
      description: "the dataset's own embargo (null: none)",
    }),
    files_open_at: NullableString({
      format: 'date-time',
      description: "when its files open: the later of its own and its published publications' embargoes",
    }),
    embargoed: Type.Boolean({ description: 'whether its files are under embargo now' }),
    bytes_readable: Type.Boolean({ description: 'whether you may read its files now' }),
  },
  { title: 'DatasetEmbargo' },
);

function toWire(e: DatasetEmbargo) {
  return {
    dataset_id: e.datasetId,
    embargo_until: e.embargoUntil?.toISOString() ?? null,
    files_open_at: e.filesOpenAt?.toISOString() ?? null,
    embargoed: e.embargoed,
    bytes_readable: e.bytesReadable,
  };
}

const tag = 'datasets';
const params = { id: 'the dataset MFID' };
const rule =
  'While embargoed, the files, download links, archives and thumbnails of the dataset are closed (403) to readers without a role on it (owner, project members, grantees, platform administrators); they open at that moment (docs/access-control.md, "Embargo").';

/** A dataset's embargo (docs/access-control.md, "Embargo"). */
export const embargoRoutes: Route[] = [
  defineRoute(
    {
      method: 'get',
      path: '/datasets/:id/embargo',
      tag,
      summary: "A dataset's embargo",
      description: rule,
      params,
      response: EMBARGO,
    },
    async (ctx, { params: p }) => toWire(await ctx.services.embargo.ofDataset(ctx, p.id)),
  ),
  defineRoute(
    {
      method: 'put',
      path: '/datasets/:id/embargo',
      tag,
      summary: "Set a dataset's embargo (needs admin on it)",
      description: rule,
      params,
      body: Type.Object(
        {
          embargo_until: Checked('an ISO 8601 date-time with offset, or a date; null lifts it', {
            type: ['string', 'null'],
          }),
        },
        { additionalProperties: false, title: 'DatasetEmbargoInput' },
      ),
      response: EMBARGO,
    },
    async (ctx, { params: p, body }) =>
      toWire(
        await ctx.services.embargo.setForDataset(
          ctx,
          p.id,
          (body as { embargo_until?: unknown }).embargo_until,
        ),
      ),
  ),
  defineRoute(
    {
      method: 'delete',
      path: '/datasets/:id/embargo',
      tag,
      summary: "Lift a dataset's own embargo (needs admin on it)",
      params,
      response: EMBARGO,
    },
    async (ctx, { params: p }) => toWire(await ctx.services.embargo.setForDataset(ctx, p.id, null)),
  ),
];
