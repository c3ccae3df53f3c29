import type { EntityManager } from '@mikro-orm/postgresql';
import { isMfid } from '../../core/ids';
import type { GrantablePermission } from '../permission/permission';
import type { User } from '../user/user.entity';
import { Project } from './project.entity';
import { ProjectMember } from './project-member.entity';

/** A project a user belongs to, with their role there. */
export interface Membership {
  project: Project;
  role: GrantablePermission;
}

/**
 * Plain project reads every caller may make (projects are directory records). It depends on
 * nothing but the database, so the access selectors use it without depending on the project
 * service (which depends on them).
 */
export class ProjectLookup {
  /** Finds a project by MFID or slug, or null. */
  find(em: EntityManager, idOrSlug: string): Promise<Project | null> {
    return em.findOne(Project, isMfid(idOrSlug) ? { uniqueId: idOrSlug } : { projectId: idOrSlug });
  }

  /** The projects a user belongs to, with their role; the projects they lead count as admin. */
  async membershipsOf(em: EntityManager, user: User): Promise<Membership[]> {
    const [members, led] = await Promise.all([
      em.find(ProjectMember, { user }, { populate: ['project'] }),
      em.find(Project, { owner: user }),
    ]);
    const byProject = new Map<string, Membership>();
    for (const m of members) byProject.set(m.project.uniqueId, { project: m.project, role: m.role });
    for (const p of led) byProject.set(p.uniqueId, { project: p, role: 'admin' });
    return [...byProject.values()].sort((a, b) => a.project.projectId.localeCompare(b.project.projectId));
  }
}
