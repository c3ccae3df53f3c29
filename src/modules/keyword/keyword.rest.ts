import { defineRoute, type Route } from '../../core/rest/route';
import { Checked, MESSAGE, QStr, Type } from '../../core/rest/schema';
import { KEYWORD, toLegacyKeywordCount } from './keyword.legacy';

const tag = 'datasets';
const id = { id: 'the dataset MFID' };

export const keywordRoutes: Route[] = [
  defineRoute(
    {
      method: 'get',
      path: '/datasets/:id/keywords',
      tag,
      summary: "A dataset's keywords, with how many datasets carry each",
      params: id,
      response: Type.Array(KEYWORD),
    },
    async (ctx, { params }) =>
      (await ctx.services.keyword.ofDataset(ctx, params.id)).map(toLegacyKeywordCount),
  ),
  defineRoute(
    {
      method: 'post',
      path: '/datasets/:id/keywords',
      tag,
      summary: 'Add a keyword to a dataset (in the query, or in the body)',
      params: id,
      query: { keyword: QStr('the keyword (wins over the body)') },
      body: Type.Object({ keyword: Type.Optional(Checked('the keyword')) }),
      status: 201,
      response: KEYWORD,
    },
    async (ctx, { params, query, body }) => {
      const keyword = query.keyword ?? (body as { keyword?: unknown }).keyword;
      return toLegacyKeywordCount(await ctx.services.keyword.add(ctx, params.id, keyword));
    },
  ),
  defineRoute(
    {
      method: 'delete',
      path: '/datasets/:id/keywords',
      tag,
      summary: 'Remove a keyword from a dataset (editors; one it does not carry: nothing changes)',
      params: id,
      query: { keyword: QStr('the keyword (any case)') },
      response: MESSAGE,
    },
    async (ctx, { params, query }) => {
      const removed = await ctx.services.keyword.remove(ctx, params.id, query.keyword);
      return {
        detail:
          removed === null
            ? `The dataset does not carry keyword ${String(query.keyword)}`
            : `Keyword ${removed} removed`,
      };
    },
  ),
];
