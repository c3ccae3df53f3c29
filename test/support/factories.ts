import { randomBytes } from 'node:crypto';
import type { App } from '../../src/app';
import type { User } from '../../src/modules/user/user.entity';
import type { GrantablePermission } from '../../src/modules/permission/permission';
import { Project } from '../../src/modules/project/project.entity';
import { ProjectMember } from '../../src/modules/project/project-member.entity';
import { AccessGrant } from '../../src/modules/access/access-grant.entity';
import { type ResourceType } from '../../src/modules/permission/permission';
import { newMfid } from '../../src/core/ids';
import type { PlatformRole } from '../../src/core/auth/privilege';

export const unique = (prefix: string): string => `${prefix}-${randomBytes(4).toString('hex')}`;

export interface TestUser {
  user: User;
  key: string;
}

/** A user with a fresh API key. */
export async function makeUser(
  app: App,
  opts: {
    admin?: boolean;
    role?: PlatformRole;
    serviceAccount?: boolean;
    orcid?: string;
    username?: string;
    email?: string;
  } = {},
): Promise<TestUser> {
  const em = app.orm.em.fork();
  const username = opts.username ?? unique('user');
  const user = await app.services.user.create(em, {
    uniqueId: opts.orcid,
    username,
    email: opts.email ?? `${username}@example.org`,
    firstName: 'Test',
    lastName: username,
    platformRole: opts.role ?? (opts.admin ? 'admin' : 'contributor'),
    isServiceAccount: opts.serviceAccount ?? false,
  });
  const { secret } = await app.services.user.issueKey(em, user);
  return { user, key: secret };
}

/** A project led by `lead`, written directly (creating projects through the API needs admin). */
export async function makeProject(app: App, lead: User, slug = unique('proj')): Promise<Project> {
  const em = app.orm.em.fork();
  const project = em.create(Project, {
    uniqueId: newMfid(),
    projectId: slug,
    title: `Project ${slug}`,
    owner: lead.uniqueId,
  });
  await em.flush();
  return project;
}

export async function addMember(
  app: App,
  project: Project,
  user: User,
  role: GrantablePermission,
): Promise<void> {
  const em = app.orm.em.fork();
  em.create(ProjectMember, { project: project.uniqueId, user: user.uniqueId, role });
  await em.flush();
}

export async function grant(
  app: App,
  resourceId: string,
  resourceType: ResourceType,
  principalType: 'user' | 'project',
  principalId: string,
  permission: GrantablePermission,
): Promise<void> {
  const em = app.orm.em.fork();
  em.create(AccessGrant, { resourceId, resourceType, principalType, principalId, permission });
  await em.flush();
}

/** A random ORCID-shaped id (checksum not enforced by the service). */
export function randomOrcid(): string {
  const digits = () => String(Math.floor(Math.random() * 10000)).padStart(4, '0');
  return `${digits()}-${digits()}-${digits()}-${digits().slice(0, 3)}X`;
}
