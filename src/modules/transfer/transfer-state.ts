import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { rawQuery } from '../../core/db/raw';
import type { ResourceType } from '../permission/permission';
import type { GrantService } from '../access/grant.service';
import type { OwnershipRow, ResourceService } from '../resource/resource.service';

export type ChangeAction = 'transfer_ownership' | 'reassign_project';

/**
 * Every piece of stored state a preview depends on: the record's ownership columns, the change
 * asked for, the record's grants, the members and leads of the projects involved, the members
 * of the groups granted access, and the related records. Its digest is the preview token.
 */
export interface ChangeState {
  action: ChangeAction;
  type: ResourceType;
  record: OwnershipRow;
  /** the new owner's id, or the new project's MFID */
  target: string;
  grants: [string, string, string][];
  members: [string, string, string][];
  leads: [string, string][];
  groupMembers: [string, string][];
  related: { links: string[]; files: number | null; datasets: number | null; samples: number | null };
}

/**
 * Reads the state of a change inside `em`. With `lock` (inside the confirming transaction) the
 * record's row is locked first, so concurrent confirms queue up and the second sees the first's
 * result. Null when the record is gone. Reads the link, file and membership tables directly:
 * this is a snapshot for comparison only, nothing is changed here.
 */
export async function readChangeState(
  em: EntityManager,
  deps: { resources: ResourceService; grants: GrantService },
  r: { type: ResourceType; uniqueId: string },
  action: ChangeAction,
  target: string,
  lock: boolean,
): Promise<ChangeState | null> {
  const record = await deps.resources.ownershipRow(em, r.type, r.uniqueId, lock);
  if (!record) return null;
  const grants = await deps.grants.rowsOf(em, r.uniqueId);
  const projects = [
    ...new Set(
      [
        r.type === 'project' ? r.uniqueId : record.projectMfid,
        action === 'reassign_project' ? target : null,
        ...grants.filter((g) => g.principal_type === 'project').map((g) => g.principal_id),
      ].filter((p): p is string => !!p),
    ),
  ];
  const groups = grants.filter((g) => g.principal_type === 'group').map((g) => g.principal_id);
  // one statement after another: inside a transaction they share one connection
  const members = projects.length
    ? await rawQuery<{ p: string; u: string; r: string }>(
        em,
        `select project_mfid as p, user_id as u, role as r from project_member
         where project_mfid in (?) order by project_mfid, user_id`,
        [projects],
      )
    : [];
  const leads = projects.length
    ? await rawQuery<{ p: string; u: string }>(
        em,
        'select unique_id as p, owner_id as u from project where unique_id in (?) order by unique_id',
        [projects],
      )
    : [];
  const groupMembers = groups.length
    ? await rawQuery<{ g: string; u: string }>(
        em,
        `select g.name as g, m.user_id as u from access_group_member m join access_group g on g.id = m.group_id
         where g.name in (?) order by g.name, m.user_id`,
        [groups],
      )
    : [];
  const related = await relatedState(em, r);
  return {
    action,
    type: r.type,
    record,
    target,
    grants: grants.map((g) => [g.principal_type, g.principal_id, g.permission]),
    members: members.map((m) => [m.p, m.u, m.r]),
    leads: leads.map((l) => [l.p, l.u]),
    groupMembers: groupMembers.map((m) => [m.g, m.u]),
    related,
  };
}

/** The preview token: a digest of the whole state (opaque to clients). */
export function stateToken(state: ChangeState): string {
  return createHash('sha256').update(JSON.stringify(state)).digest('base64url');
}

async function relatedState(
  em: EntityManager,
  r: { type: ResourceType; uniqueId: string },
): Promise<ChangeState['related']> {
  const id = r.uniqueId;
  const count = async (sql: string) => (await rawQuery<{ n: number }>(em, sql, [id]))[0].n;
  const ids = async (sql: string, n: number) =>
    (await rawQuery<{ id: string }>(em, sql, Array<string>(n).fill(id))).map((row) => row.id);
  switch (r.type) {
    case 'dataset':
    case 'sample': {
      const other = r.type === 'dataset' ? 'sample' : 'dataset';
      return {
        // parents, children and associated records
        links: await ids(
          `select child_mfid as id from ${r.type}_link where parent_mfid = ?
           union select parent_mfid from ${r.type}_link where child_mfid = ?
           union select ${other}_mfid from dataset_sample where ${r.type}_mfid = ? order by id`,
          3,
        ),
        files:
          r.type === 'dataset'
            ? await count('select count(*)::int as n from associated_file where dataset_mfid = ?')
            : null,
        datasets: null,
        samples: null,
      };
    }
    case 'project':
      return {
        links: [],
        files: null,
        datasets: await count('select count(*)::int as n from dataset where project_mfid = ?'),
        samples: await count('select count(*)::int as n from sample where project_mfid = ?'),
      };
    case 'instrument':
      return { links: [], files: null, datasets: null, samples: null };
  }
}
