import sharp from 'sharp';
import { startTestApp, type TestApp } from '../support/app';
import { gql, rest } from '../support/http';
import { makeUser, type TestUser } from '../support/factories';
import { makeDataset, userWith } from '../support/files';

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 4, background: { r: 200, g: 30, b: 30, alpha: 0.5 } } })
    .png()
    .toBuffer();

describe('thumbnails', () => {
  let t: TestApp;
  let owner: TestUser;
  let stranger: TestUser;
  beforeAll(async () => {
    t = await startTestApp();
    owner = await makeUser(t.app);
    stranger = await makeUser(t.app);
  });
  afterAll(() => t.close());

  const add = (ds: string, body: Record<string, unknown>, key = owner.key) =>
    rest(t.url, 'POST', `/datasets/${ds}/thumbnails`, { key, body });

  test('added images are stored as JPEG whatever the name says; listed as a plain array', async () => {
    const ds = await makeDataset(t, owner);
    const image = (await png(2400, 600)).toString('base64');
    const r = await add(ds, { thumbnail_name: 'preview.png', thumbnail_b64str: image });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ dataset_id: ds, thumbnail_name: 'preview.png', mime_type: 'image/jpeg' });
    expect(Number.isInteger(r.body.id)).toBe(true);
    const stored = Buffer.from(r.body.thumbnail_b64str, 'base64');
    const meta = await sharp(stored).metadata();
    expect(meta.format).toBe('jpeg');
    expect([meta.width, meta.height]).toEqual([1024, 256]);

    const dataUrl = await add(ds, { thumbnail_b64str: `data:image/png;base64,${image}` });
    expect(dataUrl.body.thumbnail_name).toBe(`${ds}_thumbnail`);
    const list = await rest(t.url, 'GET', `/datasets/${ds}/thumbnails`, { key: owner.key });
    expect(list.body.map((x: { id: number }) => x.id)).toEqual([r.body.id, dataUrl.body.id]);
  });

  test('bad images and fields are rejected with the field named', async () => {
    const ds = await makeDataset(t, owner);
    const notImage = await add(ds, { thumbnail_b64str: Buffer.from('hello').toString('base64') });
    expect(notImage.status).toBe(422);
    expect(notImage.body.fields[0].field).toBe('thumbnail_b64str');
    expect((await add(ds, { thumbnail_b64str: '%%%' })).status).toBe(422);
    expect((await add(ds, {})).body.fields[0].field).toBe('thumbnail_b64str');
    expect((await add(ds, { thumbnail_b64str: 'aGk=', colour: 1 })).body.fields[0].field).toBe('colour');
    expect((await rest(t.url, 'GET', `/datasets/${ds}/thumbnails`, { key: owner.key })).body).toEqual([]);
  });

  test('update renames and/or replaces; delete removes; permissions follow the dataset', async () => {
    const ds = await makeDataset(t, owner);
    const viewer = await userWith(t, ds, 'viewer');
    const contributor = await userWith(t, ds, 'contributor');
    const image = (await png(10, 10)).toString('base64');
    expect((await add(ds, { thumbnail_b64str: image }, stranger.key)).status).toBe(404);
    expect((await add(ds, { thumbnail_b64str: image }, viewer.key)).status).toBe(403);
    const created = await add(ds, { thumbnail_b64str: image, thumbnail_name: 'a' }, contributor.key);
    expect(created.status).toBe(201);
    const id = created.body.id as number;
    const path = `/datasets/${ds}/thumbnails/${id}`;

    expect(
      (await rest(t.url, 'PATCH', path, { key: contributor.key, body: { thumbnail_name: 'b' } })).status,
    ).toBe(403);
    const renamed = await rest(t.url, 'PATCH', path, { key: owner.key, body: { thumbnail_name: 'b' } });
    expect(renamed.body).toMatchObject({ id, thumbnail_name: 'b' });
    const replaced = await rest(t.url, 'PATCH', path, {
      key: owner.key,
      body: { thumbnail_b64str: (await png(30, 20)).toString('base64') },
    });
    expect((await sharp(Buffer.from(replaced.body.thumbnail_b64str, 'base64')).metadata()).width).toBe(30);
    expect((await rest(t.url, 'PATCH', path, { key: owner.key, body: {} })).status).toBe(422);
    const otherDs = await makeDataset(t, owner);
    expect(
      (await rest(t.url, 'DELETE', `/datasets/${otherDs}/thumbnails/${id}`, { key: owner.key })).status,
    ).toBe(404);
    expect((await rest(t.url, 'DELETE', path, { key: stranger.key })).status).toBe(404);
    expect((await rest(t.url, 'DELETE', path, { key: viewer.key })).status).toBe(403);
    expect((await rest(t.url, 'DELETE', path, { key: owner.key })).status).toBe(200);
    expect((await rest(t.url, 'GET', `/datasets/${ds}/thumbnails`, { key: owner.key })).body).toEqual([]);
    expect((await rest(t.url, 'GET', `/datasets/${ds}/thumbnails`, { key: stranger.key })).status).toBe(404);
  });

  test('first thumbnails in batch: only readable datasets that have one', async () => {
    const a = await makeDataset(t, owner);
    const b = await makeDataset(t, owner);
    const none = await makeDataset(t, owner);
    const image = (await png(8, 8)).toString('base64');
    const firstOfA = (await add(a, { thumbnail_b64str: image, thumbnail_name: 'a1' })).body;
    await add(a, { thumbnail_b64str: image, thumbnail_name: 'a2' });
    await add(b, { thumbnail_b64str: image, thumbnail_name: 'b1' });
    const r = await rest(t.url, 'POST', '/datasets/first_thumbnails', {
      key: owner.key,
      body: [a, b, none, 'junk'],
    });
    expect(Object.keys(r.body).sort()).toEqual([a, b].sort());
    expect(r.body[a]).toMatchObject({ id: firstOfA.id, thumbnail_name: 'a1' });
    expect(
      (await rest(t.url, 'POST', '/datasets/first_thumbnails', { key: stranger.key, body: [a, b] })).body,
    ).toEqual({});
    expect(
      (await rest(t.url, 'POST', '/datasets/first_thumbnails', { key: owner.key, body: { a } })).status,
    ).toBe(422);

    const q = await gql(
      t.url,
      owner.key,
      `query ($ids: [ID!]!) { firstThumbnails(datasetIds: $ids) { datasetId thumbnailName mimeType } }`,
      { ids: [a, b, none] },
    );
    expect(q.data.firstThumbnails.map((x: { thumbnailName: string }) => x.thumbnailName).sort()).toEqual([
      'a1',
      'b1',
    ]);
  });

  test('GraphQL: Dataset.thumbnails and firstThumbnail are batched; mutations work', async () => {
    const ids = [await makeDataset(t, owner), await makeDataset(t, owner), await makeDataset(t, owner)];
    const image = (await png(8, 8)).toString('base64');
    for (const ds of ids) {
      const r = await gql(
        t.url,
        owner.key,
        `mutation ($d: ID!, $i: String!) { addDatasetThumbnail(dataset: $d, image: $i, name: "n") { id mimeType } }`,
        { d: ds, i: image },
      );
      expect(r.data.addDatasetThumbnail.mimeType).toBe('image/jpeg');
    }
    // only the owner's: other test files write public datasets into the same database meanwhile
    const query = `{ datasets(first: 3, filter: { ownerOrcid: "${owner.user.uniqueId}" }) { nodes { uniqueId thumbnails { id thumbnailB64str } firstThumbnail { id } one: thumbnails(first: 1) { id } } } }`;
    t.queries.length = 0;
    const r = await gql(t.url, owner.key, query);
    expect(r.errors).toBeUndefined();
    // the first thumbnails come with the page (dataset-view.ts); the lists, with and without
    // bytes, in one statement each
    const thumbnailQueries = t.queries.filter((q) => /from "?thumbnail"?/.test(q));
    expect(thumbnailQueries.length).toBeLessThanOrEqual(3);
    for (const node of r.data.datasets.nodes) expect(node.firstThumbnail.id).toBe(node.thumbnails[0].id);

    const id = r.data.datasets.nodes[0].thumbnails[0].id;
    const upd = await gql(
      t.url,
      owner.key,
      `mutation { updateThumbnail(id: ${id}, name: "renamed") { thumbnailName } }`,
    );
    expect(upd.data.updateThumbnail.thumbnailName).toBe('renamed');
    const del = await gql(t.url, stranger.key, `mutation { deleteThumbnail(id: ${id}) }`);
    expect(del.errors![0].extensions?.code).toBe('NOT_FOUND');
    expect(
      (await gql(t.url, owner.key, `mutation { deleteThumbnail(id: ${id}) }`)).data.deleteThumbnail,
    ).toBe(id);
  });
});
