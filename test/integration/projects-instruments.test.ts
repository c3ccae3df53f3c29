import { startTestApp, type TestApp } from '../support/app';
import { gql, rest } from '../support/http';
import { makeUser, randomOrcid, unique, type TestUser } from '../support/factories';
import { Project } from '../../src/modules/project/project.entity';
import { newMfid } from '../../src/core/ids';

let t: TestApp;
let admin: TestUser;
let lead: TestUser;
let user: TestUser;

beforeAll(async () => {
  t = await startTestApp();
  admin = await makeUser(t.app, { admin: true });
  lead = await makeUser(t.app, { orcid: randomOrcid() });
  user = await makeUser(t.app);
});
afterAll(() => t.close());

describe('projects', () => {
  test('platform admins create projects; the lead is flexible and defaults to the caller', async () => {
    const slug = unique('crucible-test');
    const res = await rest(t.url, 'POST', '/projects', {
      key: admin.key,
      body: { project_id: slug, organization: 'Foundry', project_lead_orcid: lead.user.uniqueId },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      project_id: slug,
      organization: 'Foundry',
      project_lead_orcid: lead.user.uniqueId,
      status: 'active',
      resource_type: 'project',
    });
    expect(res.body.lead).toMatchObject({ unique_id: lead.user.uniqueId, username: lead.user.username });
    expect(res.body.lead.email).toBe(lead.user.email); // platform admins see emails
    const asUser = await rest(t.url, 'GET', `/projects/${slug}`, { key: user.key });
    expect(asUser.body.lead).not.toHaveProperty('email');
    expect(asUser.body.project_lead_email).toBeNull();
    const byMail = await rest(t.url, 'POST', '/projects', {
      key: admin.key,
      body: { project_id: unique('p'), project_lead: lead.user.email },
    });
    expect(byMail.body.project_lead_orcid).toBe(lead.user.uniqueId);
    const mine = await rest(t.url, 'POST', '/projects', {
      key: admin.key,
      body: { project_id: unique('p') },
    });
    expect(mine.body.project_lead_orcid).toBe(admin.user.uniqueId);
    expect(
      (await rest(t.url, 'POST', '/projects', { key: user.key, body: { project_id: unique('p') } })).status,
    ).toBe(403);
  });

  test('bad input: slug rules, duplicates, conflicting lead fields, unknown fields', async () => {
    const slug = unique('dup');
    expect(
      (await rest(t.url, 'POST', '/projects', { key: admin.key, body: { project_id: slug } })).status,
    ).toBe(201);
    expect(
      (await rest(t.url, 'POST', '/projects', { key: admin.key, body: { project_id: slug } })).status,
    ).toBe(409);
    for (const bad of ['x', 'has space', '-leading', 'a'.repeat(65), newMfid()]) {
      const res = await rest(t.url, 'POST', '/projects', { key: admin.key, body: { project_id: bad } });
      expect(res.status).toBe(422);
      expect(res.body.fields[0].field).toBe('project_id');
    }
    const conflict = await rest(t.url, 'POST', '/projects', {
      key: admin.key,
      body: {
        project_id: unique('c'),
        project_lead: lead.user.uniqueId,
        project_lead_email: user.user.email,
      },
    });
    expect(conflict.status).toBe(422);
    // the flexible lead and a legacy lead field are never given together, even when they agree
    const both = await rest(t.url, 'POST', '/projects', {
      key: admin.key,
      body: {
        project_id: unique('c'),
        project_lead: lead.user.email,
        project_lead_orcid: lead.user.uniqueId,
      },
    });
    expect(both.status).toBe(422);
    expect(both.body.fields.map((f: { field: string }) => f.field)).toEqual([
      'project_lead',
      'project_lead_orcid',
    ]);
    // legacy lead fields that agree are fine (the legacy client sends several)
    const legacy = await rest(t.url, 'POST', '/projects', {
      key: admin.key,
      body: {
        project_id: unique('c'),
        project_lead_orcid: lead.user.uniqueId,
        project_lead_email: lead.user.email,
        project_lead_username: lead.user.username,
      },
    });
    expect(legacy.status).toBe(201);
    expect(legacy.body.project_lead_orcid).toBe(lead.user.uniqueId);
    expect(
      (
        await rest(t.url, 'POST', '/projects', {
          key: admin.key,
          body: { project_id: unique('c'), budget: 5 },
        })
      ).status,
    ).toBe(422);
  });

  test('slugs are validated on create and rename only: legacy slugs stay readable', async () => {
    const em = t.app.orm.em.fork();
    const legacy = em.create(Project, {
      uniqueId: newMfid(),
      projectId: 'MFUSER legacy.slug!',
      owner: admin.user.uniqueId,
    });
    await em.flush();
    const read = await rest(t.url, 'GET', `/projects/${encodeURIComponent('MFUSER legacy.slug!')}`, {
      key: user.key,
    });
    expect(read.status).toBe(200);
    expect(
      (
        await rest(t.url, 'PATCH', `/projects/${legacy.uniqueId}`, {
          key: admin.key,
          body: { title: 'kept' },
        })
      ).status,
    ).toBe(200);
    const rename = await rest(t.url, 'PATCH', `/projects/${legacy.uniqueId}`, {
      key: admin.key,
      body: { project_id: 'still bad' },
    });
    expect(rename.status).toBe(422);
    const good = unique('renamed');
    expect(
      (
        await rest(t.url, 'PATCH', `/projects/${legacy.uniqueId}`, {
          key: admin.key,
          body: { project_id: good },
        })
      ).body.project_id,
    ).toBe(good);
    expect(
      (
        await rest(t.url, 'PATCH', `/projects/${good}`, {
          key: admin.key,
          body: { project_lead_orcid: user.user.uniqueId },
        })
      ).status,
    ).toBe(422);
    // the record sent back as read (the 3.1 CLI's project edit): the current lead is no change
    const echoed = await rest(t.url, 'PATCH', `/projects/${good}`, {
      key: admin.key,
      body: {
        title: 'edited',
        project_lead_orcid: admin.user.uniqueId,
        project_lead_username: admin.user.username,
        project_lead_email: null,
        lead: { unique_id: admin.user.uniqueId, username: admin.user.username },
      },
    });
    expect(echoed.status).toBe(200);
    expect(echoed.body).toMatchObject({ title: 'edited', project_lead_orcid: admin.user.uniqueId });
    expect(
      (await rest(t.url, 'PATCH', `/projects/${good}`, { key: user.key, body: { title: 'no' } })).status,
    ).toBe(403);
  });

  test('reads by slug or MFID, offset-envelope list, GraphQL membership', async () => {
    const slug = unique('gp');
    const created = await gql(
      t.url,
      admin.key,
      `mutation($s: String!, $l: String!) { createProject(input: { projectId: $s, title: "T", projectLead: $l }) { uniqueId projectId lead { uniqueId } } }`,
      { s: slug, l: lead.user.username! },
    );
    expect(created.errors).toBeUndefined();
    const mfid = created.data.createProject.uniqueId;
    expect((await rest(t.url, 'GET', `/projects/${mfid}`, { key: user.key })).body.project_id).toBe(slug);
    expect((await rest(t.url, 'GET', `/projects/no-such-${slug}`, { key: user.key })).status).toBe(404);
    const page = await rest(t.url, 'GET', '/projects', { key: user.key, query: { limit: 1000 } });
    expect(Object.keys(page.body).sort()).toEqual(['items', 'total']);
    expect(page.body.total).toBeGreaterThanOrEqual(page.body.items.length);
    // the database is shared (list-caps.test.ts adds 1000 projects): the project is on some page
    const listed = async (offset: number): Promise<boolean> => {
      const { body } = await rest(t.url, 'GET', '/projects', {
        key: user.key,
        query: { limit: 1000, offset },
      });
      if (body.items.some((p: { project_id: string }) => p.project_id === slug)) return true;
      return body.items.length === 1000 && listed(offset + 1000);
    };
    expect(await listed(0)).toBe(true);
    const offset = await rest(t.url, 'GET', '/projects', { key: user.key, query: { limit: 1, offset: 1 } });
    expect(offset.body.items).toHaveLength(1);

    const add = await gql(
      t.url,
      lead.key,
      `mutation($p: String!, $u: String!) { setProjectMember(project: $p, member: { user: $u, role: "editor" }) { role user { uniqueId } } }`,
      { p: slug, u: user.user.email! },
    );
    expect(add.errors).toBeUndefined();
    expect(add.data.setProjectMember).toEqual([{ role: 'editor', user: { uniqueId: user.user.uniqueId } }]);
    const me = await gql(t.url, user.key, '{ me { projects { role project { projectId } } } }');
    expect(me.data.me.projects).toContainEqual({ role: 'editor', project: { projectId: slug } });
    const denied = await gql(
      t.url,
      user.key,
      `mutation($p: String!, $u: String!) { setProjectMember(project: $p, member: { user: $u }) { role } }`,
      { p: slug, u: admin.user.uniqueId },
    );
    expect(denied.errors?.[0].extensions?.code).toBe('FORBIDDEN');
  });
});

describe('instruments', () => {
  test('admins register instruments; name is unique; slug derived; owner rules', async () => {
    const name = unique('Titan X');
    const res = await rest(t.url, 'POST', '/instruments', {
      key: admin.key,
      body: { instrument_name: name, location: 'B72', owner: lead.user.uniqueId, public: false },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      instrument_name: name,
      location: 'B72',
      owner_orcid: lead.user.uniqueId,
      resource_type: 'instrument',
    });
    expect(res.body.instrument_id).toMatch(/^titan-x-/);
    expect(
      (await rest(t.url, 'POST', '/instruments', { key: admin.key, body: { instrument_name: name } })).status,
    ).toBe(409);
    expect(
      (await rest(t.url, 'POST', '/instruments', { key: user.key, body: { instrument_name: unique('I') } }))
        .status,
    ).toBe(403);
    expect((await rest(t.url, 'POST', '/instruments', { key: admin.key, body: {} })).status).toBe(422);
    const both = await rest(t.url, 'POST', '/instruments', {
      key: admin.key,
      body: { instrument_name: unique('I'), owner: 'a', owner_orcid: 'b' },
    });
    expect(both.status).toBe(422);

    for (const id of [res.body.unique_id, res.body.instrument_id]) {
      expect(
        (await rest(t.url, 'GET', `/instruments/${encodeURIComponent(id)}`, { key: user.key })).body
          .unique_id,
      ).toBe(res.body.unique_id);
    }
    const byName = await rest(t.url, 'GET', '/instruments', {
      key: user.key,
      query: { instrument_name: name, limit: 1000 },
    });
    expect(byName.body.items.map((i: { unique_id: string }) => i.unique_id)).toEqual([res.body.unique_id]);
    expect(byName.body.total).toBe(1);
    expect(
      (await rest(t.url, 'GET', '/instruments', { key: user.key, query: { instrument_name: `${name}x` } }))
        .body.total,
    ).toBe(0);

    const patch = await rest(t.url, 'PATCH', `/instruments/${res.body.unique_id}`, {
      key: lead.key,
      body: { location: 'B73' },
    });
    expect(patch.body.location).toBe('B73');
    const owner = await rest(t.url, 'PATCH', `/instruments/${res.body.unique_id}`, {
      key: lead.key,
      body: { owner: user.user.uniqueId },
    });
    expect(owner.status).toBe(422);
    expect(owner.body.detail).toMatch(/transfer_ownership/);
    expect(
      (
        await rest(t.url, 'PATCH', `/instruments/${res.body.unique_id}`, {
          key: user.key,
          body: { location: 'x' },
        })
      ).status,
    ).toBe(403);
  });
});
