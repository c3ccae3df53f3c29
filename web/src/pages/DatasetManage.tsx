import { useState } from 'preact/hooks';
import { graphql } from '../gql';
import type {
  ChangePreviewFieldsFragment,
  GrantKind,
  PermissionLevel,
  RelationshipType,
} from '../gql/graphql';
import { request } from '../client';
import { useAction, useQuery } from '../hooks';
import { userName } from '../components/Fields';
import { ConfirmButton } from '../components/Confirm';
import { DiffView } from '../components/DiffView';
import { mergeTopLevel, replacedKeys } from '../components/json-diff';
import { Picker, type Picked } from '../components/Picker';

/**
 * The managing actions of a dataset page: merge metadata, link and unlink, grant and revoke
 * access, and ownership transfer / project reassignment (a preview first, then confirm with its
 * token). Each is offered only when the dataset's capabilities allow it; the API decides anyway.
 */

const Merge = graphql(`
  mutation MergeDatasetMetadata($id: ID!, $metadata: JSONObject!) {
    mergeScientificMetadata(id: $id, metadata: $metadata)
  }
`);

const LinkMutation = graphql(`
  mutation LinkRecords($input: LinkResourcesInput!) {
    linkResources(input: $input) {
      kind
    }
  }
`);

const UnlinkMutation = graphql(`
  mutation UnlinkRecords($a: ID!, $b: ID!) {
    unlinkResources(a: $a, b: $b) {
      kind
    }
  }
`);

const AccessQuery = graphql(`
  query DatasetAccess($id: ID!) {
    resourceAccess(id: $id) {
      grantsComplete
      grants {
        principalType
        principalId
        principalName
        permission
        grantedBy
        granter {
          uniqueId
          username
          firstName
          lastName
        }
      }
    }
  }
`);

const Grant = graphql(`
  mutation GrantAccess($id: ID!, $kind: GrantKind!, $principal: String!, $permission: PermissionLevel!) {
    setAccess(id: $id, kind: $kind, principal: $principal, permission: $permission) {
      permission
    }
  }
`);

const Revoke = graphql(`
  mutation RevokeAccess($id: ID!, $kind: GrantKind!, $principal: String!) {
    revokeAccess(id: $id, kind: $kind, principal: $principal)
  }
`);

graphql(`
  fragment ChangePreviewFields on ChangePreviewType {
    action
    applied
    token
    currentOwner {
      uniqueId
      username
      firstName
      lastName
    }
    newOwner {
      uniqueId
      username
      firstName
      lastName
    }
    currentProject {
      projectId
    }
    newProject {
      projectId
    }
    gains {
      before
      after
      user {
        uniqueId
        username
        firstName
        lastName
      }
    }
    losses {
      before
      after
      user {
        uniqueId
        username
        firstName
        lastName
      }
    }
    grantsAffected {
      principalType
      principalId
      permission
      effect
      reason
    }
  }
`);

const Transfer = graphql(`
  mutation TransferDataset($id: ID!, $newOwner: String!, $confirm: Boolean!, $token: String) {
    transferOwnership(id: $id, newOwner: $newOwner, confirm: $confirm, token: $token) {
      ...ChangePreviewFields
    }
  }
`);

const Reassign = graphql(`
  mutation ReassignDataset($id: ID!, $projectId: String!, $confirm: Boolean!, $token: String) {
    reassignProject(id: $id, projectId: $projectId, confirm: $confirm, token: $token) {
      ...ChangePreviewFields
    }
  }
`);

function ActionError({ error }: { error: string | null }) {
  return error ? (
    <p role="alert" class="error">
      {error}
    </p>
  ) : null;
}

/**
 * Merge keys into the scientific metadata (a JSON object; existing keys not named are kept).
 * When the merge would replace existing top-level keys of `current`, the diff it will apply is
 * shown first and the merge waits for "Apply".
 */
export function MergeMetadata({
  id,
  current,
  onDone,
}: {
  id: string;
  current?: Record<string, unknown> | null;
  onDone: () => void;
}) {
  const [text, setText] = useState('');
  const [parseError, setParseError] = useState<string | null>(null);
  const [pending, setPending] = useState<Record<string, unknown> | null>(null);
  const action = useAction();
  const apply = async (metadata: Record<string, unknown>) => {
    if (await action.run(() => request(Merge, { id, metadata }))) {
      setText('');
      setPending(null);
      onDone();
    }
  };
  const submit = async (e: Event) => {
    e.preventDefault();
    let metadata: unknown;
    try {
      metadata = JSON.parse(text);
    } catch {
      setParseError('Not JSON: write an object such as {"beam": {"energy_keV": 12}}.');
      return;
    }
    if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) {
      setParseError('The metadata to merge must be a JSON object.');
      return;
    }
    setParseError(null);
    const doc = metadata as Record<string, unknown>;
    if (current !== undefined && replacedKeys(current, doc).length) {
      setPending(doc);
      return;
    }
    await apply(doc);
  };
  return (
    <form class="merge" onSubmit={(e) => void submit(e)} aria-label="Merge metadata">
      <label>
        Metadata to merge (JSON)
        <textarea
          rows={4}
          value={text}
          onInput={(e) => {
            setText(e.currentTarget.value);
            setPending(null);
          }}
        />
      </label>
      {pending && (
        <div class="confirm" role="group" aria-label="Confirm the merge">
          <p>
            This merge replaces the existing {replacedKeys(current, pending).join(', ')} whole (a merge
            replaces top-level keys). This is what will change:
          </p>
          <DiffView
            before={current ?? {}}
            after={mergeTopLevel(current, pending)}
            label="Changes the merge will apply"
          />
          <div class="buttons">
            <button
              type="button"
              class="danger"
              disabled={action.pending}
              onClick={() => void apply(pending)}
            >
              Apply the merge
            </button>
            <button type="button" onClick={() => setPending(null)}>
              Cancel
            </button>
          </div>
        </div>
      )}
      <div class="buttons">
        <button type="submit" disabled={action.pending || !text.trim()}>
          Merge metadata
        </button>
      </div>
      <ActionError error={parseError ?? action.error} />
    </form>
  );
}

const RELATIONSHIPS: RelationshipType[] = ['is_derived_from', 'is_part_of'];

/** Link this dataset (or sample) to another record (as its parent or its child), by MFID. */
export function LinkRecord({
  id,
  noun = 'dataset',
  onDone,
}: {
  id: string;
  noun?: 'dataset' | 'sample';
  onDone: () => void;
}) {
  const [picked, setPicked] = useState<Picked | null>(null);
  const other = picked?.value ?? '';
  const [role, setRole] = useState<'parent' | 'child'>('parent');
  const [relationship, setRelationship] = useState('');
  const action = useAction();
  const submit = async (e: Event) => {
    e.preventDefault();
    const target = other.trim();
    if (!target) return;
    const input = {
      parentId: role === 'parent' ? target : id,
      childId: role === 'parent' ? id : target,
      relationshipType: relationship ? (relationship as RelationshipType) : null,
    };
    if (await action.run(() => request(LinkMutation, { input }))) {
      setPicked(null);
      onDone();
    }
  };
  return (
    <form class="inline-form" onSubmit={(e) => void submit(e)} aria-label="Link a record">
      <Picker
        label="Link to"
        kind="record"
        freeText
        value={picked}
        onChange={setPicked}
        hint="A dataset or sample: type its name (or paste its MFID)"
      />
      <label>
        It is this {noun}'s
        <select value={role} onChange={(e) => setRole(e.currentTarget.value as 'parent' | 'child')}>
          <option value="parent">{noun === 'dataset' ? 'parent (or sample)' : 'parent'}</option>
          <option value="child">{noun === 'dataset' ? 'child' : 'child (or dataset)'}</option>
        </select>
      </label>
      <label>
        Relationship
        <select value={relationship} onChange={(e) => setRelationship(e.currentTarget.value)}>
          <option value="">unspecified</option>
          {RELATIONSHIPS.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" disabled={action.pending || !other.trim()}>
        Link
      </button>
      <ActionError error={action.error} />
    </form>
  );
}

/** A button that removes the link between this dataset and one related record. */
export function UnlinkButton({
  id,
  other,
  name,
  onDone,
}: {
  id: string;
  other: string;
  name: string;
  onDone: () => void;
}) {
  const action = useAction();
  return (
    <>
      <button
        type="button"
        class="small"
        aria-label={`Unlink ${name}`}
        disabled={action.pending}
        onClick={() =>
          void action.run(() => request(UnlinkMutation, { a: id, b: other })).then((r) => r && onDone())
        }
      >
        Unlink
      </button>
      <ActionError error={action.error} />
    </>
  );
}

const KINDS: [GrantKind, string][] = [
  ['users', 'user'],
  ['projects', 'project'],
  ['groups', 'group'],
];
const kindOf = (principalType: string): GrantKind =>
  principalType === 'project' ? 'projects' : principalType === 'group' ? 'groups' : 'users';
const PERMISSIONS: PermissionLevel[] = ['viewer', 'contributor', 'editor', 'admin'];

/** Who may access the record: the grants, revoke one, grant a user, project or group. */
export function AccessPanel({ id }: { id: string }) {
  const q = useQuery(AccessQuery, { id });
  const [kind, setKind] = useState<GrantKind>('users');
  const [who, setWho] = useState<Picked | null>(null);
  const principal = who?.value ?? '';
  const [permission, setPermission] = useState<PermissionLevel>('viewer');
  const action = useAction();
  const grant = async (e: Event) => {
    e.preventDefault();
    if (!principal.trim()) return;
    if (await action.run(() => request(Grant, { id, kind, principal: principal.trim(), permission }))) {
      setWho(null);
      q.reload();
    }
  };
  const revoke = async (k: GrantKind, p: string) => {
    if (await action.run(() => request(Revoke, { id, kind: k, principal: p }))) q.reload();
  };
  const grants = q.data?.resourceAccess.grants ?? [];
  return (
    <section aria-labelledby="ds-access">
      <h2 id="ds-access">Access</h2>
      {q.error && (
        <p role="alert" class="error">
          {q.error}
        </p>
      )}
      {q.data && grants.length === 0 && <p>No grants: only the owner and project members have access.</p>}
      {grants.length > 0 && (
        <table class="grants">
          <thead>
            <tr>
              <th scope="col">Who</th>
              <th scope="col">Kind</th>
              <th scope="col">Permission</th>
              <th scope="col">Granted by</th>
              <th scope="col">
                <span class="visually-hidden">Action</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {grants.map((g) => (
              <tr key={`${g.principalType}:${g.principalId}`}>
                <td>{g.principalName ?? g.principalId}</td>
                <td>{g.principalType}</td>
                <td>{g.permission}</td>
                <td>{userName(g.granter) || (g.grantedBy ?? '')}</td>
                <td>
                  <ConfirmButton
                    label="Revoke"
                    ariaLabel={`Revoke ${g.principalName ?? g.principalId}`}
                    question={`Revoke the ${g.permission} access of ${g.principalName ?? g.principalId}?`}
                    confirmLabel={`Revoke ${g.principalName ?? g.principalId}`}
                    disabled={action.pending}
                    onConfirm={() => revoke(kindOf(g.principalType), g.principalId)}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <form class="inline-form" onSubmit={(e) => void grant(e)} aria-label="Grant access">
        <label>
          Grant to
          <select
            value={kind}
            onChange={(e) => {
              setKind(e.currentTarget.value as GrantKind);
              setWho(null);
            }}
          >
            {KINDS.map(([k, label]) => (
              <option key={k} value={k}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <Picker
          key={kind}
          label={kind === 'users' ? 'User' : kind === 'projects' ? 'Project' : 'Group name'}
          kind={kind === 'projects' ? 'project' : 'user'}
          search={kind !== 'groups'}
          freeText
          value={who}
          onChange={setWho}
          hint={
            kind === 'users'
              ? 'Type a name or username (or an ORCID, MFID or email)'
              : kind === 'projects'
                ? 'Type its title or slug'
                : undefined
          }
        />
        <label>
          Permission
          <select
            value={permission}
            onChange={(e) => setPermission(e.currentTarget.value as PermissionLevel)}
          >
            {PERMISSIONS.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" disabled={action.pending || !principal.trim()}>
          Grant
        </button>
      </form>
      <ActionError error={action.error} />
    </section>
  );
}

export type Preview = ChangePreviewFieldsFragment;

export function PreviewView({ p }: { p: Preview }) {
  const change = (c: Preview['gains'][number]) =>
    `${userName(c.user)}: ${c.before ?? 'no access'} → ${c.after ?? 'no access'}`;
  return (
    <div class="preview" role="region" aria-label={p.applied ? 'Applied change' : 'Preview of the change'}>
      <p>
        {p.action === 'transfer_ownership'
          ? `Owner: ${userName(p.currentOwner)} → ${userName(p.newOwner)}`
          : `Project: ${p.currentProject?.projectId ?? 'none'} → ${p.newProject?.projectId ?? 'none'}`}
        {p.applied ? ' (applied)' : ' (nothing has changed yet)'}
      </p>
      <p>Gains: {p.gains.length ? p.gains.map(change).join('; ') : 'none'}</p>
      <p>Losses: {p.losses.length ? p.losses.map(change).join('; ') : 'none'}</p>
      {p.grantsAffected.length > 0 && (
        <ul>
          {p.grantsAffected.map((g) => (
            <li key={`${g.principalType}:${g.principalId}`}>
              Grant to {g.principalType} {g.principalId} ({g.permission}) {g.effect}: {g.reason}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * Transfer ownership or reassign the project: Preview shows who gains and loses access before
 * anything changes; Confirm applies exactly that preview (its token), or fails if anything changed.
 * The applied change goes to `onApplied` (the page shows it: the caller may lose this action).
 */
export function ChangeWithPreview({
  id,
  mode,
  onApplied,
}: {
  id: string;
  mode: 'transfer' | 'reassign';
  onApplied: (applied: Preview) => void;
}) {
  const [picked, setPicked] = useState<Picked | null>(null);
  const target = picked?.value ?? '';
  const [preview, setPreview] = useState<Preview | null>(null);
  const action = useAction();
  const run = (confirm: boolean, token: string | null) =>
    mode === 'transfer'
      ? request(Transfer, { id, newOwner: target.trim(), confirm, token }).then((r) => r.transferOwnership)
      : request(Reassign, { id, projectId: target.trim(), confirm, token }).then((r) => r.reassignProject);
  const label = mode === 'transfer' ? 'New owner' : 'New project';
  const title = mode === 'transfer' ? 'Transfer ownership' : 'Reassign project';
  const headingId = mode === 'transfer' ? 'ds-transfer' : 'ds-reassign';
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      <form
        class="inline-form"
        aria-label={title}
        onSubmit={(e) => {
          e.preventDefault();
          if (!target.trim()) return;
          void action.run(() => run(false, null)).then((p) => p && setPreview(p));
        }}
      >
        <Picker
          label={label}
          kind={mode === 'transfer' ? 'user' : 'project'}
          freeText
          value={picked}
          onChange={(v) => {
            setPicked(v);
            setPreview(null);
          }}
          hint={
            mode === 'transfer' ? 'Type a name or username (or an ORCID or email)' : 'Type its title or slug'
          }
        />
        <button type="submit" disabled={action.pending || !target.trim()}>
          Preview
        </button>
      </form>
      {preview && <PreviewView p={preview} />}
      {preview && (
        <div class="buttons">
          <button
            type="button"
            disabled={action.pending}
            onClick={() =>
              void action
                .run(() => run(true, preview.token))
                .then((p) => {
                  if (!p) return;
                  setPreview(null);
                  setPicked(null);
                  onApplied(p);
                })
            }
          >
            Confirm {mode === 'transfer' ? 'transfer' : 'reassignment'}
          </button>
          <button type="button" onClick={() => setPreview(null)}>
            Cancel
          </button>
        </div>
      )}
      <ActionError error={action.error} />
    </section>
  );
}
