import { startTestApp, type TestApp } from '../support/app';
import { gql, rest } from '../support/http';
import { makeProject, makeUser, unique, type TestUser } from '../support/factories';
import { newDataset, newSample } from '../support/catalog';

let t: TestApp;
let owner: TestUser;
beforeAll(async () => {
  t = await startTestApp();
  owner = await makeUser(t.app);
});
afterAll(() => t.close());

/** A 1×1 PNG. */
const PIXEL_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';

/** A project with `n` datasets, each with a keyword, a sample, a parent and a child. */
async function projectWith(n: number): Promise<string> {
  const project = await makeProject(t.app, owner.user);
  const p = { project_id: project.projectId };
  for (let i = 0; i < n; i++) {
    const ds = await newDataset(t.url, owner.key, { dataset_name: `d${i}`, ...p });
    const parent = await newDataset(t.url, owner.key, { dataset_name: `parent${i}` });
    const child = await newDataset(t.url, owner.key, { dataset_name: `child${i}` });
    const sample = await newSample(t.url, owner.key, { sample_name: `s${i}` });
    await rest(t.url, 'POST', `/datasets/${ds}/keywords`, {
      key: owner.key,
      query: { keyword: unique('kw') },
    });
    await rest(t.url, 'POST', `/datasets/${ds}/samples/${sample}`, { key: owner.key });
    await rest(t.url, 'POST', `/datasets/${parent}/children/${ds}`, { key: owner.key });
    await rest(t.url, 'POST', `/datasets/${ds}/children/${child}`, { key: owner.key });
    await rest(t.url, 'PATCH', `/resources/${ds}/metadata`, { key: owner.key, body: { i } });
    const thumb = await rest(t.url, 'POST', `/datasets/${ds}/thumbnails`, {
      key: owner.key,
      body: { thumbnail_name: `t${i}.png`, thumbnail_b64str: PIXEL_PNG },
    });
    expect(thumb.status).toBeLessThan(300);
  }
  return project.projectId;
}

/**
 * The selects of a request's statements, sorted, without their parameter lists and timings; a
 * batched statement (`union all` of loaders' selects, core/db/statement-batch.ts) counts as its
 * parts. Authentication and the caller's granted MFIDs are left out: they run when the
 * authentication cache's entries have expired (docs/operations.md), whatever the page.
 */
const selects = (queries: string[]) =>
  queries
    .filter((q) => !/\bfrom api_key\b|\bfrom access_grant g where\b/.test(q))
    .flatMap((q) => q.replace(/ \[took .*$/, '').split(/ union all /))
    .map((q) =>
      q
        .replace(/^\[query\] /, '')
        .replace(/^select \d+ as part, to_jsonb\(x\) as row from \((.*)\) x$/, '$1')
        .replace(/\$\d+(, \$\d+)*/g, '$'),
    )
    .sort();

const FRONTEND_QUERY = `query($p: String!) {
  project(id: $p) {
    datasets(first: 100) {
      totalCount
      nodes {
        uniqueId datasetName measurement keywords
        owner { username }
        samples { uniqueId sampleName sampleType }
        parents { uniqueId datasetName }
        children { uniqueId datasetName }
        links { uniqueId relationship }
        firstThumbnail { thumbnailB64str }
        scientificMetadata(path: "i")
        deletionRequest { id }
      }
    }
  }
}`;

test("a project's datasets with keywords, samples, parents, children and thumbnails: statements do not grow with the datasets", async () => {
  const small = await projectWith(2);
  const large = await projectWith(6);
  const statements = async (projectId: string, expected: number) => {
    t.queries.length = 0;
    const res = await gql(t.url, owner.key, FRONTEND_QUERY, { p: projectId });
    expect(res.errors).toBeUndefined();
    const nodes = res.data.project.datasets.nodes;
    expect(nodes).toHaveLength(expected);
    for (const node of nodes) {
      expect(node.keywords).toHaveLength(1);
      expect(node.samples).toHaveLength(1);
      expect(node.parents).toHaveLength(1);
      expect(node.children).toHaveLength(1);
      expect(node.links).toHaveLength(3);
      expect(node.firstThumbnail.thumbnailB64str).toMatch(/^\/9j\//); // JPEG
    }
    return [...t.queries];
  };
  const few = await statements(small, 2);
  const many = await statements(large, 6);
  // the same selects, whatever the number of datasets (how the request's statement batch groups
  // the loaders' selects into round trips follows their timing, not the page: compared apart)
  expect(selects(many)).toEqual(selects(few));
  expect(many.length).toBeLessThan(20);
});
