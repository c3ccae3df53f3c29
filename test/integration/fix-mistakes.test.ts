import { startTestApp, type TestApp } from '../support/app';
import { gql, rest } from '../support/http';
import { grant, makeUser, unique, type TestUser } from '../support/factories';
import { newDataset, newSample } from '../support/catalog';

/**
 * Issue 27, items 3 and 4 on the API: names are never blank (every path that sets one), a
 * keyword removed, a deletion request withdrawn, metadata versions read and restored.
 */
let t: TestApp;
let owner: TestUser;
let editor: TestUser;
let viewer: TestUser;
let stranger: TestUser;
let admin: TestUser;
beforeAll(async () => {
  t = await startTestApp();
  [owner, editor, viewer, stranger, admin] = await Promise.all([
    makeUser(t.app),
    makeUser(t.app),
    makeUser(t.app),
    makeUser(t.app),
    makeUser(t.app, { admin: true }),
  ]);
});
afterAll(() => t.close());

type Path = {
  what: string;
  field: string;
  /** sends a blank name; answers the status (REST) or the GraphQL error */
  send: (blank: string | null) => Promise<{ status: number; fields: string[]; code?: string }>;
  /** the name stored now (to check nothing changed) */
  stored: () => Promise<unknown>;
};

async function restCall(method: string, path: string, body: unknown, version: 2 | 3) {
  const res = await rest(t.url, method, path, { key: admin.key, body, version });
  return {
    status: res.status,
    fields: ((res.body?.fields ?? []) as { field: string }[]).map((f) => f.field),
  };
}

async function gqlCall(query: string, variables: Record<string, unknown>) {
  const res = await gql<unknown>(t.url, admin.key, query, variables);
  const e = res.errors?.[0];
  return {
    status: e ? 422 : 200,
    code: e?.extensions?.code,
    fields: ((e?.extensions?.fields ?? []) as { field: string }[]).map((f) => f.field),
  };
}

describe('names are never blank', () => {
  test('every path that sets a name refuses a blank one with a 422 naming the field, and changes nothing', async () => {
    const ds = await newDataset(t.url, admin.key, { dataset_name: 'kept' });
    const sample = await newSample(t.url, admin.key, { sample_name: 'kept' });
    const slug = unique('p');
    const project = await rest(t.url, 'POST', '/projects', {
      key: admin.key,
      body: { project_id: slug, title: 'kept' },
    });
    expect(project.status).toBe(201);
    const instrument = await rest(t.url, 'POST', '/instruments', {
      key: admin.key,
      body: { instrument_name: unique('kept') },
    });
    expect(instrument.status).toBe(201);
    const instrumentId = instrument.body.unique_id as string;
    const instrumentName = instrument.body.instrument_name as string;

    const count = async (path: string) =>
      (await rest(t.url, 'GET', path, { key: admin.key, query: { limit: 1 } })).body.total as number;
    const before = {
      datasets: await count('/datasets'),
      samples: await count('/samples'),
      projects: await count('/projects'),
      instruments: await count('/instruments'),
    };
    const read = async (path: string, key: string) =>
      (await rest(t.url, 'GET', path, { key: admin.key })).body[key];

    const paths: Path[] = [];
    for (const version of [2, 3] as const) {
      paths.push(
        {
          what: `REST v${version} dataset create`,
          field: 'dataset_name',
          send: (b) => restCall('POST', '/datasets', { dataset_name: b }, version),
          stored: () => count('/datasets'),
        },
        {
          what: `REST v${version} dataset update`,
          field: 'dataset_name',
          send: (b) => restCall('PATCH', `/datasets/${ds}`, { dataset_name: b }, version),
          stored: () => read(`/datasets/${ds}`, 'dataset_name'),
        },
        {
          what: `REST v${version} sample create`,
          field: 'sample_name',
          send: (b) => restCall('POST', '/samples', { sample_name: b }, version),
          stored: () => count('/samples'),
        },
        {
          what: `REST v${version} sample update`,
          field: 'sample_name',
          send: (b) => restCall('PATCH', `/samples/${sample}`, { sample_name: b }, version),
          stored: () => read(`/samples/${sample}`, 'sample_name'),
        },
        {
          what: `REST v${version} project create`,
          field: 'title',
          send: (b) => restCall('POST', '/projects', { project_id: unique('p'), title: b }, version),
          stored: () => count('/projects'),
        },
        {
          what: `REST v${version} project update`,
          field: 'title',
          send: (b) => restCall('PATCH', `/projects/${slug}`, { title: b }, version),
          stored: () => read(`/projects/${slug}`, 'title'),
        },
        {
          what: `REST v${version} instrument create`,
          field: 'instrument_name',
          send: (b) => restCall('POST', '/instruments', { instrument_name: b }, version),
          stored: () => count('/instruments'),
        },
        {
          what: `REST v${version} instrument update`,
          field: 'instrument_name',
          send: (b) => restCall('PATCH', `/instruments/${instrumentId}`, { instrument_name: b }, version),
          stored: () => read(`/instruments/${instrumentId}`, 'instrument_name'),
        },
      );
    }
    paths.push(
      {
        what: 'GraphQL createDataset',
        field: 'dataset_name',
        send: (b) =>
          gqlCall('mutation($n: String) { createDataset(input: { datasetName: $n }) { uniqueId } }', {
            n: b,
          }),
        stored: () => count('/datasets'),
      },
      {
        what: 'GraphQL updateDataset',
        field: 'dataset_name',
        send: (b) =>
          gqlCall(
            'mutation($id: ID!, $n: String) { updateDataset(id: $id, input: { datasetName: $n }) { uniqueId } }',
            {
              id: ds,
              n: b,
            },
          ),
        stored: () => read(`/datasets/${ds}`, 'dataset_name'),
      },
      {
        what: 'GraphQL createSample',
        field: 'sample_name',
        send: (b) =>
          gqlCall('mutation($n: String) { createSample(input: { sampleName: $n }) { uniqueId } }', { n: b }),
        stored: () => count('/samples'),
      },
      {
        what: 'GraphQL updateSample',
        field: 'sample_name',
        send: (b) =>
          gqlCall(
            'mutation($id: ID!, $n: String) { updateSample(id: $id, input: { sampleName: $n }) { uniqueId } }',
            {
              id: sample,
              n: b,
            },
          ),
        stored: () => read(`/samples/${sample}`, 'sample_name'),
      },
      {
        what: 'GraphQL createProject',
        field: 'title',
        send: (b) =>
          gqlCall(
            'mutation($s: String!, $n: String) { createProject(input: { projectId: $s, title: $n }) { uniqueId } }',
            {
              s: unique('p'),
              n: b,
            },
          ),
        stored: () => count('/projects'),
      },
      {
        what: 'GraphQL updateProject',
        field: 'title',
        send: (b) =>
          gqlCall(
            'mutation($id: String!, $n: String) { updateProject(id: $id, input: { title: $n }) { uniqueId } }',
            {
              id: slug,
              n: b,
            },
          ),
        stored: () => read(`/projects/${slug}`, 'title'),
      },
      {
        what: 'GraphQL createInstrument',
        field: 'instrument_name',
        send: (b) =>
          b === null
            ? Promise.resolve({ status: 422, fields: ['instrument_name'] }) // non-null in the schema
            : gqlCall(
                'mutation($n: String!) { createInstrument(input: { instrumentName: $n }) { uniqueId } }',
                {
                  n: b,
                },
              ),
        stored: () => count('/instruments'),
      },
      {
        what: 'GraphQL updateInstrument',
        field: 'instrument_name',
        send: (b) =>
          gqlCall(
            'mutation($id: String!, $n: String) { updateInstrument(id: $id, input: { instrumentName: $n }) { uniqueId } }',
            { id: instrumentId, n: b },
          ),
        stored: () => read(`/instruments/${instrumentId}`, 'instrument_name'),
      },
    );

    for (const path of paths) {
      const stored = await path.stored();
      const isUpdate = /update/i.test(path.what);
      for (const blank of ['', '   ', '\t\n', ...(isUpdate ? [null] : [])]) {
        const res = await path.send(blank);
        expect({ path: path.what, blank, status: res.status }).toEqual({
          path: path.what,
          blank,
          status: 422,
        });
        if (res.code !== undefined) expect(res.code).toBe('BAD_USER_INPUT');
        // GraphQL's input validation names the input field (instrumentName), the service the wire name
        const camel = path.field.replace(/_(\w)/g, (_, c: string) => c.toUpperCase());
        expect({ path: path.what, names: res.fields.some((f) => f === path.field || f === camel) }).toEqual({
          path: path.what,
          names: true,
        });
        expect(await path.stored()).toEqual(stored);
      }
    }
    expect(await count('/datasets')).toBe(before.datasets);
    expect(await count('/samples')).toBe(before.samples);
    expect(await count('/projects')).toBe(before.projects);
    expect(await count('/instruments')).toBe(before.instruments);
    expect(await read(`/datasets/${ds}`, 'dataset_name')).toBe('kept');
    expect(await read(`/instruments/${instrumentId}`, 'instrument_name')).toBe(instrumentName);

    // a real name still passes everywhere, and a dataset may still be created without one
    const named = await rest(t.url, 'PATCH', `/datasets/${ds}`, {
      key: admin.key,
      body: { dataset_name: ' x ' },
    });
    expect(named.status).toBe(200);
    expect((await rest(t.url, 'POST', '/datasets', { key: admin.key, body: {} })).status).toBe(201);
  });

  test('ingestion never sets a blank name (fillEmptyIn skips blank values)', async () => {
    const ds = await newDataset(t.url, owner.key, { dataset_name: 'n' });
    const em = t.app.orm.em.fork();
    const filled = await em.transactional((tx) =>
      t.app.services.dataset.fillEmptyIn(tx, ds, { datasetName: '   ', measurement: 'XRD' }),
    );
    expect(filled).toEqual(['measurement']);
  });
});

describe('remove a keyword', () => {
  test('REST and GraphQL: editors remove, readers may not, an event in the history, nothing when absent', async () => {
    const ds = await newDataset(t.url, owner.key);
    // keywords are shared and their first spelling wins: words of this test alone
    const w = `fm${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const [alpha, Beta, gamma] = [`alpha${w}`, `Beta${w}`, `gamma${w}`];
    await grant(t.app, ds, 'dataset', 'user', editor.user.uniqueId, 'editor');
    await grant(t.app, ds, 'dataset', 'user', viewer.user.uniqueId, 'viewer');
    for (const k of [alpha, Beta, gamma]) {
      expect(
        (await rest(t.url, 'POST', `/datasets/${ds}/keywords`, { key: owner.key, body: { keyword: k } }))
          .status,
      ).toBe(201);
    }
    const keywords = async () =>
      (
        (await rest(t.url, 'GET', `/datasets/${ds}/keywords`, { key: owner.key })).body as {
          keyword: string;
        }[]
      )
        .map((k) => k.keyword)
        .sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));

    const byViewer = await rest(t.url, 'DELETE', `/datasets/${ds}/keywords`, {
      key: viewer.key,
      query: { keyword: alpha },
    });
    expect(byViewer.status).toBe(403);
    const byStranger = await rest(t.url, 'DELETE', `/datasets/${ds}/keywords`, {
      key: stranger.key,
      query: { keyword: alpha },
    });
    expect(byStranger.status).toBe(404);
    expect(await keywords()).toEqual([alpha, Beta, gamma]);

    const removed = await rest(t.url, 'DELETE', `/datasets/${ds}/keywords`, {
      key: editor.key,
      query: { keyword: alpha.toUpperCase() },
    });
    expect(removed.status).toBe(200);
    expect(await keywords()).toEqual([Beta, gamma]);
    const again = await rest(t.url, 'DELETE', `/datasets/${ds}/keywords`, {
      key: editor.key,
      query: { keyword: alpha },
    });
    // removing one it does not carry changes nothing (no event), as adding one it has
    expect(again.status).toBe(200);
    const noKeyword = await rest(t.url, 'DELETE', `/datasets/${ds}/keywords`, { key: editor.key });
    expect(noKeyword.status).toBe(422);

    const mutation = 'mutation($id: ID!, $k: String!) { removeDatasetKeyword(id: $id, keyword: $k) }';
    const denied = await gql(t.url, viewer.key, mutation, { id: ds, k: Beta.toLowerCase() });
    expect(denied.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    const ok = await gql<{ removeDatasetKeyword: boolean }>(t.url, editor.key, mutation, {
      id: ds,
      k: Beta.toLowerCase(),
    });
    expect(ok.data?.removeDatasetKeyword).toBe(true);
    const absent = await gql<{ removeDatasetKeyword: boolean }>(t.url, editor.key, mutation, {
      id: ds,
      k: Beta.toLowerCase(),
    });
    expect(absent.data?.removeDatasetKeyword).toBe(false);
    expect(await keywords()).toEqual([gamma]);

    const history = await rest(t.url, 'GET', `/resources/${ds}/history`, { key: owner.key });
    const events = (
      history.body.items as { type: string; actor_id: string; payload: { keyword: string } }[]
    ).filter((e) => e.type === 'keyword.removed');
    expect(events.map((e) => [e.payload.keyword, e.actor_id])).toEqual([
      [Beta, editor.user.uniqueId],
      [alpha, editor.user.uniqueId],
    ]);
  });
});

describe('withdraw a deletion request', () => {
  test('its requester withdraws it while pending (REST and GraphQL); nobody else; the note is in the history', async () => {
    const ds = await newDataset(t.url, owner.key);
    const asked = await rest(t.url, 'POST', `/resources/${ds}/delete`, {
      key: owner.key,
      body: { reason: 'typo' },
    });
    expect(asked.status).toBeLessThan(300);
    const requestId = (asked.body.id ?? asked.body.request_id) as number;
    expect(typeof requestId).toBe('number');

    expect(
      (await rest(t.url, 'DELETE', `/deletion_requests/${requestId}`, { key: stranger.key })).status,
    ).toBe(404);
    expect((await rest(t.url, 'DELETE', `/deletion_requests/${requestId}`, { key: viewer.key })).status).toBe(
      404,
    );
    const withdrawn = await rest(t.url, 'DELETE', `/deletion_requests/${requestId}`, {
      key: owner.key,
      query: { notes: 'it was fine after all' },
    });
    expect(withdrawn.status).toBe(200);
    expect((await rest(t.url, 'DELETE', `/deletion_requests/${requestId}`, { key: owner.key })).status).toBe(
      404,
    );
    const pending = await gql<{ dataset: { deletionRequest: unknown } }>(
      t.url,
      owner.key,
      'query($id: ID!) { dataset(id: $id) { deletionRequest { id } } }',
      { id: ds },
    );
    expect(pending.data?.dataset.deletionRequest).toBeNull();
    const history = await rest(t.url, 'GET', `/resources/${ds}/history`, { key: owner.key });
    expect(history.body.items[0]).toMatchObject({
      type: 'deletion.withdrawn',
      actor_id: owner.user.uniqueId,
      payload: { request_id: requestId, notes: 'it was fine after all' },
    });

    // GraphQL; a reviewed request cannot be withdrawn
    const again = await rest(t.url, 'POST', `/resources/${ds}/delete`, { key: owner.key, body: {} });
    const id2 = (again.body.id ?? again.body.request_id) as number;
    const m = 'mutation($id: Int!, $n: String) { withdrawDeletionRequest(id: $id, note: $n) }';
    const ok = await gql<{ withdrawDeletionRequest: boolean }>(t.url, owner.key, m, { id: id2, n: null });
    expect(ok.data?.withdrawDeletionRequest).toBe(true);
    const third = await rest(t.url, 'POST', `/resources/${ds}/delete`, { key: owner.key, body: {} });
    const id3 = (third.body.id ?? third.body.request_id) as number;
    const rejected = await rest(t.url, 'PATCH', `/deletion_requests/${id3}`, {
      key: admin.key,
      query: { status: 'rejected', reviewer_notes: 'no' },
    });
    expect(rejected.status).toBe(200);
    const late = await gql(t.url, owner.key, m, { id: id3 });
    expect(late.errors?.[0].extensions?.code).toBe('CONFLICT');
  });
});

describe('metadata versions and restore', () => {
  test('every write is a version; an editor restores an earlier one as a new change, atomically, with an event', async () => {
    const ds = await newDataset(t.url, owner.key, { scientific_metadata: { a: 1, b: { c: 2 } } });
    await grant(t.app, ds, 'dataset', 'user', editor.user.uniqueId, 'editor');
    await grant(t.app, ds, 'dataset', 'user', viewer.user.uniqueId, 'viewer');
    await rest(t.url, 'PATCH', `/resources/${ds}/metadata`, {
      key: owner.key,
      body: { b: { d: 3 }, e: 'x' },
    });
    await rest(t.url, 'PATCH', `/resources/${ds}/metadata`, { key: owner.key, body: { e: 'x' } }); // no change: no version

    const versions = await rest(t.url, 'GET', `/resources/${ds}/metadata/versions`, { key: viewer.key });
    expect(versions.status).toBe(200);
    expect(versions.body.items.map((v: { version: number; data: unknown }) => [v.version, v.data])).toEqual([
      [2, { a: 1, b: { d: 3 }, e: 'x' }],
      [1, { a: 1, b: { c: 2 } }],
    ]);
    expect(versions.body.items[1].actor_id).toBe(owner.user.uniqueId);
    const paged = await rest(t.url, 'GET', `/resources/${ds}/metadata/versions`, {
      key: viewer.key,
      query: { limit: 1 },
    });
    expect(paged.body.next_before).toBe(2);
    const next = await rest(t.url, 'GET', `/resources/${ds}/metadata/versions`, {
      key: viewer.key,
      query: { limit: 1, before: 2 },
    });
    expect(next.body.items.map((v: { version: number }) => v.version)).toEqual([1]);
    expect(next.body.next_before).toBeNull();
    expect(
      (await rest(t.url, 'GET', `/resources/${ds}/metadata/versions`, { key: stranger.key })).status,
    ).toBe(404);

    // readers may not restore; strangers see nothing; another record's version does not exist here
    expect(
      (
        await rest(t.url, 'POST', `/resources/${ds}/metadata/restore`, {
          key: viewer.key,
          body: { version: 1 },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await rest(t.url, 'POST', `/resources/${ds}/metadata/restore`, {
          key: stranger.key,
          body: { version: 1 },
        })
      ).status,
    ).toBe(404);
    const other = await newDataset(t.url, owner.key, { scientific_metadata: { secret: 1 } });
    await rest(t.url, 'PATCH', `/resources/${other}/metadata`, { key: owner.key, body: { more: 2 } });
    const foreign = await rest(t.url, 'POST', `/resources/${ds}/metadata/restore`, {
      key: editor.key,
      body: { version: 3 },
    });
    expect(foreign.status).toBe(404);
    const badVersion = await rest(t.url, 'POST', `/resources/${ds}/metadata/restore`, {
      key: editor.key,
      body: { version: 'x' },
    });
    expect(badVersion.status).toBe(422);
    const unreadable = await rest(t.url, 'POST', `/resources/${other}/metadata/restore`, {
      key: editor.key,
      body: { version: 1 },
    });
    expect(unreadable.status).toBe(404);
    expect(
      (await rest(t.url, 'GET', `/resources/${other}/metadata`, { key: owner.key })).body.scientific_metadata,
    ).toEqual({
      secret: 1,
      more: 2,
    });

    const restored = await rest(t.url, 'POST', `/resources/${ds}/metadata/restore`, {
      key: editor.key,
      body: { version: 1 },
    });
    expect(restored.status).toBe(200);
    expect(restored.body).toEqual({ unique_id: ds, scientific_metadata: { a: 1, b: { c: 2 } }, version: 3 });
    const now = await rest(t.url, 'GET', `/resources/${ds}/metadata`, { key: owner.key });
    expect(now.body.scientific_metadata).toEqual({ a: 1, b: { c: 2 } });
    const history = await rest(t.url, 'GET', `/resources/${ds}/history`, { key: owner.key });
    expect(history.body.items[0]).toMatchObject({
      type: 'metadata.changed',
      actor_id: editor.user.uniqueId,
      payload: { mode: 'restore', version: 3, restored_version: 1, keys: ['b', 'e'] },
    });

    // GraphQL: the versions and a restore; restoring the version already there changes nothing
    const q = await gql<{ metadataVersions: { items: { version: number }[]; nextBefore: number | null } }>(
      t.url,
      viewer.key,
      'query($id: ID!) { metadataVersions(id: $id, first: 2) { items { version actorId time data } nextBefore } }',
      { id: ds },
    );
    expect(q.data?.metadataVersions.items.map((v) => v.version)).toEqual([3, 2]);
    expect(q.data?.metadataVersions.nextBefore).toBe(2);
    const m =
      'mutation($id: ID!, $v: Int!) { restoreMetadataVersion(id: $id, version: $v) { data version } }';
    const g = await gql<{ restoreMetadataVersion: { data: unknown; version: number | null } }>(
      t.url,
      editor.key,
      m,
      {
        id: ds,
        v: 2,
      },
    );
    expect(g.data?.restoreMetadataVersion).toEqual({ data: { a: 1, b: { d: 3 }, e: 'x' }, version: 4 });
    const same = await gql<{ restoreMetadataVersion: { version: number | null } }>(t.url, editor.key, m, {
      id: ds,
      v: 4,
    });
    expect(same.data?.restoreMetadataVersion.version).toBeNull();
    const denied = await gql(t.url, viewer.key, m, { id: ds, v: 1 });
    expect(denied.errors?.[0].extensions?.code).toBe('FORBIDDEN');
  });

  test('a document written before versions existed becomes version 1 at its next write', async () => {
    const ds = await newDataset(t.url, owner.key);
    const em = t.app.orm.em.fork();
    await em
      .getConnection()
      .execute(
        `insert into scientific_metadata (resource_id, resource_type, data) values (?, 'dataset', '{"old": true}'::jsonb)`,
        [ds],
      );
    await rest(t.url, 'PATCH', `/resources/${ds}/metadata`, { key: owner.key, body: { old: false } });
    const versions = await rest(t.url, 'GET', `/resources/${ds}/metadata/versions`, { key: owner.key });
    expect(
      versions.body.items.map((v: { version: number; data: unknown; actor_id: unknown }) => [
        v.version,
        v.data,
        v.actor_id,
      ]),
    ).toEqual([
      [2, { old: false }, owner.user.uniqueId],
      [1, { old: true }, null],
    ]);
  });
});
