import { Router } from 'express';
import { forbidden } from '../../core/errors';
import type { Logger } from '../../core/logger';
import { mount, openRoute, type RouteSpec } from '../../core/rest/route';
import { QStr } from '../../core/rest/schema';
import { sendObject } from '../../core/storage/send';
import { SIGNED_OBJECT_PATH } from '../../core/storage/url-signer';
import type { DownloadService } from './download.service';
import type { ContextFactory } from '../../core/context-factory';

export const SIGNED_DOWNLOAD_SPEC = {
  method: 'get',
  path: `${SIGNED_OBJECT_PATH.replace(/^\/api\/v2/, '')}/*key`,
  tag: 'files',
  summary: 'A signed download URL (the signature is the credential: no API key)',
  description:
    'On the filesystem store the bytes (Range supported), in the media type the link names (`type`); on S3 a 307 redirect to a fresh presigned URL.',
  params: { key: 'the object key, one path segment (its slashes percent-encoded as %2F)' },
  // checked by the signature (a bad link is 403, not 422)
  query: {
    name: QStr('the file name to download as'),
    type: QStr('the media type'),
    expires: QStr('expiry time, seconds since the epoch'),
    embargo: QStr('`exempt` on links handed out under an embargo to a caller exempt from it'),
    signature: QStr('the signature over the rest'),
  },
  auth: false,
  responseType: '*/*',
  responses: {
    206: { description: 'A range of the bytes', type: '*/*' },
    307: { description: 'Redirect to the object store' },
  },
} as const satisfies RouteSpec;

/**
 * Signed download URLs served by the service itself, without an API key (the signature is the
 * credential; an Authorization header, which the legacy client always sends, is ignored).
 * Mounted before the API-key middleware. On the filesystem store the service streams the
 * bytes (with Range); on S3 it redirects to a fresh presigned URL, so the caller's API key
 * never reaches the storage host. A link that was not handed out under an embargo stops working
 * while the object's dataset is under one (`DownloadService.signedLinkOpen`).
 */
export function signedDownloadRouter(
  downloads: DownloadService,
  contexts: ContextFactory,
  log: Logger,
): Router {
  const router = Router();
  mount(router, [
    openRoute(SIGNED_DOWNLOAD_SPEC, async ({ params }, req, res) => {
      const grant = downloads.signer.verifyObject(params.key, req.query);
      if (!grant) throw forbidden('This download link is invalid or has expired');
      // the embargo is decided now, by the database, for every link (anonymous: no caller)
      const ctx = await contexts.forRequest(req.requestId, undefined, true);
      if (!(await downloads.signedLinkOpen(ctx.em, grant)))
        throw forbidden('The files of this dataset are under embargo: ask for a new link once it ends');
      const url = await downloads.redirectUrl(grant);
      if (url) res.redirect(307, url);
      else await sendObject(req, res, downloads.store, params.key, grant, log);
    }),
  ]);
  return router;
}
