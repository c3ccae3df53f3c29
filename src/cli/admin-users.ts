import type { MikroORM } from '@mikro-orm/postgresql';
import { createPeopleServices } from '../modules/services';
import { User } from '../modules/user/user.entity';
import { Project } from '../modules/project/project.entity';
import { ProjectMember } from '../modules/project/project-member.entity';
import { isGrantable } from '../modules/permission/permission';
import { withDatabase } from './admin-db';
import { printResult, printRows } from './output';

/** Parsed options of one admin command (see admin.ts for the grammar). */
export interface AdminArgs {
  positional: string[];
  json: boolean;
  values: {
    username?: string;
    orcid?: string;
    email?: string;
    first?: string;
    last?: string;
    admin: boolean;
    'service-account': boolean;
    'no-key': boolean;
    user?: string;
    label?: string;
    'expires-days'?: string;
    project?: string;
    role: string;
    'transfer-to'?: string;
  };
}

const { user: users, userAdmin: admin, apiKeyAdmin: keys, userRemoval: removal } = createPeopleServices();

async function findUser(orm: MikroORM, id: string | undefined, option = '--user'): Promise<User> {
  if (!id) throw new Error(`${option} is required`);
  const user = await users.resolve(orm.em.fork(), id);
  if (!user) throw new Error(`no user matches ${id}`);
  return user;
}

/** The user a command names: `--user <id>` or its first argument. */
const userArg = (a: AdminArgs) => a.values.user ?? a.positional[0];

const userRow = (u: User) => ({
  unique_id: u.uniqueId,
  username: u.username ?? null,
  email: u.email ?? null,
  admin: u.platformRole === 'admin',
  platform_role: u.platformRole,
  service_account: u.isServiceAccount,
  disabled: Boolean(u.disabledAt),
  created: u.creationTime,
});

export const userCommands: Record<string, (a: AdminArgs) => Promise<void>> = {
  // the one user command that may start a new database: users can be made before the first start
  'create-user': (a) =>
    withDatabase(
      async (orm) => {
        const em = orm.em.fork();
        const user = await users.create(em, {
          uniqueId: a.values.orcid,
          username: a.values.username ?? null,
          email: a.values.email ?? null,
          firstName: a.values.first ?? null,
          lastName: a.values.last ?? null,
          platformRole: a.values.admin ? 'admin' : undefined,
          isServiceAccount: a.values['service-account'],
        });
        const secret = a.values['no-key']
          ? null
          : (await users.issueKey(em, user, { label: 'admin cli' })).secret;
        printResult(
          `Created user ${user.uniqueId}${user.username ? ` (${user.username})` : ''}.` +
            (secret ? `\nAPI key (shown once): ${secret}` : ''),
          { user: userRow(user), api_key: secret },
          a.json,
        );
      },
      { mayCreate: true },
    ),

  'create-key': (a) =>
    withDatabase(async (orm) => {
      const user = await findUser(orm, userArg(a));
      const days = a.values['expires-days'] ? Number(a.values['expires-days']) : undefined;
      if (days !== undefined && !(days > 0)) throw new Error('--expires-days must be a positive number');
      const expiresAt = days ? new Date(Date.now() + days * 86_400_000) : undefined;
      const { key, secret } = await users.issueKey(orm.em.fork(), user, { label: a.values.label, expiresAt });
      printResult(
        `API key for ${user.uniqueId} (shown once): ${secret}`,
        {
          user: user.uniqueId,
          key_id: key.uniqueId,
          prefix: key.prefix,
          expires_at: key.expiresAt ?? null,
          api_key: secret,
        },
        a.json,
      );
    }),

  'list-users': (a) =>
    withDatabase(async (orm) => {
      const rows = (await orm.em.fork().find(User, {}, { orderBy: { id: 'asc' } })).map(userRow);
      printRows(rows, ['unique_id', 'username', 'email', 'admin', 'service_account', 'disabled'], a.json);
    }),

  'list-keys': (a) =>
    withDatabase(async (orm) => {
      const id = userArg(a);
      const user = id ? await findUser(orm, id) : undefined;
      const rows = (await keys.listKeys(orm.em.fork(), user)).map((k) => ({
        prefix: k.prefix,
        key_id: k.keyId,
        user: k.userId,
        username: k.username,
        label: k.label,
        status: k.status,
        created: k.createdAt,
        expires: k.expiresAt,
        last_used: k.lastUsedAt,
        revoked: k.revokedAt,
      }));
      printRows(
        rows,
        ['prefix', 'key_id', 'user', 'username', 'label', 'status', 'created', 'last_used'],
        a.json,
      );
    }),

  'revoke-key': (a) =>
    withDatabase(async (orm) => {
      const prefix = a.positional[0];
      if (!prefix) throw new Error('give the prefix of the key to revoke (list-keys shows it)');
      const key = await keys.revokeKey(orm.em.fork(), prefix);
      printResult(
        `Revoked key ${key.prefix}… (${key.uniqueId}) of ${key.user.uniqueId}.`,
        { key_id: key.uniqueId, prefix: key.prefix, user: key.user.uniqueId, revoked_at: key.revokedAt },
        a.json,
      );
    }),

  'revoke-keys': (a) =>
    withDatabase(async (orm) => {
      const user = await findUser(orm, userArg(a));
      const count = await users.revokeKeys(orm.em.fork(), user);
      printResult(
        `Revoked ${count} key(s) of ${user.uniqueId}.`,
        { user: user.uniqueId, revoked: count },
        a.json,
      );
    }),

  'disable-user': (a) => setDisabled(a, true),
  'enable-user': (a) => setDisabled(a, false),
  'activate-user': (a) =>
    withDatabase(async (orm) => {
      const em = orm.em.fork();
      const user = await findUser(orm, userArg(a));
      await admin.activateUser(em, await em.findOneOrFail(User, { uniqueId: user.uniqueId }));
      printResult(
        `Activated ${user.uniqueId}: its sign-ins now open sessions.`,
        { user: user.uniqueId, active: true },
        a.json,
      );
    }),
  'sign-out': (a) =>
    withDatabase(async (orm) => {
      const user = await findUser(orm, userArg(a));
      const ended = await admin.endSessions(orm.em.fork(), user.uniqueId);
      printResult(
        `Ended ${ended} browser session(s) of ${user.uniqueId}.`,
        { user: user.uniqueId, ended },
        a.json,
      );
    }),

  'delete-user': (a) =>
    withDatabase(async (orm) => {
      const em = orm.em.fork();
      const user = await findUser(orm, userArg(a));
      const to = a.values['transfer-to'];
      const target = to ? await findUser(orm, to, '--transfer-to') : undefined;
      const { transferred } = await removal.deleteUser(em, user, target);
      const moved = transferred.map((o) => `${o.count} ${o.table}`).join(', ');
      printResult(
        `Deleted user ${user.uniqueId}${moved && target ? `; ${moved} now owned by ${target.uniqueId}` : ''}.`,
        { deleted: user.uniqueId, transferred_to: target?.uniqueId ?? null, transferred },
        a.json,
      );
    }),

  'add-member': (a) =>
    withDatabase(async (orm) => {
      const em = orm.em.fork();
      const user = await findUser(orm, a.values.user);
      const project = await em.findOne(
        Project,
        a.values.project?.length === 26
          ? { uniqueId: a.values.project }
          : { projectId: a.values.project ?? '' },
      );
      if (!project) throw new Error(`no project ${a.values.project}`);
      if (!isGrantable(a.values.role)) throw new Error('--role must be viewer, contributor, editor or admin');
      const member =
        (await em.findOne(ProjectMember, { project, user })) ?? em.create(ProjectMember, { project, user });
      member.role = a.values.role;
      await em.flush();
      printResult(
        `${user.uniqueId} is ${member.role} of ${project.projectId}.`,
        { user: user.uniqueId, project: project.projectId, role: member.role },
        a.json,
      );
    }),
};

function setDisabled(a: AdminArgs, disabled: boolean): Promise<void> {
  return withDatabase(async (orm) => {
    const em = orm.em.fork();
    const user = await findUser(orm, userArg(a));
    await admin.setDisabled(em, await em.findOneOrFail(User, { uniqueId: user.uniqueId }), disabled);
    printResult(
      `${disabled ? 'Disabled' : 'Enabled'} ${user.uniqueId}${disabled ? ': its keys no longer authenticate' : ''}.`,
      { user: user.uniqueId, disabled },
      a.json,
    );
  });
}
