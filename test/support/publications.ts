import type { TestApp } from './app';
import type { TestUser } from './factories';
import { formUpload, makeDataset } from './files';
import { rest } from './http';

/**
 * Publications as the publication tests seed them (landing pages, export formats, OAI-PMH,
 * sitemaps), through the REST shim as a client makes them.
 */

/** The crystallography publication of the landing and format tests, less its title. */
export const CRYSTALS = {
  description:
    'Diffraction images of lysozyme crystals collected at 100 K on beamline 7, with the processing logs.',
  creators: [
    {
      name: 'Carberry, Josiah',
      orcid: '0000-0002-1825-0097',
      affiliations: [{ name: 'Brown University', ror_id: '05gq02987' }],
    },
    { name: 'Example Beamline Team' },
  ],
  license: 'CC-BY-4.0',
  keywords: ['crystallography', 'lysozyme'],
  funding: [{ funder_name: 'Example Foundation', award_number: 'EF-42' }],
};

/** A dataset of `owner` named `name` holding these files (name, content), each upload a 201. */
export async function datasetWithFiles(
  t: TestApp,
  owner: TestUser,
  name: string,
  files: readonly (readonly [string, string])[],
): Promise<string> {
  const ds = await makeDataset(t, owner, name);
  for (const [file, data] of files) {
    const up = await formUpload(t.url, owner.key, ds, [{ name: file, data: Buffer.from(data) }]);
    expect(up.status).toBe(201);
  }
  return ds;
}

/** A new publication of `body` (a 201), published (a 200) unless `publish` is false; its id. */
export async function makePublication(
  t: TestApp,
  key: string,
  body: Record<string, unknown>,
  publish = true,
): Promise<string> {
  const created = await rest(t.url, 'POST', '/publications', { key, body });
  expect(created.status).toBe(201);
  const id = created.body.id as string;
  if (publish) expect((await rest(t.url, 'POST', `/publications/${id}/publish`, { key })).status).toBe(200);
  return id;
}

/** The next version of publication `id`, numbered `version` and published (a 200); its id. */
export async function publishNextVersion(
  t: TestApp,
  key: string,
  id: string,
  version: string,
): Promise<string> {
  const next = (await rest(t.url, 'POST', `/publications/${id}/versions`, { key })).body.id as string;
  await rest(t.url, 'PATCH', `/publications/${next}`, { key, body: { version } });
  expect((await rest(t.url, 'POST', `/publications/${next}/publish`, { key })).status).toBe(200);
  return next;
}
