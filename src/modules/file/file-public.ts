import { Router, type Request, type Response } from 'express';
import { forbidden } from '../../core/errors';
import type { Logger } from '../../core/logger';
import { param } from '../../core/rest/handler';
import { sendObject } from '../../core/storage/send';
import { SIGNED_OBJECT_PATH } from '../../core/storage/url-signer';
import type { DownloadService } from './download.service';

/**
 * Signed download URLs served by the service itself, without an API key (the signature is the
 * credential; an Authorization header, which the legacy client always sends, is ignored).
 * Mounted before the API-key middleware. On the filesystem store the service streams the
 * bytes (with Range); on S3 it redirects to a fresh presigned URL, so the caller's API key
 * never reaches the storage host.
 */
export function signedDownloadRouter(downloads: DownloadService, log: Logger): Router {
  const router = Router();
  const prefix = SIGNED_OBJECT_PATH.replace(/^\/api\/v2/, '');
  router.get(`${prefix}/*key`, (req: Request, res: Response, next) => {
    const key = param(req, 'key');
    const grant = downloads.signer.verifyObject(key, req.query);
    if (!grant) {
      next(forbidden('This download link is invalid or has expired'));
      return;
    }
    downloads
      .redirectUrl(grant)
      .then(async (url) => {
        if (url) res.redirect(307, url);
        else await sendObject(req, res, downloads.store, key, grant, log);
      })
      .catch(next);
  });
  return router;
}
