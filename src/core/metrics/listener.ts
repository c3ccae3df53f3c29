import http from 'node:http';
import express, { type Router } from 'express';
import { requestId } from '../http/middleware';
import { httpMetrics, metricsEndpoint } from './http';

/**
 * The operations listener (METRICS_PORT): `/metrics` and the health routes only, no API. It is
 * how a worker, which serves no API, is scraped and health-checked; any role may open it to keep
 * scraping off the public port.
 */
export async function startOpsListener(opts: {
  port: number;
  host: string;
  health: Router;
  metricsToken?: string;
}): Promise<{ port: number; close(): Promise<void> }> {
  const app = express();
  app.disable('x-powered-by');
  app.use(requestId);
  app.use(httpMetrics());
  app.get('/metrics', metricsEndpoint(opts.metricsToken));
  app.use(opts.health);
  app.use((_req, res) => {
    res.status(404).json({ detail: 'Only /metrics and /health/* are served here', code: 'NOT_FOUND' });
  });
  const server = http.createServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, resolve);
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : opts.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}
