import sharp from 'sharp';
import type { TestApp } from '../support/app';
import { rest } from '../support/http';
import { addMember, makeProject, makeUser, type TestUser } from '../support/factories';
import { AccessGrant } from '../../src/modules/access/access-grant.entity';
import { type ResourceType } from '../../src/modules/permission/permission';
import { formUpload } from '../support/files';
import { unique } from '../support/factories';
import type { Project } from '../../src/modules/project/project.entity';
import { MATRIX_PUBLICATION, MATRIX_WEBHOOK, type Fresh, type FreshKind, type World } from './table';
import { ROLES, type Role, type Visibility } from './rules';

const GRANTEES = ['viewer', 'contributor', 'editor', 'admin'] as const;

/** The users of the matrix (anonymous has none) and the records every world shares. */
export interface Cast {
  users: Record<Exclude<Role, 'anonymous'>, TestUser>;
  heir: TestUser;
  project: Project;
  target: Project;
  instrument: string;
  group: string;
  serviceAccount: string;
  image: string;
}

async function ok<T = any>(reply: Promise<{ status: number; body: T }>): Promise<T> {
  const r = await reply;
  if (r.status >= 300) throw new Error(`matrix setup failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/**
 * The people: a user per role, and `heir` (whom grants, memberships and transfers name). The
 * owner leads the project and owns the instrument; the member is a contributor of the project;
 * the grantees hold their level on every record by a direct grant; the bound account is a
 * service account bound to the instrument (which every dataset of the world is recorded with). Every role contributes to
 * the `target` project (so only the record decides who may reassign to it).
 */
export async function buildCast(t: TestApp): Promise<Cast> {
  const users = {} as Cast['users'];
  for (const role of ROLES) {
    if (role !== 'anonymous')
      users[role] = await makeUser(t.app, {
        admin: role === 'platformAdmin' || role === 'normalAdmin',
        serviceAccount: role === 'boundAccount',
      });
  }
  const heir = await makeUser(t.app);
  const admin = users.platformAdmin;
  const project = await makeProject(t.app, users.owner.user, unique('matrix'));
  const target = await makeProject(t.app, admin.user, unique('matrix-target'));
  await addMember(t.app, project, users.member.user, 'contributor');
  await addMember(t.app, project, users.normalAdmin.user, 'contributor');
  for (const role of ROLES) {
    if (role !== 'anonymous' && role !== 'platformAdmin')
      await addMember(t.app, target, users[role].user, 'contributor');
  }
  const instrument = await ok(
    rest(t.url, 'POST', '/instruments', {
      key: admin.key,
      body: { instrument_name: unique('Matrix'), owner: users.owner.user.uniqueId },
    }),
  );
  await grantAll(t, users, project.uniqueId, 'project');
  await grantAll(t, users, instrument.unique_id as string, 'instrument');
  // the bound service account: bound to the instrument the world's datasets are recorded with
  await ok(
    rest(
      t.url,
      'POST',
      `/instruments/${instrument.unique_id}/service_accounts/${users.boundAccount.user.uniqueId}`,
      {
        key: admin.key,
      },
    ),
  );
  const group = unique('matrix-group');
  await ok(rest(t.url, 'POST', `/users/${heir.user.uniqueId}/access_groups/${group}`, { key: admin.key }));
  const account = await ok(
    rest(t.url, 'POST', '/service_accounts', { key: admin.key, body: { username: unique('svc') } }),
  );
  const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: { r: 1, g: 2, b: 3 } } })
    .png()
    .toBuffer();
  return {
    users,
    heir,
    project,
    target,
    instrument: instrument.unique_id,
    group,
    serviceAccount: account.unique_id,
    image: png.toString('base64'),
  };
}

/** Each grantee's grant of its level on a record, written in one transaction. */
async function grantAll(
  t: TestApp,
  users: Cast['users'],
  resourceId: string,
  resourceType: ResourceType,
): Promise<void> {
  const em = t.app.orm.em.fork();
  for (const role of GRANTEES) {
    const principalId = users[role].user.uniqueId;
    em.create(AccessGrant, {
      resourceId,
      resourceType,
      principalType: 'user',
      principalId,
      permission: role,
    });
  }
  await em.flush();
}

/** A dataset of the project, recorded with the instrument, owned by the owner, with the grantees' grants. */
async function dataset(t: TestApp, cast: Cast, visibility: Visibility): Promise<string> {
  const owner = cast.users.owner;
  const created = await ok(
    rest(t.url, 'POST', '/datasets', {
      key: owner.key,
      body: {
        dataset_name: 'matrix',
        project_id: cast.project.projectId,
        instrument_mfid: cast.instrument,
        public: visibility === 'public',
        // metadata version 1, for the restore rows
        scientific_metadata: { matrix: 1 },
      },
    }),
  );
  await grantAll(t, cast.users, created.unique_id as string, 'dataset');
  return created.unique_id as string;
}

async function sample(t: TestApp, cast: Cast, visibility: Visibility): Promise<string> {
  const created = await ok(
    rest(t.url, 'POST', '/samples', {
      key: cast.users.owner.key,
      body: { sample_name: 'matrix', project_id: cast.project.projectId, public: visibility === 'public' },
    }),
  );
  await grantAll(t, cast.users, created.unique_id as string, 'sample');
  return created.unique_id as string;
}

/** The records of one visibility: datasets, samples, files, a thumbnail, links, a deletion request. */
export async function buildWorld(t: TestApp, cast: Cast, visibility: Visibility): Promise<World> {
  const owner = cast.users.owner;
  const admin = cast.users.platformAdmin;
  const w: World = {
    dataset: await dataset(t, cast, visibility),
    dataset2: await dataset(t, cast, visibility),
    sample: await sample(t, cast, visibility),
    sample2: await sample(t, cast, visibility),
    project: cast.project.uniqueId,
    projectSlug: cast.project.projectId,
    target: cast.target.uniqueId,
    instrument: cast.instrument,
    storedFile: '',
    remoteFile: '',
    thumbnail: 0,
    deletionRequest: 0,
    auditEntry: 0,
    serviceAccount: cast.serviceAccount,
    owner: { id: owner.user.uniqueId, username: owner.user.username! },
    heir: { id: cast.heir.user.uniqueId, username: cast.heir.user.username!, email: cast.heir.user.email! },
    group: cast.group,
    image: cast.image,
    ingestionRequest: 0,
    analysisRequest: 0,
    webhook: '',
    webhookDelivery: 0,
    draft: '',
    publication: '',
    batch: '',
  };
  const stored = await formUpload(t.url, owner.key, w.dataset, [
    { name: 'matrix.bin', data: Buffer.from(w.dataset) },
  ]);
  w.storedFile = stored.body.mfid as string;
  const ingestion = await ok(
    rest(t.url, 'GET', '/ingestion_requests', { key: owner.key, query: { file_id: w.storedFile } }),
  );
  w.ingestionRequest = ingestion.items[0].id as number;
  w.analysisRequest = (
    await ok(rest(t.url, 'POST', `/datasets/${w.dataset}/mosaic_stitch`, { key: owner.key }))
  ).id as number;
  w.remoteFile = (await freshRecords(t, cast, w, visibility, 'file')).file!;
  w.thumbnail = (await freshRecords(t, cast, w, visibility, 'thumbnail')).thumbnail!;
  await ok(rest(t.url, 'POST', `/resources/${w.dataset}/metadata`, { key: owner.key, body: { m: 0 } }));
  await freshRecords(t, cast, w, visibility, 'datasetLink');
  await freshRecords(t, cast, w, visibility, 'sampleLink');
  await freshRecords(t, cast, w, visibility, 'association');
  w.deletionRequest = (await freshRecords(t, cast, w, visibility, 'deletionRequest')).deletionRequest!;
  const doomed = await dataset(t, cast, visibility);
  await ok(rest(t.url, 'DELETE', `/resources/${doomed}`, { key: admin.key, query: { force: 'True' } }));
  const audit = await ok(
    rest(t.url, 'GET', '/deletion_audit', { key: admin.key, query: { resource_id: doomed } }),
  );
  w.auditEntry = audit.items[0].id as number;
  w.webhook = (await freshRecords(t, cast, w, visibility, 'webhook')).webhook!;
  await ok(rest(t.url, 'PATCH', `/webhooks/${w.webhook}`, { key: owner.key, body: { active: false } }));
  // a delivery in its log: the dataset's first event, recorded as the dispatcher records one
  const [delivery] = await t.app.orm.em.getConnection().execute<{ id: string }[]>(
    `insert into webhook_delivery (subscription_id, event_seq, event_id, event_type, resource_id, status, attempts, last_error)
     select ?, id, event_id, type, resource_id, 'failed', 1, 'the receiver answered 500'
     from domain_event where resource_id = ? order by id limit 1
     returning id`,
    [w.webhook, w.dataset],
  );
  w.webhookDelivery = Number(delivery.id);
  w.draft = (await freshRecords(t, cast, w, visibility, 'draft')).draft!;
  w.publication = (await freshRecords(t, cast, w, visibility, 'publication')).publication!;
  w.batch = (await freshRecords(t, cast, w, visibility, 'batch')).batch!.id;
  return w;
}

/** Makes what one call of a row consumes (see `Row.fresh`). */
export async function freshRecords(
  t: TestApp,
  cast: Cast,
  w: World,
  visibility: Visibility,
  kind: FreshKind | undefined,
): Promise<Fresh> {
  const owner = cast.users.owner;
  const admin = cast.users.platformAdmin;
  const link = (parent: string, child: string) =>
    ok(
      rest(t.url, 'POST', '/resources/links', {
        key: owner.key,
        body: { parent_mfid: parent, child_mfid: child },
      }),
    );
  switch (kind) {
    case undefined:
      return {};
    case 'dataset':
      return { dataset: await dataset(t, cast, visibility) };
    case 'file': {
      const body = { filename: 'matrix.remote', storage_backend: 'tape' };
      const file = await ok(rest(t.url, 'POST', `/datasets/${w.dataset}/files`, { key: owner.key, body }));
      return { file: file.mfid as string };
    }
    case 'thumbnail': {
      const body = { thumbnail_b64str: w.image };
      const thumbnail = await ok(
        rest(t.url, 'POST', `/datasets/${w.dataset}/thumbnails`, { key: owner.key, body }),
      );
      return { thumbnail: thumbnail.id as number };
    }
    case 'deletionRequest': {
      const id = await dataset(t, cast, visibility);
      const request = await ok(rest(t.url, 'POST', `/resources/${id}/delete`, { key: owner.key }));
      return { dataset: id, deletionRequest: request.id as number };
    }
    case 'user':
      return { user: (await makeUser(t.app)).user.uniqueId };
    case 'joinRequest': {
      const asker = await makeUser(t.app);
      const request = await ok(
        rest(t.url, 'POST', `/access_groups/${w.projectSlug}/join`, {
          key: asker.key,
          body: { reason: null },
        }),
      );
      return { joinRequest: request.id as number };
    }
    case 'grant':
      await ok(
        rest(t.url, 'PUT', `/resources/${w.dataset}/access/users/${w.heir.id}`, {
          key: owner.key,
          body: { permission: 'viewer' },
        }),
      );
      return {};
    case 'operator':
      await ok(
        rest(t.url, 'POST', `/instruments/${w.instrument}/service_accounts/${w.serviceAccount}`, {
          key: owner.key,
        }),
      );
      return {};
    case 'member':
      await ok(rest(t.url, 'POST', `/projects/${w.projectSlug}/users/${w.heir.id}`, { key: owner.key }));
      return {};
    case 'groupMember':
      await ok(rest(t.url, 'POST', `/users/${w.heir.id}/access_groups/${w.group}`, { key: admin.key }));
      return {};
    case 'datasetLink':
      await link(w.dataset, w.dataset2);
      return {};
    case 'sampleLink':
      await link(w.sample, w.sample2);
      return {};
    case 'association':
      await link(w.sample, w.dataset);
      return {};
    case 'apiKey': {
      // the keys earlier calls left live are revoked first, to stay below the cap of 20
      const held = await ok(rest(t.url, 'GET', '/account/apikeys', { key: owner.key }));
      for (const k of held.items as { unique_id: string; label: string; status: string }[]) {
        if (k.label === 'matrix fresh' && k.status === 'active') {
          await ok(rest(t.url, 'DELETE', `/account/apikeys/${k.unique_id}`, { key: owner.key }));
        }
      }
      const body = { label: 'matrix fresh' };
      const created = await ok(rest(t.url, 'POST', '/account/apikeys', { key: owner.key, body }));
      return { apiKey: created.unique_id as string };
    }
    case 'draft':
    case 'publication': {
      const body = { dataset_ids: [w.dataset2], ...MATRIX_PUBLICATION };
      const draft = await ok(rest(t.url, 'POST', '/publications', { key: owner.key, body }));
      if (kind === 'draft') return { draft: draft.id as string };
      await ok(rest(t.url, 'POST', `/publications/${draft.id}/publish`, { key: owner.key }));
      return { publication: draft.id as string };
    }
    case 'batch':
    case 'appliedBatch': {
      // a value of its own, so each batch changes something whatever the last one left
      const value = `m-${Math.random().toString(36).slice(2, 10)}`;
      const body = {
        dataset_ids: [w.dataset2],
        operation: { kind: 'set_field', field: 'measurement', value },
      };
      const p = await ok(rest(t.url, 'POST', '/dataset_batches', { key: owner.key, body }));
      const batch = { id: p.batch_id as string, token: p.token as string };
      if (kind === 'appliedBatch') {
        const applied = { key: owner.key, body: { token: batch.token } };
        await ok(rest(t.url, 'POST', `/dataset_batches/${batch.id}/apply`, applied));
      }
      return { batch };
    }
    case 'webhook': {
      const body = { ...MATRIX_WEBHOOK, resource_id: w.dataset };
      const created = await ok(rest(t.url, 'POST', '/webhooks', { key: owner.key, body }));
      return { webhook: created.unique_id as string };
    }
  }
}
