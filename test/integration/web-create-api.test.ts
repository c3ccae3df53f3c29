import { startTestApp, type TestApp } from '../support/app';
import { gql } from '../support/http';
import { makeProject, makeUser, unique, type TestUser } from '../support/factories';
import { newDataset, newSample } from '../support/catalog';

/**
 * What the web page's list and create pages (issue 27, items 1, 6, 7) added to the GraphQL API:
 * `sampleFacets` counts only the samples the caller may read (and refuses a bad `first` with a
 * 4xx-style error, never a 500); a deletion request names its requester, and an access grant its
 * granter, as public-safe user records (no one else's email).
 */
let t: TestApp;
let alice: TestUser;
let bob: TestUser;
let root: TestUser;
beforeAll(async () => {
  t = await startTestApp();
  [alice, bob, root] = await Promise.all([
    makeUser(t.app, { username: unique('alice') }),
    makeUser(t.app, { username: unique('bob') }),
    makeUser(t.app, { username: unique('root'), admin: true }),
  ]);
});
afterAll(() => t.close());

const FACETS = `query($f: SampleFilterInput, $first: Int) {
  type: sampleFacets(field: sample_type, filter: $f, first: $first) { value label count }
  owner: sampleFacets(field: owner, filter: $f) { value label count }
  project: sampleFacets(field: project, filter: $f) { value label count }
}`;

describe('sampleFacets', () => {
  test('counts only readable samples, by type, owner and project, most frequent first', async () => {
    const kind = unique('type').replace(/-/g, '');
    const project = await makeProject(t.app, alice.user);
    // alice: two private samples of type A in her project, one public of type B; bob: one private of type A
    await newSample(t.url, alice.key, { sample_type: `${kind}a`, project_id: project.projectId });
    await newSample(t.url, alice.key, { sample_type: `${kind}a`, project_id: project.projectId });
    await newSample(t.url, alice.key, { sample_type: `${kind}b`, public: true });
    await newSample(t.url, bob.key, { sample_type: `${kind}a` });
    const mine = (r: { value: string }[]) => r.filter((v) => v.value.startsWith(kind));

    const a = await gql(t.url, alice.key, FACETS, { first: 100 });
    expect(a.errors).toBeUndefined();
    expect(mine(a.data.type)).toEqual([
      { value: `${kind}a`, label: `${kind}a`, count: 2 },
      { value: `${kind}b`, label: `${kind}b`, count: 1 },
    ]);
    expect(a.data.project).toContainEqual({
      value: project.uniqueId,
      label: project.title ?? project.projectId,
      count: 2,
    });

    // bob reads his own and alice's public one, never her private ones
    const b = await gql(t.url, bob.key, FACETS, { first: 100 });
    // (a tie: one each; ties come in descending order of value, as every page sorted by count)
    expect(mine(b.data.type)).toEqual([
      { value: `${kind}b`, label: `${kind}b`, count: 1 },
      { value: `${kind}a`, label: `${kind}a`, count: 1 },
    ]);
    expect(b.data.project.map((v: { value: string }) => v.value)).not.toContain(project.uniqueId);
    expect(b.data.owner).toContainEqual({ value: alice.user.uniqueId, label: alice.user.username, count: 1 });

    // a name search given projectId: null (as a page passes "no project") is not narrowed to nothing
    const crystal = await newSample(t.url, bob.key, { sample_name: `${kind} crystal` });
    const named = await gql(
      t.url,
      bob.key,
      'query($q: String!, $p: String) { searchSamples(q: $q, projectId: $p) { uniqueId } }',
      { q: kind, p: null },
    );
    expect(named.errors).toBeUndefined();
    expect(named.data.searchSamples).toEqual([{ uniqueId: crystal }]);
    // the filter narrows the counts like the list
    const narrowed = await gql(t.url, alice.key, FACETS, { f: { sampleType: `${kind}b` } });
    expect(narrowed.data.type).toEqual([{ value: `${kind}b`, label: `${kind}b`, count: 1 }]);
  });

  test('a bad page size is refused as bad input, changing nothing', async () => {
    for (const first of [0, -1, 101]) {
      const r = await gql(t.url, alice.key, FACETS, { first });
      expect(r.status).toBeLessThan(500);
      expect(r.errors?.[0].extensions?.code).toMatch(/BAD_USER_INPUT|VALIDATION/);
      expect(r.errors?.[0].message).toContain('first');
    }
  });
});

describe('people by name', () => {
  test("a grant names its granter and a deletion request its requester, without anyone else's email", async () => {
    const id = await newDataset(t.url, alice.key, { dataset_name: unique('named') });
    const granted = await gql(
      t.url,
      alice.key,
      'mutation($id: ID!, $p: String!) { setAccess(id: $id, kind: users, principal: $p, permission: viewer) { permission } }',
      { id, p: bob.user.username },
    );
    expect(granted.errors).toBeUndefined();
    const access = await gql(
      t.url,
      alice.key,
      'query($id: ID!) { resourceAccess(id: $id) { grants { principalName grantedBy granter { uniqueId username email } } } }',
      { id },
    );
    expect(access.errors).toBeUndefined();
    expect(access.data.resourceAccess.grants).toEqual([
      {
        principalName: bob.user.username,
        grantedBy: alice.user.uniqueId,
        granter: { uniqueId: alice.user.uniqueId, username: alice.user.username, email: alice.user.email },
      },
    ]);

    const asked = await gql(
      t.url,
      alice.key,
      'mutation($id: ID!) { requestDeletion(id: $id, reason: "typo") { id requesterId requester { username } reviewer { username } } }',
      { id },
    );
    expect(asked.errors).toBeUndefined();
    expect(asked.data.requestDeletion).toMatchObject({
      requesterId: alice.user.uniqueId,
      requester: { username: alice.user.username },
      reviewer: null,
    });
    // a platform administrator reviewing the requests sees who asked, by name
    const seen = await gql(
      t.url,
      root.key,
      'query { deletionRequests(first: 100, status: "pending") { nodes { resourceId requester { username } } } }',
      {},
      { 'crucible-privilege-mode': 'elevated' },
    );
    expect(seen.errors).toBeUndefined();
    expect(seen.data.deletionRequests.nodes).toContainEqual({
      resourceId: id,
      requester: { username: alice.user.username },
    });
  });
});
