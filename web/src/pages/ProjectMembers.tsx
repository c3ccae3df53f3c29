import { useState } from 'preact/hooks';
import { graphql } from '../gql';
import { request } from '../client';
import { useAction } from '../hooks';
import { userName } from '../components/Fields';
import { Picker, type Picked } from '../components/Picker';

/**
 * A project's members and their roles; for project admins (`canManageMembers`) also add a member
 * (username, ORCID, MFID or email, as the API takes), change a role and remove a member. The lead
 * is not a member (the API lists them apart).
 */

const SetMember = graphql(`
  mutation SetProjectMember($project: String!, $member: ProjectMemberInput!) {
    setProjectMember(project: $project, member: $member) {
      role
    }
  }
`);

const RemoveMember = graphql(`
  mutation RemoveProjectMember($project: String!, $user: String!) {
    removeProjectMember(project: $project, user: $user) {
      role
    }
  }
`);

const ROLES = ['viewer', 'contributor', 'editor', 'admin'] as const;

export interface Member {
  role: string;
  user: { uniqueId: string; username?: string | null; firstName?: string | null; lastName?: string | null };
}

function RoleSelect({
  label,
  value,
  onChange,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
}) {
  return (
    <select aria-label={label} value={value} onChange={(e) => onChange(e.currentTarget.value)}>
      {ROLES.map((r) => (
        <option key={r} value={r}>
          {r}
        </option>
      ))}
    </select>
  );
}

function MemberRow({
  project,
  member,
  canManage,
  onChanged,
}: {
  project: string;
  member: Member;
  canManage: boolean;
  onChanged: () => void;
}) {
  const [role, setRole] = useState(member.role);
  const action = useAction();
  const name = userName(member.user);
  const user = member.user.uniqueId;
  return (
    <tr>
      <td>
        {name} <code>{user}</code>
      </td>
      <td>
        {canManage ? <RoleSelect label={`Role of ${name}`} value={role} onChange={setRole} /> : member.role}
      </td>
      {canManage && (
        <td>
          <button
            type="button"
            class="small"
            aria-label={`Change role of ${name}`}
            disabled={action.pending || role === member.role}
            onClick={() =>
              void action
                .run(() => request(SetMember, { project, member: { user, role } }))
                .then((r) => r && onChanged())
            }
          >
            Change role
          </button>{' '}
          <button
            type="button"
            class="small"
            aria-label={`Remove ${name}`}
            disabled={action.pending}
            onClick={() =>
              void action.run(() => request(RemoveMember, { project, user })).then((r) => r && onChanged())
            }
          >
            Remove
          </button>
          {action.error && (
            <p role="alert" class="error">
              {action.error}
            </p>
          )}
        </td>
      )}
    </tr>
  );
}

export function ProjectMembers({
  project,
  members,
  canManage,
  onChanged,
}: {
  project: string;
  members: Member[];
  canManage: boolean;
  onChanged: () => void;
}) {
  const [picked, setPicked] = useState<Picked | null>(null);
  const user = picked?.value ?? '';
  const [role, setRole] = useState('contributor');
  const action = useAction();
  const add = async (e: Event) => {
    e.preventDefault();
    if (!user.trim()) return;
    if (await action.run(() => request(SetMember, { project, member: { user: user.trim(), role } }))) {
      setPicked(null);
      onChanged();
    }
  };
  return (
    <section aria-labelledby="p-members">
      <h2 id="p-members">Members ({members.length})</h2>
      {members.length === 0 ? (
        <p>No members besides the lead.</p>
      ) : (
        <table class="grants">
          <thead>
            <tr>
              <th scope="col">Member</th>
              <th scope="col">Role</th>
              {canManage && (
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {members.map((m) => (
              <MemberRow
                key={`${m.user.uniqueId}:${m.role}`}
                project={project}
                member={m}
                canManage={canManage}
                onChanged={onChanged}
              />
            ))}
          </tbody>
        </table>
      )}
      {canManage && (
        <form class="inline-form" onSubmit={(e) => void add(e)} aria-label="Add a member">
          <Picker
            label="User"
            kind="user"
            freeText
            value={picked}
            onChange={setPicked}
            hint="Type a name or username (or an ORCID, MFID or email)"
          />
          <label>
            Role
            <select value={role} onChange={(e) => setRole(e.currentTarget.value)}>
              {ROLES.map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" disabled={action.pending || !user.trim()}>
            Add member
          </button>
          {action.error && (
            <p role="alert" class="error">
              {action.error}
            </p>
          )}
        </form>
      )}
    </section>
  );
}
