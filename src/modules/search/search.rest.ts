import type { Router } from 'express';
import type { Request } from 'express';
import { handle } from '../../core/rest/handler';
import { qInt, qStr } from '../../core/rest/params';
import { toLegacyDataset } from '../dataset/dataset.legacy';
import { toLegacySample } from '../sample/sample.legacy';
import { toLegacyProject } from '../project/project.legacy';
import { toLegacyInstrument } from '../instrument/instrument.legacy';
import { toPublicUser } from '../user/user.legacy';
import type { SearchInput } from './search.service';

function input(req: Request): SearchInput {
  return {
    q: qStr(req.query, 'q'),
    limit: qInt(req.query, 'limit', 20, 1, Number.MAX_SAFE_INTEGER),
    projectId: qStr(req.query, 'project_id'),
  };
}

/** Fuzzy name search; each answers a plain list (literal paths: mount before `/<type>/:id`). */
export function searchRoutes(router: Router): void {
  router.get(
    '/datasets/search',
    handle(async (ctx, req) => {
      const found = await ctx.services.search.datasets(ctx, input(req));
      return Promise.all(found.map((ds) => toLegacyDataset(ctx, ds)));
    }),
  );
  router.get(
    '/samples/search',
    handle(async (ctx, req) => {
      const found = await ctx.services.search.samples(ctx, input(req));
      return Promise.all(found.map((s) => toLegacySample(ctx, s)));
    }),
  );
  router.get(
    '/projects/search',
    handle(async (ctx, req) => {
      const found = await ctx.services.search.projectsByName(ctx, input(req));
      // never the lead or metadata here (reference #69)
      return Promise.all(
        found.map(async (p) => {
          const { lead: _lead, project_lead_email: _email, ...rest } = await toLegacyProject(ctx, p);
          return rest;
        }),
      );
    }),
  );
  router.get(
    '/instruments/search',
    handle(async (ctx, req) => {
      const found = await ctx.services.search.instruments(ctx, input(req));
      return Promise.all(found.map((i) => toLegacyInstrument(ctx, i)));
    }),
  );
  router.get(
    '/users/search',
    handle(async (ctx, req) => {
      const found = await ctx.services.search.users(ctx, input(req));
      return found.map((u) => ({ ...toPublicUser(ctx, u), orcid: u.uniqueId }));
    }),
  );
}
