import 'reflect-metadata';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { MikroORM } from '@mikro-orm/postgresql';
import { loadConfig } from '../core/config';
import { createOrm, migrate } from '../core/db/orm';
import { ENTITIES } from '../modules/entities';
import { runningEmbeddedUrl, startEmbeddedPostgres, type EmbeddedPostgres } from '../core/db/embedded';
import { AppError } from '../core/errors';
import { UserService } from '../modules/user/user.service';
import { UserPolicy } from '../modules/user/user.policy';
import { User } from '../modules/user/user.entity';
import { Project } from '../modules/project/project.entity';
import { ProjectMember } from '../modules/project/project-member.entity';
import { isGrantable } from '../modules/access/permission';

const HELP = `Catalog administration (npm run admin -- <command> [options])

  create-user --username <name> [--orcid <ORCID>] [--email <email>] [--first <name>] [--last <name>]
              [--admin] [--service-account] [--no-key]
      Creates a user (service accounts get an MFID) and prints a new API key for it.
  create-key  --user <ORCID|MFID|username|email> [--label <text>] [--expires-days <n>]
      Issues another API key; the secret is printed once.
  revoke-keys --user <ORCID|MFID|username|email>
      Revokes every active key of a user.
  add-member  --project <slug|MFID> --user <ORCID|MFID|username|email> [--role viewer|contributor|editor|admin]
      Adds a user to a project (or changes their role).
  list-users
      Lists users.

The database is DATABASE_URL, or the embedded one under DATA_DIR (the running service's, if any).`;

/** Writes a line for the operator (this is a command-line tool: its output is the interface). */
const out = (text: string) => process.stdout.write(`${text}\n`);

async function withOrm<T>(fn: (orm: MikroORM) => Promise<T>): Promise<T> {
  const config = loadConfig();
  let url = config.databaseUrl ?? runningEmbeddedUrl(config.dataDir);
  let embedded: EmbeddedPostgres | undefined;
  if (!url) {
    embedded = await startEmbeddedPostgres({ dir: path.join(config.dataDir, 'db') });
    url = embedded.url;
  }
  const orm = await createOrm({ clientUrl: url, entities: ENTITIES, poolMax: 2 });
  try {
    await migrate(orm);
    return await fn(orm);
  } finally {
    await orm.close(true);
    await embedded?.stop();
  }
}

async function findUser(orm: MikroORM, users: UserService, id: string | undefined): Promise<User> {
  if (!id) throw new Error('--user is required');
  const user = await users.resolve(orm.em.fork(), id);
  if (!user) throw new Error(`no user matches ${id}`);
  return user;
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: {
      username: { type: 'string' },
      orcid: { type: 'string' },
      email: { type: 'string' },
      first: { type: 'string' },
      last: { type: 'string' },
      admin: { type: 'boolean', default: false },
      'service-account': { type: 'boolean', default: false },
      'no-key': { type: 'boolean', default: false },
      user: { type: 'string' },
      label: { type: 'string' },
      'expires-days': { type: 'string' },
      project: { type: 'string' },
      role: { type: 'string', default: 'contributor' },
    },
  });
  const users = new UserService(new UserPolicy());
  switch (command) {
    case 'create-user':
      return withOrm(async (orm) => {
        const em = orm.em.fork();
        const user = await users.create(em, {
          uniqueId: values.orcid,
          username: values.username ?? null,
          email: values.email ?? null,
          firstName: values.first ?? null,
          lastName: values.last ?? null,
          isPlatformAdmin: values.admin,
          isServiceAccount: values['service-account'],
        });
        out(`Created user ${user.uniqueId}${user.username ? ` (${user.username})` : ''}.`);
        if (!values['no-key'])
          out(`API key (shown once): ${(await users.issueKey(em, user, { label: 'admin cli' })).secret}`);
      });
    case 'create-key':
      return withOrm(async (orm) => {
        const user = await findUser(orm, users, values.user);
        const days = values['expires-days'] ? Number(values['expires-days']) : undefined;
        if (days !== undefined && !(days > 0)) throw new Error('--expires-days must be a positive number');
        const expiresAt = days ? new Date(Date.now() + days * 86_400_000) : undefined;
        const { secret } = await users.issueKey(orm.em.fork(), user, { label: values.label, expiresAt });
        out(`API key for ${user.uniqueId} (shown once): ${secret}`);
      });
    case 'revoke-keys':
      return withOrm(async (orm) => {
        const user = await findUser(orm, users, values.user);
        out(`Revoked ${await users.revokeKeys(orm.em.fork(), user)} key(s) of ${user.uniqueId}.`);
      });
    case 'add-member':
      return withOrm(async (orm) => {
        const em = orm.em.fork();
        const user = await findUser(orm, users, values.user);
        const project = await em.findOne(
          Project,
          values.project?.length === 26 ? { uniqueId: values.project } : { projectId: values.project ?? '' },
        );
        if (!project) throw new Error(`no project ${values.project}`);
        if (!isGrantable(values.role)) throw new Error('--role must be viewer, contributor, editor or admin');
        const member =
          (await em.findOne(ProjectMember, { project, user })) ?? em.create(ProjectMember, { project, user });
        member.role = values.role;
        await em.flush();
        out(`${user.uniqueId} is ${member.role} of ${project.projectId}.`);
      });
    case 'list-users':
      return withOrm(async (orm) => {
        for (const u of await orm.em.fork().find(User, {}, { orderBy: { id: 'asc' } })) {
          const flags = [u.isPlatformAdmin ? 'admin' : '', u.isServiceAccount ? 'service-account' : '']
            .filter(Boolean)
            .join(',');
          out(`${u.uniqueId}\t${u.username ?? ''}\t${u.email ?? ''}\t${flags}`);
        }
      });
    default:
      out(HELP);
      if (command && command !== 'help') process.exitCode = 2;
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  process.stderr.write(
    `error: ${err instanceof AppError || err instanceof Error ? err.message : String(err)}\n`,
  );
  process.exit(1);
});
