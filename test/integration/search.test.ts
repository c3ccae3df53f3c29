import { startTestApp, type TestApp } from '../support/app';
import { gql, rest } from '../support/http';
import { makeProject, makeUser, unique, type TestUser } from '../support/factories';
import { newDataset, newSample } from '../support/catalog';

let t: TestApp;
let owner: TestUser;
let stranger: TestUser;
let admin: TestUser;
beforeAll(async () => {
  t = await startTestApp();
  [owner, stranger, admin] = await Promise.all([
    makeUser(t.app),
    makeUser(t.app),
    makeUser(t.app, { admin: true }),
  ]);
});
afterAll(() => t.close());

/** A random lowercase word, so each test finds only its own records. */
const word = () => unique('w').replace(/[^a-z]/g, '') + 'xqz';

describe('fuzzy search', () => {
  test('datasets: typo-tolerant, readable only, project filter, plain list', async () => {
    const w = `perovskite${word()}`;
    const project = await makeProject(t.app, owner.user);
    const mine = await newDataset(t.url, owner.key, {
      dataset_name: `${w} anneal run`,
      project_id: project.projectId,
    });
    const other = await newDataset(t.url, owner.key, { dataset_name: `${w} spin coat` });
    const secret = await newDataset(t.url, stranger.key, { dataset_name: `${w} secret` });
    const typo = w.replace('perovskite', 'perovskit');
    const res = await rest(t.url, 'GET', '/datasets/search', {
      key: owner.key,
      query: { q: typo, limit: 20 },
    });
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    const found = res.body.map((d: { unique_id: string }) => d.unique_id).sort();
    expect(found).toEqual([mine, other].sort());
    expect(found).not.toContain(secret);
    const scoped = await rest(t.url, 'GET', '/datasets/search', {
      key: owner.key,
      query: { q: w, project_id: project.projectId },
    });
    expect(scoped.body.map((d: { unique_id: string }) => d.unique_id)).toEqual([mine]);
    const limited = await rest(t.url, 'GET', '/datasets/search', {
      key: owner.key,
      query: { q: w, limit: 1 },
    });
    expect(limited.body).toHaveLength(1);
    expect(
      (await rest(t.url, 'GET', '/datasets/search', { key: owner.key, query: { q: 'ab' } })).status,
    ).toBe(422);
    expect((await rest(t.url, 'GET', '/datasets/search', { key: owner.key })).status).toBe(422);
    const strangerView = await rest(t.url, 'GET', '/datasets/search', { key: stranger.key, query: { q: w } });
    expect(strangerView.body.map((d: { unique_id: string }) => d.unique_id)).toEqual([secret]);
  });

  test('samples, projects, instruments and users', async () => {
    const w = word();
    const sample = await newSample(t.url, owner.key, { sample_name: `${w}-TF-01` });
    await newSample(t.url, stranger.key, { sample_name: `${w}-TF-02` });
    const samples = await rest(t.url, 'GET', '/samples/search', { key: owner.key, query: { q: `${w}-TF` } });
    expect(samples.body.map((s: { unique_id: string }) => s.unique_id)).toEqual([sample]);

    const project = await makeProject(t.app, owner.user, `${w}-films`);
    const projects = await rest(t.url, 'GET', '/projects/search', {
      key: stranger.key,
      query: { q: `${w}-flms` },
    });
    expect(projects.body.map((p: { unique_id: string }) => p.unique_id)).toContain(project.uniqueId);
    expect(projects.body[0].lead).toBeUndefined();

    const inst = await rest(t.url, 'POST', '/instruments', {
      key: admin.key,
      body: { instrument_name: `${w} Titan`, instrument_type: 'microscope', manufacturer: 'FEI' },
    });
    const instruments = await rest(t.url, 'GET', '/instruments/search', {
      key: stranger.key,
      query: { q: `${w} titn` },
    });
    expect(instruments.body.map((i: { unique_id: string }) => i.unique_id)).toEqual([inst.body.unique_id]);

    const person = await makeUser(t.app, { username: `${w}smith` });
    const users = await rest(t.url, 'GET', '/users/search', { key: stranger.key, query: { q: `${w}smth` } });
    expect(users.body).toEqual([
      {
        unique_id: person.user.uniqueId,
        orcid: person.user.uniqueId,
        username: `${w}smith`,
        first_name: 'Test',
        last_name: `${w}smith`,
      },
    ]);
    const self = await rest(t.url, 'GET', '/users/search', { key: person.key, query: { q: `${w}smith` } });
    expect(self.body[0].email).toBe(person.user.email);

    const gq = await gql(
      t.url,
      owner.key,
      `query($q: String!) { searchSamples(q: $q) { uniqueId } searchUsers(q: $q) { uniqueId email } }`,
      { q: `${w}-TF` },
    );
    expect(gq.data.searchSamples).toEqual([{ uniqueId: sample }]);
    const short = await gql(t.url, owner.key, `{ searchDatasets(q: "ab") { uniqueId } }`);
    expect(short.errors?.[0].extensions?.fields?.[0].field).toBe('q');
  });
});
