import type { MikroORM } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import express, { Router, type Request, type Response, type NextFunction } from 'express';
import type { OaiService } from './oai.service';
import type { SitemapService } from './sitemap.service';

const XML = 'text/xml; charset=utf-8';
/** The most a POSTed OAI-PMH request may hold (its arguments are short: a token is under 1 KB). */
const MAX_FORM_BYTES = 8 * 1024;

/** The arguments of a request in the order sent, repeats kept (OAI-PMH refuses repeats). */
function argumentsOf(req: Request): [string, string][] | null {
  const query = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?') + 1) : '';
  const pairs = [...new URLSearchParams(query)];
  if (req.method === 'POST') {
    if (!req.is('application/x-www-form-urlencoded')) return null;
    pairs.push(...new URLSearchParams(typeof req.body === 'string' ? req.body : ''));
  }
  return pairs;
}

const wrap =
  (handler: (req: Request, res: Response) => Promise<void>) =>
  (req: Request, res: Response, next: NextFunction): void => {
    handler(req, res).catch(next);
  };

/**
 * The harvesting doors, open to everyone and outside the OpenAPI document (XML protocols of
 * their own; docs/publications.md "Harvesting"): OAI-PMH 2.0 at `/oai` (GET, and POST of a
 * form), the sitemap index at `/sitemap.xml` and its files at `/sitemaps/{n}.xml`.
 */
export function oaiRouter(orm: MikroORM, oai: OaiService, sitemaps: SitemapService): Router {
  const router = Router();
  const em = () => orm.em.fork() as EntityManager;
  const answer = wrap(async (req, res) => {
    const args = argumentsOf(req);
    if (!args) {
      res
        .status(415)
        .type('text/plain')
        .send('An OAI-PMH POST is a form: Content-Type: application/x-www-form-urlencoded');
      return;
    }
    res.type(XML).send(await oai.answer(em(), args));
  });
  router.get('/oai', answer);
  router.post(
    '/oai',
    express.text({ type: 'application/x-www-form-urlencoded', limit: MAX_FORM_BYTES }),
    answer,
  );
  router.get(
    '/sitemap.xml',
    wrap(async (_req, res) => {
      res.type(XML).send(await sitemaps.sitemapIndex(em()));
    }),
  );
  router.get(
    '/sitemaps/:file',
    wrap(async (req, res) => {
      const m = /^([1-9]\d{0,6})\.xml$/.exec(String(req.params.file));
      const body = m ? await sitemaps.sitemapFile(em(), Number(m[1])) : null;
      if (body === null) {
        res.status(404).type('text/plain').send('No such sitemap file: see /sitemap.xml');
        return;
      }
      res.type(XML).send(body);
    }),
  );
  return router;
}
