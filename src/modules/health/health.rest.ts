import { Router } from 'express';
import { mount, openRoute, type RouteSpec } from '../../core/rest/route';
import { NullableString, Type } from '../../core/rest/schema';
import type { HealthService } from './health.service';

const READINESS = Type.Object(
  {
    status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
    db: Type.Union([Type.Literal('ok'), Type.Literal('error')]),
    db_ms: Type.Union([Type.Number(), Type.Null()]),
    database: Type.Object({
      status: Type.String(),
      latency_ms: Type.Union([Type.Number(), Type.Null()]),
      schema_revision: NullableString(),
      schema_revisions: Type.Array(Type.String(), {
        description:
          'the applied schema heads (one: the migrations are a single chain); empty when unreachable',
      }),
      error: Type.Optional(Type.String()),
    }),
    build: Type.Object(
      {
        api_version: Type.String(),
        git_commit: NullableString(),
        branch: NullableString({
          description: 'the checked-out branch, when the service runs from a checkout',
        }),
      },
      { description: 'what the 3.2 client shows in `crucible status`' },
    ),
    version: Type.String(),
    schema_revision: NullableString(),
    deployment: Type.Object({
      git_commit: NullableString(),
      role: Type.String(),
      started_at: Type.String({ format: 'date-time' }),
    }),
  },
  { title: 'Readiness' },
);

export const HEALTH_SPECS = {
  live: {
    method: 'get',
    path: '/health/live',
    summary: 'Liveness: the process answers',
    tag: 'health',
    auth: false,
    response: Type.Object({ status: Type.Literal('ok') }),
  },
  ready: {
    method: 'get',
    path: '/health/ready',
    summary: 'Readiness: the database answers (503 while it does not)',
    tag: 'health',
    auth: false,
    response: READINESS,
    responses: { 503: { description: 'The database is unreachable', schema: READINESS } },
  },
} as const satisfies Record<string, RouteSpec>;

/** /health/live and /health/ready, open to everyone (also mounted under /api/v2). */
export function healthRouter(health: HealthService): Router {
  const router = Router();
  mount(router, [
    openRoute(HEALTH_SPECS.live, (_input, _req, res) => {
      res.json(health.live());
      return Promise.resolve();
    }),
    openRoute(HEALTH_SPECS.ready, async (_input, _req, res) => {
      const r = await health.ready();
      res.status(r.status === 'ok' ? 200 : 503).json(r);
    }),
  ]);
  return router;
}
