import type { EntityManager } from '@mikro-orm/postgresql';
import { groupLoader } from '../../core/db/loader';
import { ProjectMember } from './project-member.entity';

/** The memberships of many projects in one query per batch, oldest first, with their users. */
export function projectMemberLoader(em: EntityManager) {
  return groupLoader<string, ProjectMember>(
    (ids) =>
      em.find(
        ProjectMember,
        { project: { $in: [...ids] } },
        { populate: ['user', 'project'], orderBy: { id: 'asc' }, refresh: true },
      ),
    (m) => m.project.uniqueId,
  );
}
