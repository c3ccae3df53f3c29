import { ConfigError, loadConfig } from '../../src/core/config';
import { Publication } from '../../src/modules/publication/publication.entity';
import { startTestApp, type TestApp } from '../support/app';
import { gql, rest } from '../support/http';
import { drainJobs } from '../support/jobs';
import { makeUser, type TestUser } from '../support/factories';
import { formUpload, makeDataset } from '../support/files';
import { FakeDatacite } from '../support/datacite-fake';

const BASE = 'https://catalog.example.org';
const DESCRIPTION =
  'Diffraction images of lysozyme crystals collected at 100 K on beamline 7, with the processing logs.';

let fake: FakeDatacite;
let t: TestApp;
let owner: TestUser;
let reader: TestUser;
let ds: string;

beforeAll(async () => {
  fake = await new FakeDatacite().start();
  // retries at once (backoff base 0): draining runs every attempt
  t = await startTestApp({ ...fake.env(), PUBLIC_BASE_URL: BASE, JOB_RETRY_BASE_MS: '0' });
  owner = await makeUser(t.app);
  reader = await makeUser(t.app);
  ds = await makeDataset(t, owner, 'crystals');
  const up = await formUpload(t.url, owner.key, ds, [{ name: 'a.h5', data: Buffer.from('first file') }]);
  expect(up.status).toBe(201);
});
afterAll(async () => {
  await t.close();
  await fake.stop();
});

function draft(extra: Record<string, unknown> = {}) {
  return rest(t.url, 'POST', '/publications', {
    key: owner.key,
    body: {
      dataset_ids: [ds],
      title: 'Lysozyme diffraction',
      description: DESCRIPTION,
      creators: [{ name: 'Carberry, Josiah', orcid: '0000-0002-1825-0097' }],
      license: 'CC-BY-4.0',
      keywords: ['crystallography'],
      related_identifiers: [
        {
          related_identifier: '10.1234/paper',
          related_identifier_type: 'DOI',
          relation_type: 'IsSupplementTo',
        },
      ],
      ...extra,
    },
  });
}

const requestsFor = (doi: string) =>
  fake.received.filter((r) =>
    r.path === '/dois'
      ? r.body?.data?.attributes?.doi === doi
      : r.path === `/dois/${encodeURIComponent(doi)}`,
  );

test('create, publish, withdraw: a draft DOI, then findable with the full record, then hidden', async () => {
  const created = await draft();
  expect(created.status).toBe(201);
  const id = created.body.id as string;
  const doi = created.body.doi as string;
  // the DOI is ours: the prefix and an opaque suffix, chosen at creation
  expect(doi).toMatch(/^10\.80001\/[0-9a-z]{5}-[0-9a-z]{5}$/);
  expect(created.body.registration_state).toBe('pending');

  await drainJobs(t);
  const [post] = requestsFor(doi);
  expect(post).toMatchObject({ method: 'POST', path: '/dois', authorized: true, status: 201 });
  expect(post.contentType).toMatch(/^application\/vnd\.api\+json/);
  expect(post.body.data.type).toBe('dois');
  expect(post.body.data.attributes.event).toBeUndefined();
  expect(fake.dois.get(doi)?.state).toBe('draft');
  let read = await rest(t.url, 'GET', `/publications/${id}`, { key: owner.key });
  expect(read.body).toMatchObject({ doi, registration_state: 'draft', registration_error: null });

  expect((await rest(t.url, 'POST', `/publications/${id}/publish`, { key: owner.key })).status).toBe(200);
  await drainJobs(t);
  const put = requestsFor(doi).find((r) => r.method === 'PUT');
  expect(put).toMatchObject({ authorized: true, status: 200 });
  const attributes = put!.body.data.attributes;
  expect(attributes).toMatchObject({
    doi,
    event: 'publish',
    url: `${BASE}/publications/${id}`,
    titles: [{ title: 'Lysozyme diffraction' }],
    publisher: { name: 'Catalog service' },
    types: { resourceTypeGeneral: 'Dataset' },
    relatedIdentifiers: [
      { relatedIdentifier: '10.1234/paper', relatedIdentifierType: 'DOI', relationType: 'IsSupplementTo' },
    ],
  });
  expect(attributes.creators[0]).toMatchObject({ name: 'Carberry, Josiah', familyName: 'Carberry' });
  expect(put!.xml).toContain(`<identifier identifierType="DOI">${doi}</identifier>`);
  expect(fake.dois.get(doi)).toMatchObject({ state: 'findable', events: ['publish'] });
  read = await rest(t.url, 'GET', `/publications/${id}`, { key: reader.key });
  expect(read.body).toMatchObject({ doi, registration_state: 'findable' });

  // cited by the DOI in every format
  const csl = await rest(t.url, 'GET', `/publications/${id}/export/csl-json`, { key: reader.key });
  expect(csl.body[0].DOI).toBe(doi);
  const org = await rest(t.url, 'GET', `/publications/${id}/export/schema-org`, { key: reader.key });
  expect(org.body.identifier).toBe(`https://doi.org/${doi}`);

  const withdrawn = await rest(t.url, 'POST', `/publications/${id}/withdraw`, {
    key: owner.key,
    body: { reason: 'the calibration was wrong' },
  });
  expect(withdrawn.status).toBe(200);
  await drainJobs(t);
  const hide = requestsFor(doi).filter((r) => r.method === 'PUT')[1];
  expect(hide.body.data.attributes).toMatchObject({ event: 'hide', url: `${BASE}/publications/${id}` });
  expect(fake.dois.get(doi)).toMatchObject({ state: 'registered', events: ['publish', 'hide'] });
  read = await rest(t.url, 'GET', `/publications/${id}`, { key: reader.key });
  expect(read.body.registration_state).toBe('registered');

  // every payload the fake took was valid against the 4.7 XSD (it refuses the others)
  expect(fake.received.filter((r) => r.status === 422)).toEqual([]);
});

test('a new version has a DOI of its own; publishing it sends the previous one again with the link', async () => {
  const v1 = (await draft()).body;
  await rest(t.url, 'POST', `/publications/${v1.id}/publish`, { key: owner.key });
  const v2 = await rest(t.url, 'POST', `/publications/${v1.id}/versions`, { key: owner.key });
  expect(v2.status).toBe(201);
  expect(v2.body.doi).toMatch(/^10\.80001\//);
  expect(v2.body.doi).not.toBe(v1.doi);
  await rest(t.url, 'POST', `/publications/${v2.body.id}/publish`, { key: owner.key });
  await drainJobs(t);
  expect(fake.dois.get(v2.body.doi)?.state).toBe('findable');
  expect(fake.dois.get(v1.doi)?.state).toBe('findable');
  const v2Record = fake.dois.get(v2.body.doi)!.attributes.relatedIdentifiers;
  expect(v2Record).toContainEqual({
    relatedIdentifier: v1.doi,
    relatedIdentifierType: 'DOI',
    relationType: 'IsNewVersionOf',
  });
  // v1's last update (no event: it stays findable) names its next version
  const v1Puts = requestsFor(v1.doi).filter((r) => r.method === 'PUT');
  const last = v1Puts[v1Puts.length - 1].body.data.attributes;
  expect(last.event).toBeUndefined();
  expect(last.relatedIdentifiers).toContainEqual({
    relatedIdentifier: v2.body.doi,
    relatedIdentifierType: 'DOI',
    relationType: 'IsPreviousVersionOf',
  });
});

test("one publication's DataCite jobs never overlap nor pass each other, with two jobs running at once", async () => {
  // created and published before any job runs: two jobs of the same publication wait together
  const created = await draft();
  const id = created.body.id as string;
  const doi = created.body.doi as string;
  expect((await rest(t.url, 'POST', `/publications/${id}/publish`, { key: owner.key })).status).toBe(200);
  // DataCite slow on the first call: a second job of the publication, if claimed, would overlap it
  fake.slowNext(1, 500);
  fake.resetInFlight();
  expect(t.app.config.workerConcurrency).toBeGreaterThan(1);
  await drainJobs(t);
  expect(fake.maxInFlight).toBe(1);
  // in order: the draft DOI, then its publication (the first job finds it published already),
  // then the second job's record again: never two creations, never a publish before the DOI
  expect(requestsFor(doi).map((r) => `${r.method} ${r.status}`)).toEqual(['POST 201', 'PUT 200', 'PUT 200']);
  expect(requestsFor(doi)[1].body.data.attributes.event).toBe('publish');
  expect(fake.dois.get(doi)).toMatchObject({ state: 'findable', events: ['publish'] });
});

test('DataCite failing three times (503) then answering: retried by the queue until the DOI is registered', async () => {
  fake.failNext(3);
  const created = await draft();
  const doi = created.body.doi as string;
  await drainJobs(t);
  const tries = fake.received.slice(-4);
  expect(tries.map((r) => r.status)).toEqual([503, 503, 503, 201]);
  expect(tries.every((r) => r.method === 'POST' && r.body.data.attributes.doi === doi)).toBe(true);
  expect(fake.dois.get(doi)?.state).toBe('draft');
  const read = await rest(t.url, 'GET', `/publications/${created.body.id}`, { key: owner.key });
  expect(read.body).toMatchObject({ registration_state: 'draft', registration_error: null });
});

test('a refusal (a 4xx other than 429) is kept for the managers to see, not retried', async () => {
  const created = await draft();
  const id = created.body.id as string;
  await drainJobs(t);
  await rest(t.url, 'POST', `/publications/${id}/publish`, { key: owner.key });
  fake.failNext(1, 422);
  const before = fake.received.length;
  await drainJobs(t);
  expect(fake.received.length).toBe(before + 1);
  const mine = await rest(t.url, 'GET', `/publications/${id}`, { key: owner.key });
  expect(mine.body.registration_state).toBe('failed');
  expect(mine.body.registration_error).toContain('DataCite refused PUT');
  // others read the publication, not why DataCite refused it
  const theirs = await rest(t.url, 'GET', `/publications/${id}`, { key: reader.key });
  expect(theirs.body).toMatchObject({ registration_state: 'failed', registration_error: null });
  // the same in GraphQL
  const query = 'query($id: ID!) { publication(id: $id) { doi registrationState registrationError } }';
  const g = await gql(t.url, owner.key, query, { id });
  expect(g.data.publication).toMatchObject({ doi: created.body.doi, registrationState: 'failed' });
  expect(g.data.publication.registrationError).toContain('DataCite refused PUT');
  const other = await gql(t.url, reader.key, query, { id });
  expect(other.data.publication).toMatchObject({ registrationState: 'failed', registrationError: null });
});

test('withdrawn before DataCite took its publication: the draft DOI goes to registered (register), never findable', async () => {
  const created = await draft();
  const { id, doi } = created.body as { id: string; doi: string };
  await drainJobs(t);
  await rest(t.url, 'POST', `/publications/${id}/publish`, { key: owner.key });
  fake.failNext(1, 422);
  await drainJobs(t);
  expect(fake.dois.get(doi)?.state).toBe('draft');
  const withdrawn = await rest(t.url, 'POST', `/publications/${id}/withdraw`, {
    key: owner.key,
    body: { reason: 'withdrawn at once' },
  });
  // the change clears the refusal: tried again
  expect(withdrawn.body).toMatchObject({ registration_state: 'pending', registration_error: null });
  await drainJobs(t);
  expect(fake.dois.get(doi)).toMatchObject({ state: 'registered', events: ['register'] });
  const read = await rest(t.url, 'GET', `/publications/${id}`, { key: owner.key });
  expect(read.body).toMatchObject({ registration_state: 'registered', registration_error: null });
});

test('a record the DataCite Metadata Schema 4.7 refuses is refused here, naming the field, and never sent', async () => {
  const created = await draft();
  const id = created.body.id as string;
  await drainJobs(t);
  // metadata written under laxer rules (an older version, an import): a relation type 4.7 does not know
  const em = t.app.orm.em.fork();
  const pub = await em.findOneOrFail(Publication, { uniqueId: id });
  await em.nativeUpdate(
    Publication,
    { uniqueId: id },
    {
      metadata: {
        ...pub.metadata,
        relatedIdentifiers: [
          { relatedIdentifier: '10.1234/a', relatedIdentifierType: 'DOI', relationType: 'IsSupplementTo' },
          {
            relatedIdentifier: '10.1234/b',
            relatedIdentifierType: 'DOI',
            relationType: 'IsFriendOf' as never,
          },
        ],
      },
    },
  );
  const before = fake.received.length;
  const refused = await rest(t.url, 'POST', `/publications/${id}/publish`, { key: owner.key });
  expect(refused.status).toBe(422);
  expect(refused.body.fields[0].field).toBe('relatedIdentifiers/relatedIdentifier[2]/@relationType');
  expect(refused.body.fields[0].message).toContain("'IsFriendOf' is not an element of the set");
  await drainJobs(t);
  expect(fake.received.length).toBe(before);
  const read = await rest(t.url, 'GET', `/publications/${id}`, { key: owner.key });
  expect(read.body.state).toBe('draft');
  // the DataCite exports are refused alike
  const xml = await rest(t.url, 'GET', `/publications/${id}/export/datacite-xml`, { key: owner.key });
  expect(xml.status).toBe(422);
});

test('the 4.7 additions are accepted (relation type Other, identifier type SWHID) and valid at the fake', async () => {
  const created = await draft({
    related_identifiers: [
      {
        related_identifier: 'swh:1:dir:d198bc9d7a6bcf6db04f476d29314f157507d505',
        related_identifier_type: 'SWHID',
        relation_type: 'Other',
      },
    ],
  });
  expect(created.status).toBe(201);
  await drainJobs(t);
  expect(fake.dois.get(created.body.doi)?.state).toBe('draft');
});

test('without DataCite: cited by the landing page, no DOI, no registration job', async () => {
  const before = fake.received.length;
  const plain = await startTestApp({ PUBLIC_BASE_URL: BASE });
  try {
    const u = await makeUser(plain.app);
    const d = await makeDataset(plain, u, 'plain');
    const created = await rest(plain.url, 'POST', '/publications', {
      key: u.key,
      body: {
        dataset_ids: [d],
        title: 'Plain',
        description: DESCRIPTION,
        creators: [{ name: 'Team' }],
        license: 'CC0-1.0',
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ doi: null, registration_state: 'none', registration_error: null });
    const id = created.body.id as string;
    expect((await rest(plain.url, 'POST', `/publications/${id}/publish`, { key: u.key })).status).toBe(200);
    expect(plain.app.jobs.queues).not.toContain('datacite');
    const org = await rest(plain.url, 'GET', `/publications/${id}/export/schema-org`, { key: u.key });
    expect(org.body.identifier).toBe(`${BASE}/publications/${id}`);
    // the kernel-4 XML names the landing page as its identifier, and is valid against 4.7
    const xml = await fetch(`${plain.url}/api/v2/publications/${id}/export/datacite-xml`, {
      headers: { authorization: `Bearer ${u.key}` },
    });
    const text = await xml.text();
    expect(text).toContain(`<identifier identifierType="URL">${BASE}/publications/${id}</identifier>`);
    expect((await fake.check(text)).errors).toEqual([]);
  } finally {
    await plain.close();
  }
  expect(fake.received.length).toBe(before);
});

test('DataCite settings: all three or none; the API URL defaults to DataCite production', () => {
  expect(() => loadConfig({ DATACITE_PREFIX: '10.80001' })).toThrow(ConfigError);
  expect(() => loadConfig({ DATACITE_PREFIX: '10.80001' })).toThrow(
    /DATACITE_REPOSITORY_ID, DATACITE_PASSWORD missing/,
  );
  const c = loadConfig({
    DATACITE_PREFIX: '10.80001',
    DATACITE_REPOSITORY_ID: 'X.Y',
    DATACITE_PASSWORD: 'p',
  });
  expect(c.datacite).toMatchObject({ apiUrl: 'https://api.datacite.org', prefix: '10.80001' });
  expect(loadConfig({}).datacite).toBeUndefined();
});
