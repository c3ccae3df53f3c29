import { startTestApp, type TestApp } from '../support/app';
import { gql } from '../support/http';
import { makeProject, makeUser, type TestUser } from '../support/factories';
import { newDataset, newSample } from '../support/catalog';
import { formUpload } from '../support/files';
import { newMfid } from '../../src/core/ids';
import { toGlobalId } from '../../src/core/graphql/node';

/**
 * Compiled execution (docs/performance.md, "Compiled execution"): a query document runs on
 * graphql-js until it is hot, then as graphql-jit compiled it. With `GRAPHQL_COMPILE_AFTER=1` a
 * document's first run is graphql-js's and its second the compiled one: both answers must be the
 * same, byte for byte, for data, errors (message, path, locations, code), null propagation,
 * abstract types, fragments, directives and variables; mutations never run compiled; variables
 * graphql-js refuses are refused in its words.
 */
let t: TestApp;
let owner: TestUser;
let stranger: TestUser;
let datasetId: string;
let hiddenId: string;
let projectSlug: string;

async function executions(): Promise<{ compiled: number; interpreted: number }> {
  const text = await (await fetch(`${t.url}/metrics`)).text();
  const read = (engine: string) =>
    Number(
      new RegExp(`^catalog_graphql_executions_total\\{engine="${engine}"\\} (\\d+)`, 'm').exec(text)?.[1] ??
        0,
    );
  return { compiled: read('compiled'), interpreted: read('graphql-js') };
}

/** Runs `query` twice as `key` and expects the same answer; returns it and which engines ran. */
async function twice(
  key: string,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<{ answer: any; compiled: number; interpreted: number }> {
  const before = await executions();
  const first = await gql(t.url, key, query, variables);
  const second = await gql(t.url, key, query, variables);
  const after = await executions();
  expect(JSON.stringify(second)).toBe(JSON.stringify(first));
  return {
    answer: first,
    compiled: after.compiled - before.compiled,
    interpreted: after.interpreted - before.interpreted,
  };
}

beforeAll(async () => {
  t = await startTestApp({ GRAPHQL_COMPILE_AFTER: '1' });
  owner = await makeUser(t.app);
  stranger = await makeUser(t.app);
  const project = await makeProject(t.app, owner.user);
  projectSlug = project.projectId;
  datasetId = await newDataset(t.url, owner.key, {
    dataset_name: 'compiled one',
    project_id: project.projectId,
    scientific_metadata: { temperature: '300 K', nested: { a: [1, 2, 3] } },
  });
  await newDataset(t.url, owner.key, { dataset_name: 'compiled two', project_id: project.projectId });
  hiddenId = await newDataset(t.url, stranger.key, { dataset_name: 'not yours' });
  await newSample(t.url, owner.key, { sample_name: 'compiled sample' });
  const upload = await formUpload(t.url, owner.key, datasetId, [
    { name: 'a.txt', data: Buffer.from('compiled') },
  ]);
  expect(upload.status).toBe(201);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

test('a nested list answers the same compiled, and the second run is the compiled one', async () => {
  const { answer, compiled, interpreted } = await twice(
    owner.key,
    `query($first: Int!, $project: String!) {
      datasets(first: $first, filter: { projectId: $project }, orderBy: { field: datasetName, direction: asc }) {
        totalCount
        pageInfo { hasNextPage endCursor }
        nodes {
          __typename nodeId uniqueId datasetName public keywords
          owner { uniqueId email }
          project { projectId }
          files(first: 1) { totalCount nodes { filename size } }
          samples { uniqueId }
          scientificMetadata
          capabilities { canUpdate }
        }
      }
    }`,
    { first: 10, project: projectSlug },
  );
  expect(answer.errors).toBeUndefined();
  expect(answer.data.datasets.nodes.map((d: { datasetName: string }) => d.datasetName)).toEqual([
    'compiled one',
    'compiled two',
  ]);
  expect(answer.data.datasets.nodes[0].files.nodes[0].filename).toBe('a.txt');
  expect({ compiled, interpreted }).toEqual({ compiled: 1, interpreted: 1 });
});

test('errors: an unreadable record, an argument refused by its bounds, a resolver error in a list', async () => {
  const hidden = await twice(owner.key, `query($id: ID!) { dataset(id: $id) { uniqueId datasetName } }`, {
    id: hiddenId,
  });
  expect(hidden.answer.errors[0].extensions.code).toBe('NOT_FOUND');
  expect(hidden.answer.errors[0].path).toEqual(['dataset']);
  expect(hidden.answer.errors[0].locations).toEqual([{ line: 1, column: 19 }]);
  expect(hidden.compiled).toBe(1);

  const tooMany = await twice(owner.key, '{ datasets(first: 5000) { totalCount } }');
  expect(tooMany.answer.errors[0].message).toMatch(/first/);
  expect(tooMany.compiled).toBe(1);
});

test('null propagation, abstract types, fragments, aliases and directives', async () => {
  const nodeId = (
    await gql(t.url, owner.key, `query($id: ID!) { dataset(id: $id) { nodeId } }`, { id: datasetId })
  ).data.dataset.nodeId as string;
  const { answer, compiled } = await twice(
    owner.key,
    `fragment D on Dataset { datasetName keywords }
     query($ids: [ID!]!, $withOwner: Boolean!, $skipName: Boolean!) {
       nodes(ids: $ids) {
         __typename
         ... on Dataset { ...D owner @include(if: $withOwner) { email } name: datasetName @skip(if: $skipName) }
       }
       viewer: me { __typename }
     }`,
    { ids: [nodeId, toGlobalId('Dataset', newMfid()), nodeId], withOwner: true, skipName: false },
  );
  expect(compiled).toBe(1);
  expect(answer.errors).toBeUndefined();
  expect(answer.data.nodes[0]).toMatchObject({
    __typename: 'Dataset',
    datasetName: 'compiled one',
    name: 'compiled one',
    owner: { email: owner.user.email },
  });
  expect(answer.data.nodes[1]).toBeNull();
  expect(answer.data.viewer).toEqual({ __typename: 'Viewer' });
});

test('variables graphql-js refuses are refused in its words; mutations never run compiled', async () => {
  const bad = await twice(owner.key, `query($first: Int!) { datasets(first: $first) { totalCount } }`, {
    first: 'ten',
  });
  expect(bad.answer.errors[0].message).toMatch(/Variable "\$first" got invalid value "ten"/);
  expect(bad.compiled).toBe(0);

  const before = await executions();
  for (const name of ['renamed once', 'renamed twice', 'renamed thrice']) {
    const res = await gql(
      t.url,
      owner.key,
      `mutation($id: ID!, $name: String!) { updateDataset(id: $id, input: { datasetName: $name }) { datasetName } }`,
      { id: datasetId, name },
    );
    expect(res.errors).toBeUndefined();
  }
  const after = await executions();
  expect(after.compiled - before.compiled).toBe(0);
  expect(after.interpreted - before.interpreted).toBe(3);
});
