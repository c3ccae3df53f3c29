// The naming rule for files in src/modules (README "File roles"): `<noun>.<role>.ts` only for a
// role of ROLES; any other file is a kebab-case name without a role suffix (`permission.ts`,
// `content-range.ts`, `metadata-store.ts`). Run by `npm run lint`; exits 1 naming the files.
import fs from 'node:fs';
import path from 'node:path';

export const ROLES = [
  'entity',
  'types',
  'fields',
  'filter',
  'service',
  'policy',
  'query',
  'loaders',
  'removal',
  'rest',
  'legacy',
  'resolver',
];

const root = path.join(import.meta.dirname, '..', 'src', 'modules');
const wrong = [];
for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
  const parts = entry.name.slice(0, -'.ts'.length).split('.');
  const ok =
    parts.every((p) => /^[a-z][a-z0-9-]*$/.test(p)) &&
    (parts.length === 1 || (parts.length === 2 && ROLES.includes(parts[1])));
  if (!ok) wrong.push(path.relative(process.cwd(), path.join(entry.parentPath, entry.name)));
}
if (wrong.length) {
  console.error(
    `File names outside the roles rule (<noun>.<role>.ts with a role of ${ROLES.join(', ')}; ` +
      `otherwise a kebab-case name):\n  ${wrong.join('\n  ')}`,
  );
  process.exit(1);
}
