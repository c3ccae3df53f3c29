import type { Router } from 'express';
import { handle, param } from '../../core/rest/handler';
import { qStr } from '../../core/rest/params';
import { toLegacyKeywordCount } from './keyword.legacy';

export function keywordRoutes(router: Router): void {
  router.get(
    '/datasets/:id/keywords',
    handle(async (ctx, req) =>
      (await ctx.services.keyword.ofDataset(ctx, param(req, 'id'))).map(toLegacyKeywordCount),
    ),
  );
  router.post(
    '/datasets/:id/keywords',
    handle(async (ctx, req) => {
      const body = req.body as { keyword?: unknown } | undefined;
      const keyword = qStr(req.query, 'keyword') ?? body?.keyword;
      return toLegacyKeywordCount(await ctx.services.keyword.add(ctx, param(req, 'id'), keyword));
    }, 201),
  );
}
