import { startTestApp, type TestApp } from '../support/app';
import { rest } from '../support/http';
import { addMember, grant, makeProject, makeUser, unique, type TestUser } from '../support/factories';
import { newDataset } from '../support/catalog';
import type { AccessSubject } from '../../src/modules/permission/access.service';
import type { Project } from '../../src/modules/project/project.entity';

/**
 * Previews ask about many users at once with their scopes and the record's grants loaded in
 * two statements (`loadScopes`, `grantsOn`, `RequestContext.as(user, preloaded)`). Those answers
 * must be exactly the ones each user's own request would get: grants to users, projects and
 * named groups, project roles, leads, ownership, the public flag, platform admins.
 */
let t: TestApp;
let admin: TestUser;
let owner: TestUser;
const users: TestUser[] = [];
let home: Project;
let other: Project;
let dataset: string;

beforeAll(async () => {
  t = await startTestApp();
  admin = await makeUser(t.app, { admin: true });
  owner = await makeUser(t.app);
  for (let i = 0; i < 8; i++) users.push(await makeUser(t.app));
  home = await makeProject(t.app, users[0].user);
  other = await makeProject(t.app, users[1].user);
  await addMember(t.app, home, users[2].user, 'viewer');
  await addMember(t.app, other, users[3].user, 'editor');
  await addMember(t.app, other, users[4].user, 'contributor');
  dataset = await newDataset(t.url, admin.key, {
    owner: owner.user.uniqueId,
    project_id: home.projectId,
  });
  await grant(t.app, dataset, 'dataset', 'user', users[5].user.uniqueId, 'editor');
  await grant(t.app, dataset, 'dataset', 'project', other.uniqueId, 'contributor');
  const group = unique('preload-group');
  await rest(t.url, 'POST', `/users/${users[6].user.uniqueId}/access_groups/${group}`, { key: admin.key });
  const shared = await rest(t.url, 'PUT', `/resources/${dataset}/access/groups/${group}`, {
    key: admin.key,
    body: { permission: 'admin' },
  });
  expect(shared.status).toBe(200);
});
afterAll(() => t.close());

test('preloaded scopes and grants answer as each user would be answered alone', async () => {
  const ctx = await t.app.contexts.forRequest('preload', `Bearer ${admin.key}`, false);
  const everyone = [admin, owner, ...users].map((u) => u.user);
  const base: AccessSubject = {
    uniqueId: dataset,
    type: 'dataset',
    ownerId: owner.user.uniqueId,
    projectMfid: home.uniqueId,
    public: false,
  };
  const subjects: AccessSubject[] = [
    base,
    { ...base, projectMfid: other.uniqueId },
    { ...base, projectMfid: null, public: true },
    { ...base, ownerId: users[7].user.uniqueId },
  ];
  const scopes = await t.app.services.access.loadScopes(ctx.em, everyone);
  const grants = await t.app.services.access.grantsOn(ctx.em, [dataset]);
  const alone: (string | null)[] = [];
  const preloaded: (string | null)[] = [];
  for (const user of everyone) {
    for (const subject of subjects) {
      alone.push(await t.app.services.access.effective(ctx.as(user), subject));
      const as = ctx.as(user, { scope: scopes.get(user.uniqueId), grants });
      preloaded.push(await t.app.services.access.effective(as, subject));
    }
  }
  expect(preloaded).toEqual(alone);
  // the cases are not vacuous: the users hold many different levels
  expect(new Set(alone).size).toBeGreaterThanOrEqual(5);
});
