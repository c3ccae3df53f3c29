import { Router, type NextFunction, type Request, type Response } from 'express';
import type { ContextFactory } from '../../core/context-factory';
import type { RequestContext } from '../../core/context';
import { AppError, validationError } from '../../core/errors';
import type { PublicationService } from './publication.service';
import { EXPORT_FORMAT_NAMES, negotiated } from './citation-export';
import {
  COPY_SCRIPT,
  LANDING_ASSETS,
  LANDING_CSS,
  landingHtml,
  notFoundHtml,
  problemHtml,
  tombstoneHtml,
} from './publication-landing-html';
import { LINKSET_TYPE, linkHeader, linkset, tombstoneLinkHeader } from './publication-landing-links';
import { landingUrl } from './citation-record';

/** The landing page's own policy: nothing but its style sheet and script, from this origin. */
const CSP = [
  "default-src 'none'",
  "style-src 'self'",
  "script-src 'self'",
  "img-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** How long a landing page, a linkset or an export may be kept by caches (a withdrawal shows after). */
const CACHE = 'public, max-age=60';

function htmlHeaders(res: Response): void {
  res.setHeader('content-type', 'text/html; charset=utf-8');
  res.setHeader('content-security-policy', CSP);
  res.setHeader('x-content-type-options', 'nosniff');
  res.setHeader('referrer-policy', 'same-origin');
}

/** An unknown query parameter: every landing route takes none (422, as the API answers). */
function queryProblem(req: Request): AppError | null {
  const names = Object.keys(req.query);
  if (!names.length) return null;
  return validationError(names[0], `unknown query parameter ${names[0]}: this page takes none`);
}

/**
 * The landing pages of publications (docs/publications.md, "Landing pages"), outside /api:
 * `GET /publications/{id}` (HTML, or an export format asked by `Accept`), its RFC 9264 linkset
 * and its exports at explicit URLs, and the page's style sheet and copy script under /landing.
 * Every request is read as an anonymous reader's, whatever credential it carries: drafts are
 * never on landing pages (404, the page a missing id gets), published ones are, withdrawn
 * ones are 410 tombstones. Mounted before the web app, whose fallback page would otherwise
 * answer these paths.
 */
export function landingRouter(publications: PublicationService, contexts: ContextFactory): Router {
  const router = Router();
  const anonymous = (req: Request): Promise<RequestContext> =>
    contexts.forRequest(req.requestId, undefined, true);

  router.get(`${LANDING_ASSETS}/landing.css`, (_req, res) => {
    res.setHeader('cache-control', 'public, max-age=3600');
    res.setHeader('x-content-type-options', 'nosniff');
    res.type('text/css').send(LANDING_CSS);
  });
  router.get(`${LANDING_ASSETS}/copy-citation.js`, (_req, res) => {
    res.setHeader('cache-control', 'public, max-age=3600');
    res.setHeader('x-content-type-options', 'nosniff');
    res.type('text/javascript').send(COPY_SCRIPT);
  });

  router.get('/publications/:id', async (req: Request, res: Response, next: NextFunction) => {
    const id = String(req.params.id);
    res.vary('Accept');
    try {
      const format = negotiated(req.headers.accept);
      const problem = queryProblem(req);
      if (format) {
        if (problem) throw problem;
        await sendExport(publications, await anonymous(req), id, format, res);
        return;
      }
      if (problem) {
        htmlHeaders(res);
        res.setHeader('cache-control', 'no-store');
        res.status(422).send(problemHtml('Unknown query parameter', problem.message));
        return;
      }
      const ctx = await anonymous(req);
      const { pub, record, versions } = await publications.withCitation(ctx, id);
      htmlHeaders(res);
      res.setHeader('cache-control', CACHE);
      if (pub.state === 'withdrawn') {
        res.setHeader('link', tombstoneLinkHeader(record));
        res.status(410).send(tombstoneHtml(record, pub.withdrawnAt ?? null));
        return;
      }
      const base = publications.citationSettings.baseUrl;
      const neighbour = (p: typeof versions.previous) =>
        p && p.state !== 'draft' ? { url: landingUrl(base, p.uniqueId), version: p.metadata.version } : null;
      res.setHeader('link', linkHeader(record, `${record.url}/linkset`));
      res
        .status(200)
        .send(
          landingHtml(record, { previous: neighbour(versions.previous), next: neighbour(versions.next) }),
        );
    } catch (err) {
      if (err instanceof AppError && err.code === 'NOT_FOUND' && !negotiated(req.headers.accept)) {
        htmlHeaders(res);
        res.setHeader('cache-control', 'no-store');
        res.status(404).send(notFoundHtml(id));
        return;
      }
      next(err);
    }
  });

  router.get('/publications/:id/linkset', async (req: Request, res: Response, next: NextFunction) => {
    try {
      const problem = queryProblem(req);
      if (problem) throw problem;
      const { pub, record } = await publications.withCitation(await anonymous(req), String(req.params.id));
      // a tombstone has no linkset (its page is a 410 with the citation only)
      if (pub.state === 'withdrawn')
        throw new AppError('NOT_FOUND', `Publication ${pub.uniqueId} was withdrawn: it has no linkset`);
      res.setHeader('cache-control', CACHE);
      res.setHeader('x-content-type-options', 'nosniff');
      res.type(LINKSET_TYPE).send(JSON.stringify(linkset(record), null, 2));
    } catch (err) {
      next(err);
    }
  });

  router.get('/publications/:id/export/:format', async (req: Request, res: Response, next: NextFunction) => {
    try {
      const problem = queryProblem(req);
      if (problem) throw problem;
      await sendExport(
        publications,
        await anonymous(req),
        String(req.params.id),
        String(req.params.format),
        res,
      );
    } catch (err) {
      next(err);
    }
  });

  return router;
}

async function sendExport(
  publications: PublicationService,
  ctx: RequestContext,
  id: string,
  format: string,
  res: Response,
): Promise<void> {
  if (!(EXPORT_FORMAT_NAMES as string[]).includes(format))
    throw validationError('format', `must be one of ${EXPORT_FORMAT_NAMES.join(', ')}`);
  const out = await publications.exportAs(ctx, id, format);
  res.setHeader('cache-control', CACHE);
  res.setHeader('x-content-type-options', 'nosniff');
  res.status(200).type(out.mediaType).send(out.body);
}
