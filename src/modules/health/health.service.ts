import fs from 'node:fs';
import path from 'node:path';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Config } from '../../core/config';
import { schemaRevision } from '../../core/db/orm';

export interface Readiness {
  status: 'ok' | 'degraded';
  db: 'ok' | 'error';
  db_ms: number | null;
  database: {
    status: 'ok' | 'error';
    latency_ms: number | null;
    schema_revision: string | null;
    schema_revisions: string[];
    error?: string;
  };
  version: string;
  schema_revision: string | null;
  deployment: { git_commit: string | null; role: string; started_at: string };
  build: { api_version: string; git_commit: string | null; branch: string | null };
}

/** The version in package.json (also the OpenAPI document's `info.version`). */
export function packageVersion(): string {
  const root = path.resolve(__dirname, '..', '..', '..', '..');
  const candidates = [
    path.join(root, 'package.json'),
    path.resolve(__dirname, '..', '..', '..', 'package.json'),
  ];
  let version = '0.0.0';
  for (const file of candidates) {
    try {
      version = (JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string }).version;
      break;
    } catch {
      /* try the next location: dist/ and src/ sit at different depths */
    }
  }
  return version;
}

/** Reads the version from package.json and the commit from the environment or the checkout. */
export function provenance(config: Config): {
  version: string;
  commit: string | null;
  branch: string | null;
} {
  return {
    version: packageVersion(),
    commit: config.gitCommit ?? gitHead(process.cwd()),
    branch: gitBranch(process.cwd()),
  };
}

/** The branch of the checkout the process runs from (null: detached, or no checkout). */
function gitBranch(dir: string): string | null {
  try {
    const head = fs.readFileSync(path.join(dir, '.git', 'HEAD'), 'utf8').trim();
    return head.startsWith('ref: refs/heads/') ? head.slice('ref: refs/heads/'.length) : null;
  } catch {
    return null;
  }
}

function gitHead(dir: string): string | null {
  try {
    const head = fs.readFileSync(path.join(dir, '.git', 'HEAD'), 'utf8').trim();
    if (!head.startsWith('ref: ')) return head;
    const ref = head.slice(5);
    const loose = path.join(dir, '.git', ref);
    if (fs.existsSync(loose)) return fs.readFileSync(loose, 'utf8').trim();
    const packed = fs.readFileSync(path.join(dir, '.git', 'packed-refs'), 'utf8');
    const line = packed.split('\n').find((l) => l.endsWith(` ${ref}`));
    return line ? line.split(' ')[0] : null;
  } catch {
    return null;
  }
}

/** Liveness and readiness, without authentication. */
export class HealthService {
  private readonly meta: { version: string; commit: string | null; branch: string | null };
  private readonly startedAt = new Date().toISOString();

  constructor(
    private readonly orm: MikroORM,
    private readonly config: Config,
  ) {
    this.meta = provenance(config);
  }

  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  async ready(): Promise<Readiness> {
    const started = process.hrtime.bigint();
    let dbOk = true;
    let revision: string | null = null;
    let error: string | undefined;
    try {
      await this.orm.em.getConnection().execute('select 1');
      revision = await schemaRevision(this.orm);
    } catch (err) {
      dbOk = false;
      error = err instanceof Error ? err.message.slice(0, 200) : 'unreachable';
    }
    const ms = dbOk ? Number(process.hrtime.bigint() - started) / 1e6 : null;
    const latency = ms === null ? null : Math.round(ms * 100) / 100;
    return {
      status: dbOk ? 'ok' : 'degraded',
      db: dbOk ? 'ok' : 'error',
      db_ms: latency,
      database: {
        status: dbOk ? 'ok' : 'error',
        latency_ms: latency,
        schema_revision: revision,
        schema_revisions: revision ? [revision] : [],
        ...(error ? { error: 'unreachable' } : {}),
      },
      version: this.meta.version,
      schema_revision: revision,
      deployment: { git_commit: this.meta.commit, role: this.config.role, started_at: this.startedAt },
      build: { api_version: this.meta.version, git_commit: this.meta.commit, branch: this.meta.branch },
    };
  }
}
