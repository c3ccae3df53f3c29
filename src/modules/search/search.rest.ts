import { defineRoute, type Route, type RouteSpec } from '../../core/rest/route';
import {
  Enum,
  QBool,
  QInt,
  QStr,
  Type,
  type Static,
  type TObject,
  type TSchema,
} from '../../core/rest/schema';
import { INSTRUMENT_STATUSES } from '../instrument/instrument.entity';
import { DATASET, toLegacyDataset } from '../dataset/dataset.legacy';
import { SAMPLE, toLegacySample } from '../sample/sample.legacy';
import { PROJECT, toLegacyProject } from '../project/project.legacy';
import { INSTRUMENT, toLegacyInstrument } from '../instrument/instrument.legacy';
import { PUBLIC_USER, toPublicUser } from '../user/user.legacy';

const SEARCH_QUERY = {
  q: Type.String({ description: 'the name to look for (fuzzy; 3 to 200 characters)' }),
  limit: QInt('results', { minimum: 1, default: 20 }),
  project_id: QStr('only in this project'),
};
type SearchQuery = Static<TObject<typeof SEARCH_QUERY>>;

const input = (q: SearchQuery) => ({ q: q.q, limit: q.limit ?? 20, projectId: q.project_id });

function search<const P extends string>(
  path: P,
  noun: string,
  item: TSchema,
): RouteSpec<P, typeof SEARCH_QUERY> {
  return {
    method: 'get',
    path,
    tag: 'search',
    summary: `Fuzzy search of ${noun} by name (a plain list)`,
    query: SEARCH_QUERY,
    response: Type.Array(item),
  };
}

/** Fuzzy name search; each answers a plain list (literal paths: mount before `/<type>/:id`). */
export const searchRoutes: Route[] = [
  defineRoute(search('/datasets/search', 'datasets', DATASET), async (ctx, { query }) => {
    const found = await ctx.services.search.datasets(ctx, input(query));
    return Promise.all(found.map((ds) => toLegacyDataset(ctx, ds)));
  }),
  defineRoute(search('/samples/search', 'samples', SAMPLE), async (ctx, { query }) => {
    const found = await ctx.services.search.samples(ctx, input(query));
    return Promise.all(found.map((s) => toLegacySample(ctx, s)));
  }),
  defineRoute(search('/projects/search', 'projects', PROJECT), async (ctx, { query }) => {
    const found = await ctx.services.search.projectsByName(ctx, input(query));
    // never the lead or metadata here (reference #69)
    return Promise.all(
      found.map(async (p) => {
        const { lead: _lead, project_lead_email: _email, ...rest } = await toLegacyProject(ctx, p);
        return rest;
      }),
    );
  }),
  defineRoute(
    {
      ...search('/instruments/search', 'instruments', INSTRUMENT),
      query: {
        ...SEARCH_QUERY,
        include_owner: QBool('`owner` (always included)', true),
        status: Type.Optional(
          Type.Array(Enum(INSTRUMENT_STATUSES), {
            description: 'only in one of these statuses (repeatable)',
          }),
        ),
        affiliation: Type.Optional(
          Type.Array(Enum(['owner', 'maintainer'] as const), {
            description:
              'only instruments you own (owner) or maintain (maintainer: an editor or admin grant)',
          }),
        ),
      },
    },
    async (ctx, { query }) => {
      const found = await ctx.services.search.instruments(ctx, {
        ...input(query),
        status: query.status,
        affiliation: query.affiliation,
      });
      return Promise.all(found.map((i) => toLegacyInstrument(ctx, i)));
    },
  ),
  defineRoute(search('/users/search', 'users', PUBLIC_USER), async (ctx, { query }) => {
    const found = await ctx.services.search.users(ctx, input(query));
    return found.map((u) => ({ ...toPublicUser(ctx, u), orcid: u.uniqueId }));
  }),
];
