import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { AppError } from '../core/errors';
import { userCommands, type AdminArgs } from './admin-users';
import { backupCommands } from './backup';
import { cliIo, withIo, type CliIo } from './output';

const HELP = `Catalog administration

  node dist/src/cli/admin.js <command> [options]     (no rebuild; after npm run build)
  npm run admin -- <command> [options]               (builds first)

Users and keys (<user>: ORCID, MFID, username or email):
  create-user --username <name> [--orcid <ORCID>] [--email <email>] [--first <name>] [--last <name>]
              [--admin] [--service-account] [--no-key]
      Creates a user (service accounts get an MFID) and prints its first API key, once
      (--no-key: none; issue one later with create-key).
  create-key  <user> [--label <text>] [--expires-days <n>]
      Issues another API key; the secret is printed once. A lost first key: create-key admin.
  list-users  [--json]
  list-keys   [<user>] [--json]
      Keys with their prefix, owner, label, status (active, expired, revoked), dates.
  revoke-key  <prefix>
      Revokes the one key whose prefix (from list-keys) starts so, or whose key id it is.
  revoke-keys <user>
      Revokes every active key of a user.
  disable-user <user> | enable-user <user>
      A disabled user's keys authenticate nothing and their browser sessions end; their records stay.
  activate-user <user>
      Activates an account a first sign-in through the OpenID provider left pending.
  sign-out <user>
      Ends every browser session of a user (sign out everywhere); keys are untouched.
  delete-user <user> [--transfer-to <user>]
      Deletes a user, their keys, memberships and the grants made to them. Refused while they own
      projects, instruments, datasets or samples, unless --transfer-to names the new owner.
  add-member  --project <slug|MFID> --user <user> [--role viewer|contributor|editor|admin]

Backups:
  backup <dir>
      Writes a consistent copy of the database (a logical dump, one snapshot) and of every stored
      file object into <dir>, which must be empty or absent. Works while the service runs.
  restore <dir>
      Checks every file of the backup against its manifest, then loads it into an empty database
      (a fresh DATA_DIR, or an empty DATABASE_URL) and its files into the configured object store.

Every command accepts --json (machine-readable output). The database is DATABASE_URL, or the
embedded one under DATA_DIR (default ./data; the running service's, if any): each command
names it on stderr. Without DATABASE_URL, a DATA_DIR holding no database is refused, except by
create-user and restore, which create one.`;

const OPTIONS = {
  json: { type: 'boolean', default: false },
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
  'transfer-to': { type: 'string' },
} as const;

const COMMANDS: Record<string, (a: AdminArgs) => Promise<void>> = { ...userCommands, ...backupCommands };

/**
 * Runs one admin command: `argv` as the command line gives it, settings and output from `io` (the
 * process's by default; a test passes its own and runs commands in-process). Answers the exit
 * code: 0 done, 1 the command failed (its reason on stderr), 2 no such command (help printed).
 */
export function runAdmin(argv: string[], io: CliIo = cliIo()): Promise<number> {
  return withIo(io, async () => {
    const [command, ...rest] = argv;
    const run = command ? COMMANDS[command] : undefined;
    if (!run) {
      io.out(`${HELP}\n`);
      return command && command !== 'help' && command !== '--help' ? 2 : 0;
    }
    try {
      const { values, positionals } = parseArgs({ args: rest, options: OPTIONS, allowPositionals: true });
      await run({ positional: positionals, json: values.json, values });
      return 0;
    } catch (err) {
      io.err(`error: ${err instanceof AppError || err instanceof Error ? err.message : String(err)}\n`);
      return 1;
    }
  });
}
