import { startTestApp, type TestApp } from '../support/app';
import { gql, rest } from '../support/http';
import { grant, makeUser, type TestUser } from '../support/factories';
import type { GrantablePermission } from '../../src/modules/permission/permission';
import { formUpload, makeDataset, sha256, userWith } from '../support/files';
import { orcidChecksumOk, parseOrcid, parseRor } from '../../src/modules/publication/publication-input';

let t: TestApp;
let owner: TestUser;
let stranger: TestUser;
let admin: TestUser;

beforeAll(async () => {
  t = await startTestApp();
  owner = await makeUser(t.app);
  stranger = await makeUser(t.app);
  admin = await makeUser(t.app, { admin: true });
});
afterAll(() => t.close());

const DESCRIPTION =
  'Diffraction images of lysozyme crystals collected at 100 K on beamline 7, with the processing logs.';

const metadata = (extra: Record<string, unknown> = {}) => ({
  title: 'Lysozyme diffraction, 2026',
  description: DESCRIPTION,
  creators: [
    {
      name: 'Carberry, Josiah',
      orcid: 'https://orcid.org/0000-0002-1825-0097',
      affiliations: [{ name: 'Brown University', ror_id: '05gq02987' }],
    },
  ],
  license: 'CC-BY-4.0',
  keywords: ['crystallography', 'lysozyme'],
  funding: [{ funder_name: 'Example Foundation', award_number: 'EF-42' }],
  related_identifiers: [
    { related_identifier: '10.1234/paper', related_identifier_type: 'DOI', relation_type: 'IsSupplementTo' },
  ],
  version: '1.0',
  ...extra,
});

async function datasetWithFile(user: TestUser, name: string, bytes: string): Promise<string> {
  const ds = await makeDataset(t, user, name);
  const up = await formUpload(t.url, user.key, ds, [{ name: `${name}.h5`, data: Buffer.from(bytes) }]);
  expect(up.status).toBe(201);
  return ds;
}

const create = (key: string, body: Record<string, unknown>) =>
  rest(t.url, 'POST', '/publications', { key, body });
const get = (key: string, id: string) => rest(t.url, 'GET', `/publications/${id}`, { key });
/** Gives `user` `permission` on a dataset, or changes the one it holds. */
async function setGrant(resource: string, user: TestUser, permission: GrantablePermission): Promise<void> {
  const changed = await t.app.orm.em
    .fork()
    .getConnection()
    .execute(
      `update access_grant set permission = ? where resource_id = ? and principal_type = 'user' and principal_id = ? returning 1`,
      [permission, resource, user.user.uniqueId],
    );
  if (!changed.length) await grant(t.app, resource, 'dataset', 'user', user.user.uniqueId, permission);
}
const publish = (key: string, id: string) => rest(t.url, 'POST', `/publications/${id}/publish`, { key });

describe('identifiers', () => {
  test('ORCID iDs are checked by their check digit, ROR ids by their form', () => {
    expect(orcidChecksumOk('0000-0002-1825-0097')).toBe(true);
    expect(orcidChecksumOk('0000-0002-1694-233X')).toBe(true);
    expect(parseOrcid('0000-0002-1825-0098')).toBeNull();
    expect(parseOrcid('https://orcid.org/0000-0002-1825-0097')).toBe('0000-0002-1825-0097');
    expect(parseRor('https://ror.org/05gq02987')).toBe('https://ror.org/05gq02987');
    expect(parseRor('05gq0298')).toBeNull();
    expect(parseRor('15gq02987')).toBeNull();
  });
});

describe('publications', () => {
  test('draft, publish, frozen manifest, later edits do not change it', async () => {
    const a = await datasetWithFile(owner, 'alpha', 'alpha bytes');
    const b = await datasetWithFile(owner, 'beta', 'beta bytes');
    const created = await create(owner.key, { dataset_ids: [a, b], ...metadata() });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      state: 'draft',
      dataset_ids: [a, b],
      manifest: null,
      creators: [
        {
          orcid: '0000-0002-1825-0097',
          affiliations: [{ name: 'Brown University', ror_id: 'https://ror.org/05gq02987' }],
        },
      ],
      funding: [{ funder_name: 'Example Foundation', award_number: 'EF-42', funder_identifier: null }],
    });
    const id = created.body.id as string;

    // a draft is its creators' and managers' only
    expect((await get(stranger.key, id)).status).toBe(404);
    const manager = await userWith(t, a, 'admin');
    await setGrant(b, manager, 'admin');
    expect((await get(manager.key, id)).status).toBe(200);
    const viewer = await userWith(t, a, 'viewer');
    expect((await get(viewer.key, id)).status).toBe(404);
    expect((await get(admin.key, id)).status).toBe(200);
    expect((await rest(t.url, 'GET', '/publications', { key: stranger.key })).body.items).not.toContainEqual(
      expect.objectContaining({ id }),
    );

    // editable while a draft
    const patched = await rest(t.url, 'PATCH', `/publications/${id}`, {
      key: owner.key,
      body: { title: 'Lysozyme diffraction (corrected)' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      title: 'Lysozyme diffraction (corrected)',
      description: DESCRIPTION,
    });

    const published = await publish(owner.key, id);
    expect(published.status).toBe(200);
    expect(published.body.state).toBe('published');
    expect(published.body.manifest).toEqual([
      {
        dataset_id: a,
        name: 'alpha',
        files: [{ file_id: expect.any(String), name: 'alpha.h5', size: 11, sha256: sha256('alpha bytes') }],
      },
      {
        dataset_id: b,
        name: 'beta',
        files: [{ file_id: expect.any(String), name: 'beta.h5', size: 10, sha256: sha256('beta bytes') }],
      },
    ]);

    // frozen: no more edits, and dataset changes do not reach it
    const late = await rest(t.url, 'PATCH', `/publications/${id}`, { key: owner.key, body: { title: 'x' } });
    expect(late.status).toBe(409);
    expect((await publish(owner.key, id)).status).toBe(409);
    await rest(t.url, 'PATCH', `/datasets/${a}`, { key: owner.key, body: { dataset_name: 'renamed' } });
    await formUpload(t.url, owner.key, a, [{ name: 'more.h5', data: Buffer.from('more') }]);
    const again = await get(stranger.key, id);
    expect(again.status).toBe(200);
    expect(again.body.manifest).toEqual(published.body.manifest);
    expect(again.body.title).toBe('Lysozyme diffraction (corrected)');

    // events
    const history = await rest(t.url, 'GET', `/publications`, {
      key: stranger.key,
      query: { state: 'published' },
    });
    expect(history.body.items).toContainEqual(expect.objectContaining({ id }));
    const events = await t.app.orm.em
      .fork()
      .getConnection()
      .execute<{ type: string }[]>(`select type from domain_event where resource_id = ? order by id`, [id]);
    expect(events.map((e) => e.type)).toEqual([
      'publication.created',
      'publication.updated',
      'publication.published',
    ]);
  });

  test('new versions link both ways; withdrawal leaves a tombstone', async () => {
    const a = await datasetWithFile(owner, 'gamma', 'gamma bytes');
    const v1 = (await create(owner.key, { dataset_ids: [a], ...metadata() })).body.id as string;
    expect((await rest(t.url, 'POST', `/publications/${v1}/versions`, { key: owner.key })).status).toBe(409);
    expect((await publish(owner.key, v1)).status).toBe(200);
    const v2 = await rest(t.url, 'POST', `/publications/${v1}/versions`, { key: owner.key });
    expect(v2.status).toBe(201);
    expect(v2.body).toMatchObject({ state: 'draft', previous_version_id: v1, dataset_ids: [a] });
    // one next version only
    expect((await rest(t.url, 'POST', `/publications/${v1}/versions`, { key: owner.key })).status).toBe(409);
    await rest(t.url, 'PATCH', `/publications/${v2.body.id}`, { key: owner.key, body: { version: '2.0' } });
    expect((await publish(owner.key, v2.body.id as string)).status).toBe(200);

    const q = `query ($id: ID!) { publication(id: $id) { id state version previousVersion { id } nextVersion { id version } } }`;
    const seen = await gql(t.url, stranger.key, q, { id: v1 });
    expect(seen.errors).toBeUndefined();
    expect(seen.data.publication).toEqual({
      id: v1,
      state: 'published',
      version: '1.0',
      previousVersion: null,
      nextVersion: { id: v2.body.id, version: '2.0' },
    });

    expect(
      (
        await rest(t.url, 'POST', `/publications/${v1}/withdraw`, {
          key: stranger.key,
          body: { reason: 'x' },
        })
      ).status,
    ).toBe(403);
    expect(
      (await rest(t.url, 'POST', `/publications/${v1}/withdraw`, { key: owner.key, body: {} })).status,
    ).toBe(422);
    const gone = await rest(t.url, 'POST', `/publications/${v1}/withdraw`, {
      key: owner.key,
      body: { reason: 'The calibration was wrong.' },
    });
    expect(gone.status).toBe(200);
    expect(gone.body).toMatchObject({
      state: 'withdrawn',
      withdrawal_reason: 'The calibration was wrong.',
      manifest: null,
    });
    // never deleted: still read, as a tombstone
    expect((await get(stranger.key, v1)).body).toMatchObject({
      state: 'withdrawn',
      title: 'Lysozyme diffraction, 2026',
    });
    expect(
      (
        await rest(t.url, 'POST', `/publications/${v1}/withdraw`, {
          key: owner.key,
          body: { reason: 'again' },
        })
      ).status,
    ).toBe(409);
  });

  test('bad input: a clear 422 naming the field, and nothing written', async () => {
    const a = await datasetWithFile(owner, 'delta', 'delta bytes');
    const before = await t.app.orm.em
      .fork()
      .getConnection()
      .execute(`select count(*)::int as n from publication`);
    const cases: [Record<string, unknown>, string][] = [
      [{ description: 'too short' }, 'description'],
      [{ creators: [] }, 'creators'],
      [{ creators: [{ name: 'A', orcid: '0000-0002-1825-0098' }] }, 'creators[0].orcid'],
      [
        { creators: [{ name: 'A', affiliations: [{ name: 'X', ror_id: 'nope' }] }] },
        'creators[0].affiliations[0].ror_id',
      ],
      [{ license: 'Beerware-9' }, 'license'],
      [{ keywords: Array.from({ length: 51 }, (_, i) => `k${i}`) }, 'keywords'],
      [
        {
          related_identifiers: [
            { related_identifier: 'x', related_identifier_type: 'DOI', relation_type: 'IsNewVersionOf' },
          ],
        },
        'related_identifiers[0].relation_type',
      ],
      [{ funding: [{ award_number: '1' }] }, 'funding[0].funder_name'],
    ];
    for (const [patch, field] of cases) {
      const r = await create(owner.key, { dataset_ids: [a], ...metadata(patch) });
      expect(r.status).toBe(422);
      expect(r.body.fields.map((f: { field: string }) => f.field)).toContain(field);
    }
    const missing = await create(owner.key, {
      dataset_ids: [a, '0000000000000000000000000w'],
      ...metadata(),
    });
    expect(missing.status).toBe(404);
    expect(missing.body.detail).toBe('Dataset 0000000000000000000000000w not found');
    // a dataset the caller reads but may not manage: 403
    const editor = await userWith(t, a, 'editor');
    expect((await create(editor.key, { dataset_ids: [a], ...metadata() })).status).toBe(403);
    expect((await create(stranger.key, { dataset_ids: [a], ...metadata() })).status).toBe(404);
    expect((await create(owner.key, { dataset_ids: [a, a], ...metadata() })).status).toBe(422);
    expect((await create(owner.key, { dataset_ids: [], ...metadata() })).status).toBe(422);
    expect((await create(owner.key, { dataset_ids: [a], ...metadata(), extra: 1 })).status).toBe(422);
    expect((await get(owner.key, 'not-an-id')).status).toBe(404);
    const after = await t.app.orm.em
      .fork()
      .getConnection()
      .execute(`select count(*)::int as n from publication`);
    expect(after).toEqual(before);
  });

  test('a remote file without a SHA-256 refuses publishing, naming the file', async () => {
    const a = await datasetWithFile(owner, 'epsilon', 'epsilon bytes');
    await rest(t.url, 'POST', `/datasets/${a}/files`, {
      key: owner.key,
      body: { filename: 'on-tape.h5', storage_backend: 'tape' },
    });
    const id = (await create(owner.key, { dataset_ids: [a], ...metadata() })).body.id as string;
    const r = await publish(owner.key, id);
    expect(r.status).toBe(422);
    expect(r.body.detail).toMatch(/on-tape\.h5/);
    expect((await get(owner.key, id)).body.state).toBe('draft');
  });

  test('publishing re-checks manage on the datasets', async () => {
    const a = await datasetWithFile(owner, 'zeta', 'zeta bytes');
    const manager = await userWith(t, a, 'admin');
    const id = (await create(manager.key, { dataset_ids: [a], ...metadata() })).body.id as string;
    // the grant goes down to viewer: the creator may no longer publish
    await setGrant(a, manager, 'viewer');
    expect((await publish(manager.key, id)).status).toBe(403);
    expect((await publish(owner.key, id)).status).toBe(200);
  });

  test('GraphQL: create, update and publish', async () => {
    const a = await datasetWithFile(owner, 'eta', 'eta bytes');
    const created = await gql(
      t.url,
      owner.key,
      `mutation ($d: [ID!]!, $i: PublicationMetadataInput!) { createPublication(datasetIds: $d, input: $i) { id state nodeId creators { orcid affiliations { rorId } } } }`,
      {
        d: [a],
        i: {
          title: 'Eta',
          description: DESCRIPTION,
          creators: [
            {
              name: 'Carberry, Josiah',
              orcid: '0000-0002-1825-0097',
              affiliations: [{ name: 'Brown', rorId: '05gq02987' }],
            },
          ],
          license: 'CC0-1.0',
        },
      },
    );
    expect(created.errors).toBeUndefined();
    const id = created.data.createPublication.id as string;
    expect(created.data.createPublication.creators[0].affiliations[0].rorId).toBe(
      'https://ror.org/05gq02987',
    );
    const bad = await gql(
      t.url,
      owner.key,
      `mutation ($id: ID!) { updatePublication(id: $id, input: { license: "nope" }) { id } }`,
      { id },
    );
    expect(bad.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    const pub = await gql(
      t.url,
      owner.key,
      `mutation ($id: ID!) { publishPublication(id: $id) { state manifest { datasetId files { name size sha256 } } } }`,
      { id },
    );
    expect(pub.data.publishPublication).toEqual({
      state: 'published',
      manifest: [{ datasetId: a, files: [{ name: 'eta.h5', size: 9, sha256: sha256('eta bytes') }] }],
    });
    const node = await gql(
      t.url,
      stranger.key,
      `query ($n: ID!) { node(id: $n) { ... on Publication { id } } }`,
      {
        n: created.data.createPublication.nodeId,
      },
    );
    expect(node.data.node).toEqual({ id });
  });
});
