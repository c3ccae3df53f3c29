import { startTestApp, type TestApp } from '../support/app';
import { rest } from '../support/http';
import { addMember, grant, makeProject, makeUser, unique, type TestUser } from '../support/factories';
import { rawQuery } from '../../src/core/db/raw';
import { decodeCursor, encodeCursor } from '../../src/core/pagination';
import { Project } from '../../src/modules/project/project.entity';
import { Dataset } from '../../src/modules/dataset/dataset.entity';
import { parseFilter } from '../../src/modules/dataset/dataset.legacy';
import { Sample } from '../../src/modules/sample/sample.entity';
import { DatasetSample } from '../../src/modules/link/dataset-sample.entity';
import type { User } from '../../src/modules/user/user.entity';

/**
 * `GET /datasets` and `GET /samples` write their records from rows (the read model,
 * dataset-row.ts). Their bodies must be, byte for byte, what the legacy shape says of the same
 * records as the ORM's entities hold them (`res.json` of records built here from entities, the
 * optional `links` and `scientific_metadata` as single reads give them), for the records and in
 * the order the caller's list names: records with every field set, with nulls, with legacy
 * display values, with characters JSON escapes, large sizes and sub-millisecond times, under
 * every list option.
 */
let t: TestApp;
let admin: TestUser;
let alice: TestUser;
let bob: TestUser;
let project: Project;
let untitled: Project;
let elsewhere: Project;
let session: string;
let instrument: string;

const TRICKY = `"quoted" \\ back/slash\nnew\ttab\r\u0001\u001f\u007f é 😀 \u2028\u2029 中文 </script> '`;

const create = async (key: string, path: string, body: Record<string, unknown>) => {
  const res = await rest(t.url, 'POST', path, { key, body });
  expect(res.status).toBe(201);
  return res.body.unique_id as string;
};

/** The body of a list as the service sends it, as text. */
async function sent(key: string, path: string, query: Record<string, string | number | boolean>) {
  const url = new URL(`${t.url}/api/v2${path}`);
  for (const [k, v] of Object.entries(query)) url.searchParams.append(k, String(v));
  const res = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  return res.text();
}

/** The public-safe owner as the legacy wire writes it for `user`. */
const ownerOf = (user: TestUser, owner: User) => ({
  unique_id: owner.uniqueId,
  username: owner.username ?? null,
  first_name: owner.firstName ?? null,
  last_name: owner.lastName ?? null,
  ...(user === admin || user.user.uniqueId === owner.uniqueId ? { email: owner.email ?? null } : {}),
});

/** A record of a list as the legacy wire writes it, from its entity. */
async function expectedRecord(
  user: TestUser,
  path: '/datasets' | '/samples',
  record: Dataset | Sample,
  q: Record<string, unknown>,
  own: Record<string, unknown>,
) {
  const p = record.project;
  const out: Record<string, unknown> = { unique_id: record.uniqueId };
  if (record instanceof Dataset) {
    Object.assign(out, {
      dataset_name: record.datasetName ?? null,
      measurement: record.measurement ?? null,
      data_type: record.dataType ?? null,
      data_format: record.dataFormat ?? null,
      session_name: record.sessionName ?? null,
      timestamp: record.timestamp ?? null,
    });
  } else {
    Object.assign(out, {
      sample_name: record.sampleName ?? null,
      sample_type: record.sampleType ?? null,
      description: record.description ?? null,
      timestamp: record.timestamp ?? null,
    });
  }
  Object.assign(out, {
    public: record.public,
    owner_orcid: record.owner.uniqueId,
    project_id: p?.projectId ?? (record instanceof Dataset ? record.legacyProjectId : null) ?? null,
    project_mfid: p?.uniqueId ?? null,
    project: p ? { unique_id: p.uniqueId, project_id: p.projectId, title: p.title ?? null } : null,
    ...own,
    creation_time: record.creationTime.toISOString(),
    modification_time: record.modificationTime.toISOString(),
    resource_type: record instanceof Dataset ? 'dataset' : 'sample',
    capabilities: null,
  });
  if (q.include_owner === true) out.owner = ownerOf(user, record.owner);
  if (q.include_metadata === true || q.include_links === true) {
    // as the single read gives them
    const one = await rest(t.url, 'GET', `${path}/${record.uniqueId}`, {
      key: user.key,
      // include_datasets is the sample route's alone (an unknown parameter is refused)
      query: {
        include_metadata: true,
        include_links: true,
        ...(record instanceof Dataset ? {} : { include_datasets: false }),
      },
    });
    expect(one.status).toBe(200);
    if (q.include_metadata === true) out.scientific_metadata = one.body.scientific_metadata;
    if (q.include_links === true) out.links = one.body.links;
  }
  return out;
}

/** The datasets' own keys, as the legacy wire writes them, from the entity. */
function datasetKeys(ds: Dataset, relation: string | null | undefined) {
  const i = ds.instrument;
  return {
    instrument_id: i?.instrumentId ?? ds.legacyInstrumentId ?? null,
    instrument_name: i?.instrumentName ?? ds.legacyInstrumentName ?? null,
    instrument_mfid: i?.uniqueId ?? null,
    instrument: i
      ? { unique_id: i.uniqueId, instrument_id: i.instrumentId, instrument_name: i.instrumentName }
      : null,
    size: ds.size,
    ...(relation !== undefined ? { project_relation: relation } : {}),
  };
}

/**
 * The list as entities say it, for `user`: the records the caller may read that the filter
 * selects (datasets: the caller's own list ids; samples: the filter on the entities, each
 * readable by the caller's single read), newest first, a keyset page of them, its total.
 */
async function expectedBody(user: TestUser, path: '/datasets' | '/samples', q: Record<string, unknown>) {
  const ctx = await t.app.contexts.forUser(user.user.uniqueId, unique('expected'));
  const em = ctx.em;
  const limit = typeof q.limit === 'number' ? q.limit : t.app.config.limits.defaultPageSize;
  const after = decodeCursor(q.cursor as string | undefined);
  let ids: string[];
  if (path === '/datasets') {
    ids = await ctx.services.dataset.readableIds(ctx, parseFilter(q));
  } else {
    const where: Record<string, unknown> = {};
    if (q.owner_orcid !== undefined) where.owner = q.owner_orcid;
    if (q.project_id !== undefined) where.project = { projectId: q.project_id };
    const all = await em.find(Sample, where, { orderBy: { uniqueId: 'desc' } });
    ids = [];
    for (const s of all) {
      const readable = await ctx.services.sample.get(ctx, s.uniqueId).then(
        () => true,
        () => false,
      );
      if (readable) ids.push(s.uniqueId);
    }
  }
  const following = after ? ids.filter((id) => id < after) : ids;
  const page = following.slice(0, limit);
  const named = path === '/datasets' && (q.project_id !== undefined || q.project_mfid !== undefined);
  const scoped = named
    ? await em.findOne(
        Project,
        q.project_mfid !== undefined
          ? { uniqueId: q.project_mfid as string }
          : { projectId: q.project_id as string },
      )
    : null;
  const items = [];
  for (const id of page) {
    if (path === '/datasets') {
      const ds = await em.findOneOrFail(
        Dataset,
        { uniqueId: id },
        { populate: ['owner', 'project', 'instrument'] },
      );
      // a project the filter names, when one matches: how each record relates to it
      const relation = scoped
        ? ds.project?.uniqueId === scoped.uniqueId
          ? 'assigned'
          : 'shared'
        : undefined;
      items.push(await expectedRecord(user, path, ds, q, datasetKeys(ds, relation)));
    } else {
      const s = await em.findOneOrFail(Sample, { uniqueId: id }, { populate: ['owner', 'project'] });
      let own = {};
      if (q.include_datasets === true) {
        const links = await em.find(DatasetSample, { sample: id }, { populate: ['dataset'] });
        const datasets = [];
        for (const l of links) {
          const readable = await ctx.services.dataset.get(ctx, l.dataset.uniqueId).then(
            () => true,
            () => false,
          );
          if (readable) datasets.push(l.dataset);
        }
        datasets.sort((x, y) => (x.uniqueId < y.uniqueId ? 1 : -1));
        own = {
          datasets: datasets.map((d) => ({
            unique_id: d.uniqueId,
            dataset_name: d.datasetName ?? null,
            measurement: d.measurement ?? null,
          })),
        };
      }
      items.push(await expectedRecord(user, path, s, q, own));
    }
  }
  const more = following.length > limit;
  return JSON.stringify({
    items,
    next_cursor: more ? encodeCursor(page[page.length - 1]) : null,
    total: ids.length,
    total_exact: true,
  });
}

/** The list as sent and as entities say it, every page (following `next_cursor`); returns the pages sent. */
async function same(
  user: TestUser,
  path: '/datasets' | '/samples',
  q: Record<string, string | number | boolean>,
) {
  const pages: { items: Record<string, unknown>[]; next_cursor: string | null }[] = [];
  let cursor: string | undefined;
  do {
    const query = cursor ? { ...q, cursor } : q;
    const text = await sent(user.key, path, query);
    expect(text).toBe(await expectedBody(user, path, query));
    const page = JSON.parse(text) as (typeof pages)[number];
    pages.push(page);
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return pages;
}

beforeAll(async () => {
  t = await startTestApp();
  admin = await makeUser(t.app, { admin: true });
  alice = await makeUser(t.app);
  bob = await makeUser(t.app);
  project = await makeProject(t.app, admin.user);
  untitled = await makeProject(t.app, admin.user);
  elsewhere = await makeProject(t.app, admin.user);
  for (const p of [project, untitled, elsewhere]) await addMember(t.app, p, alice.user, 'contributor');
  await addMember(t.app, project, bob.user, 'viewer');
  const em = t.app.orm.em.fork();
  await rawQuery(em, 'update project set title = null where unique_id = ?', [untitled.uniqueId]);
  const made = await rest(t.url, 'POST', '/instruments', {
    key: admin.key,
    body: { instrument_name: unique(`Instrument ${TRICKY}`), owner: admin.user.uniqueId },
  });
  expect(made.status).toBe(201);
  instrument = made.body.unique_id as string;
  session = unique('listjson');

  const full = await create(alice.key, '/datasets', {
    dataset_name: `full ${TRICKY}`,
    measurement: 'XRD ✓',
    data_type: 'raw',
    data_format: 'h5',
    session_name: session,
    timestamp: '2026-01-17T01:31:26Z',
    public: true,
    project_id: project.projectId,
    instrument_mfid: instrument,
    scientific_metadata: {
      text: TRICKY,
      nested: { zeta: 1, alpha: [1.5, -0.25, 1e-7, 18446744073709552000, 1e300, true, null] },
      '': 'empty key',
      ключ: 'юникод',
    },
  });
  const nulls = await create(alice.key, '/datasets', { session_name: session });
  const legacy = await create(alice.key, '/datasets', { session_name: session, dataset_name: 'legacy' });
  const big = await create(alice.key, '/datasets', {
    session_name: session,
    dataset_name: 'big',
    project_id: untitled.projectId,
  });
  const shared = await create(alice.key, '/datasets', {
    session_name: session,
    dataset_name: 'shared',
    project_id: elsewhere.projectId,
  });
  await grant(t.app, shared, 'dataset', 'project', project.uniqueId, 'viewer');
  await rawQuery(
    em,
    `update dataset set legacy_project_id = 'old-slug', legacy_instrument_id = ?, legacy_instrument_name = ?
     where unique_id = ?`,
    [`old ${TRICKY}`, 'Old name', legacy],
  );
  await rawQuery(
    em,
    `update dataset set size = 9007199254740991, creation_time = '2026-01-02 03:04:05.999999+00',
     modification_time = '1999-12-31 23:59:59.0005+05:30' where unique_id = ?`,
    [big],
  );
  await rawQuery(em, `update dataset set size = 123456789012 where unique_id = ?`, [full]);
  await rawQuery(
    em,
    `update dataset set modification_time = '2026-03-04 05:06:07.123456+00' where unique_id = ?`,
    [nulls],
  );
  for (const [parent, child] of [
    [full, nulls],
    [legacy, full],
  ]) {
    const linked = await rest(t.url, 'POST', '/resources/links', {
      key: alice.key,
      body: { parent_mfid: parent, child_mfid: child, relationship_type: 'is_derived_from' },
    });
    expect(linked.status).toBe(201);
  }

  // samples: every field, nulls, tricky text; one in a project, one linked to a dataset
  const sample = await create(alice.key, '/samples', {
    sample_name: `wafer ${TRICKY}`,
    sample_type: 'wafer',
    description: `${TRICKY}\n`.repeat(40),
    timestamp: '2026-01-17',
    project_id: project.projectId,
    public: true,
    scientific_metadata: { thickness_nm: 12.5, text: TRICKY },
  });
  await create(alice.key, '/samples', { sample_name: session });
  const linked = await rest(t.url, 'POST', '/resources/links', {
    key: alice.key,
    body: { parent_mfid: full, child_mfid: sample },
  });
  expect(linked.status).toBe(201);
});
afterAll(() => t.close());

test('dataset lists: the bytes entities say, with every field, nulls, legacy values, sizes and times', async () => {
  const [page] = await same(alice, '/datasets', { session_name: session });
  expect(page.items).toHaveLength(5);
  const byName = new Map(page.items.map((d) => [d.dataset_name, d]));
  // what the fixtures are meant to cover is really there
  expect(byName.get('big')).toMatchObject({
    size: 9007199254740991,
    creation_time: '2026-01-02T03:04:05.999Z',
    modification_time: '1999-12-31T18:29:59.000Z',
    project: { title: null },
  });
  expect(byName.get('legacy')).toMatchObject({
    project_id: 'old-slug',
    project: null,
    instrument_id: `old ${TRICKY}`,
    instrument: null,
  });
  expect(byName.get(null)).toMatchObject({ measurement: null, project: null, size: 0 });
  expect(byName.get(`full ${TRICKY}`)).toMatchObject({ size: 123456789012, instrument_mfid: instrument });
  expect(Object.keys(page.items[0])).toContain('capabilities');
});

test('dataset lists: include_owner, include_metadata and include_links, alone and together', async () => {
  const options: Record<string, boolean>[] = [
    { include_owner: true },
    { include_metadata: true },
    { include_links: true },
    { include_owner: true, include_metadata: true, include_links: true },
    { include_owner: false, include_metadata: false, include_links: false },
  ];
  for (const flags of options) {
    // bob sees no other user's email; admin sees every one
    for (const user of [alice, bob, admin])
      await same(user, '/datasets', { session_name: session, ...flags });
  }
  const [page] = await same(alice, '/datasets', {
    session_name: session,
    include_metadata: true,
    include_links: true,
  });
  expect(page.items.some((d) => (d.links as unknown[]).length > 0)).toBe(true);
  expect(page.items.some((d) => d.scientific_metadata !== null)).toBe(true);
});

test('dataset lists: keyset pages, project_relation, filters and an empty page', async () => {
  const pages = await same(alice, '/datasets', { session_name: session, limit: 2, include_owner: true });
  expect(pages.map((p) => p.items.length)).toEqual([2, 2, 1]);
  for (const scope of ['assigned', 'shared', 'all']) {
    await same(alice, '/datasets', {
      project_id: project.projectId,
      project_scope: scope,
      session_name: session,
    });
  }
  const [related] = await same(bob, '/datasets', { project_mfid: project.uniqueId, project_scope: 'all' });
  expect(new Set(related.items.map((d) => d.project_relation))).toEqual(new Set(['assigned', 'shared']));
  await same(alice, '/datasets', { project_id: 'old-slug', session_name: session });
  await same(alice, '/datasets', { instrument_mfid: instrument, limit: 1 });
  await same(alice, '/datasets', { session_name: session, text: 'quoted' });
  await same(alice, '/datasets', { session_name: unique('nothing') });
  await same(bob, '/datasets', { session_name: session });
});

test('sample lists: the bytes entities say, include_datasets too', async () => {
  const options: Record<string, boolean>[] = [
    {},
    { include_owner: true, include_metadata: true, include_links: true },
  ];
  for (const flags of options) {
    for (const user of [alice, bob, admin])
      await same(user, '/samples', { owner_orcid: alice.user.uniqueId, ...flags });
  }
  const pages = await same(alice, '/samples', { owner_orcid: alice.user.uniqueId, limit: 1 });
  expect(pages).toHaveLength(2);
  await same(alice, '/samples', { project_id: project.projectId });
  const [withDatasets] = await same(alice, '/samples', {
    owner_orcid: alice.user.uniqueId,
    include_datasets: true,
  });
  expect(withDatasets.items.some((s) => (s.datasets as unknown[]).length === 1)).toBe(true);
});
