import { Router } from 'express';
import type { HealthService } from './health.service';

/** /health/live and /health/ready, open to everyone (also mounted under /api/v2). */
export function healthRouter(health: HealthService): Router {
  const router = Router();
  router.get('/health/live', (_req, res) => {
    res.json(health.live());
  });
  router.get('/health/ready', (_req, res, next) => {
    health
      .ready()
      .then((r) => res.status(r.status === 'ok' ? 200 : 503).json(r))
      .catch(next);
  });
  return router;
}
