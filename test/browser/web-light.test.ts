import type { Page } from 'playwright-core';
import { browserSuite } from '../support/browser';
import { addMember, makeProject, makeUser, unique, type TestUser } from '../support/factories';
import { png } from '../support/fixtures';
import { rawQuery } from '../../src/core/db/raw';
import { newMfid } from '../../src/core/ids';
import { createDataset, must, screenshot, seriousViolations } from '../support/web';

/**
 * Issue 27 items 8, 10 and 11 in the system Chromium: the layered graph (no edge crosses a node
 * that is not one of its ends, checked on what cytoscape drew), and the page at phone and tablet
 * widths (no horizontal scrolling), readable dates, the skip link, focus on the new page's
 * heading, and a plain message when the service cannot be reached. Screenshots in test-artifacts/web.
 */

interface Crossing {
  edge: string;
  node: string;
}

/**
 * Every edge segment as drawn (source endpoint, cytoscape's segment points, target endpoint)
 * against every node's box (its shape, labels excluded) other than the edge's two ends.
 */
async function crossings(
  page: Page,
): Promise<{ edges: number; nodes: number; bent: number; found: Crossing[] }> {
  return page.evaluate(`(() => {
    const el = document.querySelector('.graph') ;
    const cy = el.cytoscape;
    const boxes = cy
      .nodes()
      .map((n) => ({ id: n.id(), b: n.boundingBox({ includeLabels: false, includeOverlays: false }) }));
    // Liang-Barsky: does the segment a-b enter the box (shrunk by a pixel: touching is not crossing)?
    const hits = (a, b, box) => {
      const x1 = box.x1 + 1;
      const x2 = box.x2 - 1;
      const y1 = box.y1 + 1;
      const y2 = box.y2 - 1;
      let t0 = 0;
      let t1 = 1;
      const dx = b.x - a.x;
      const dy = b.y - a.y;
      const clip = (p, q) => {
        if (p === 0) return q >= 0;
        const r = q / p;
        if (p < 0) {
          if (r > t1) return false;
          if (r > t0) t0 = r;
        } else {
          if (r < t0) return false;
          if (r < t1) t1 = r;
        }
        return true;
      };
      return (
        clip(-dx, a.x - x1) && clip(dx, x2 - a.x) && clip(-dy, a.y - y1) && clip(dy, y2 - a.y) && t0 < t1
      );
    };
    const found = [];
    let bent = 0;
    cy.edges().forEach((e) => {
      const seg = e.segmentPoints() ?? [];
      if (seg.length) bent++;
      const pts = [e.sourceEndpoint(), ...seg, e.targetEndpoint()];
      for (const { id, b } of boxes) {
        if (id === e.source().id() || id === e.target().id()) continue;
        for (let i = 0; i + 1 < pts.length; i++)
          if (hits(pts[i], pts[i + 1], b)) {
            found.push({ edge: e.id(), node: id });
            break;
          }
      }
    });
    return { edges: cy.edges().length, nodes: cy.nodes().length, bent, found };
  })()`);
}

/**
 * The pairs of labels (nodes' names, edges' relationship types) whose boxes, text background
 * included, overlap by more than a pixel: labels drawn over each other.
 */
async function overlappingLabels(page: Page): Promise<string[]> {
  return page.evaluate(`(() => {
    const cy = document.querySelector('.graph').cytoscape;
    const only = { includeNodes: false, includeEdges: false, includeLabels: true, includeOverlays: false, includeUnderlays: false };
    const boxes = cy
      .elements()
      .map((e) => ({ what: (e.isEdge() ? 'edge ' : 'node ') + e.id(), b: e.boundingBox(only) }))
      .filter((x) => x.b.w > 0 && x.b.h > 0);
    const found = [];
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i].b;
        const c = boxes[j].b;
        if (a.x1 < c.x2 - 1 && c.x1 < a.x2 - 1 && a.y1 < c.y2 - 1 && c.y1 < a.y2 - 1)
          found.push(boxes[i].what + ' ~ ' + boxes[j].what);
      }
    return found;
  })()`);
}

/**
 * Nothing scrolls sideways: empty when the document is no wider than the window, else the widest
 * elements that stick out past its right edge (to say what to fix).
 */
async function overflow(page: Page): Promise<string[]> {
  return page.evaluate<string[]>(`(() => {
    if (document.documentElement.scrollWidth <= window.innerWidth) return [];
    const out = ['scrollWidth ' + document.documentElement.scrollWidth + ' > ' + window.innerWidth];
    for (const el of Array.from(document.querySelectorAll('body *'))) {
      const r = el.getBoundingClientRect();
      if (r.right > window.innerWidth + 0.5)
        out.push(el.tagName.toLowerCase() + '.' + el.className + ': right ' + Math.round(r.right));
    }
    return out.slice(0, 12);
  })()`);
}

browserSuite('the web page, light and readable', (fx) => {
  let owner: TestUser;
  const tag = unique('light');
  const ids: Record<string, string> = {};
  let projectId = '';

  beforeAll(async () => {
    owner = await makeUser(fx.t.app, { username: unique('ada') });
    const project = await makeProject(fx.t.app, owner.user);
    projectId = project.projectId;
    await addMember(fx.t.app, project, owner.user, 'admin');
    const linkTyped = async (p: string, c: string, relationshipType?: string) =>
      must(fx.t, owner.key, 'mutation($i: LinkResourcesInput!) { linkResources(input: $i) { kind } }', {
        i: { parentId: ids[p], childId: ids[c], ...(relationshipType ? { relationshipType } : {}) },
      });
    for (const s of ['s0', 's1', 's2']) {
      const r = await must<{ createSample: { uniqueId: string } }>(
        fx.t,
        owner.key,
        'mutation($i: CreateSampleInput!) { createSample(input: $i) { uniqueId } }',
        { i: { sampleName: `${tag} ${s}`, projectId } },
      );
      ids[s] = r.createSample.uniqueId;
    }
    for (let i = 0; i < 10; i++)
      ids[`d${i}`] = await createDataset(fx.t, owner.key, {
        datasetName: `${tag} d${i}`,
        projectId,
        measurement: 'XRD',
      });
    // long edges (d0 → d3 skips two ranks), several parents, fan-out, samples at the top
    await linkTyped('s0', 's1', 'is_part_of');
    await linkTyped('s0', 's2');
    await linkTyped('s0', 'd0');
    await linkTyped('s1', 'd1');
    await linkTyped('s2', 'd5');
    await linkTyped('d0', 'd1', 'is_derived_from');
    await linkTyped('d1', 'd2', 'is_derived_from');
    await linkTyped('d2', 'd3', 'is_derived_from');
    await linkTyped('d0', 'd3', 'is_part_of');
    await linkTyped('d0', 'd4');
    await linkTyped('d4', 'd3');
    await linkTyped('d5', 'd6');
    await linkTyped('d0', 'd6');
    await linkTyped('d6', 'd7');
    await linkTyped('d2', 'd7');
    await linkTyped('d0', 'd8');
    await linkTyped('d0', 'd9');
    await linkTyped('d9', 'd2');
    // a thumbnail, a file, keywords, metadata with long keys: the dataset page at its fullest
    const image = (await png(64, 48, '#22aa66')).toString('base64');
    await must(
      fx.t,
      owner.key,
      'mutation($d: ID!, $i: String!) { addDatasetThumbnail(dataset: $d, image: $i, name: "overview") { id } }',
      { d: ids.d0, i: image },
    );
    await must(
      fx.t,
      owner.key,
      'mutation($id: ID!) { addDatasetKeyword(id: $id, keyword: "a-rather-long-keyword-for-a-narrow-screen") { keyword } }',
      { id: ids.d0 },
    );
    await must(
      fx.t,
      owner.key,
      'mutation($id: ID!, $m: JSONObject!) { mergeScientificMetadata(id: $id, metadata: $m) { __typename } }',
      {
        id: ids.d0,
        m: {
          beam: {
            energy_keV: 12.4,
            a_very_long_metadata_key_that_goes_on_and_on_without_a_break: 'x'.repeat(120),
          },
        },
      },
    ).catch(() => undefined);
    // an instrument with a long name, as facilities name them (made by an admin: instruments are a
    // directory): the find page's instrument filter lists it and must still fit a phone
    const admin = await makeUser(fx.t.app, { admin: true });
    const inst = await must<{ createInstrument: { uniqueId: string } }>(
      fx.t,
      admin.key,
      'mutation($i: CreateInstrumentInput!) { createInstrument(input: $i) { uniqueId } }',
      {
        i: {
          instrumentName: `${tag} small-angle X-ray scattering diffractometer, beamline 7.3.3 (cryo stage)`,
        },
      },
    );
    ids.instrument = inst.createInstrument.uniqueId;
  }, 120_000);

  test('graph: layered, no edge crosses a node, relationships and kinds told apart (1280 and 390 px)', async () => {
    const page = await fx.page({ key: owner.key });
    for (const [width, height, name] of [
      [1280, 900, 'light-01-graph-desktop'],
      [390, 844, 'light-02-graph-phone'],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.goto(`${fx.t.url}/projects/${projectId}/graph`);
      await page.locator('.graph[data-ready="true"]').waitFor();
      const c = await crossings(page);
      expect(c.nodes).toBe(13);
      expect(c.edges).toBe(18);
      // crossings first: a drawing with straight edges must fail on them, not only on `bent`
      expect(c.found).toEqual([]);
      expect(c.bent).toBeGreaterThan(0);
      // samples are a shape of their own, and the legend says so in words
      const shapes = await page.evaluate<string[]>(
        `document.querySelector('.graph').cytoscape.nodes().map((n) => n.data('type') + ':' + n.style('shape'))`,
      );
      expect(new Set(shapes)).toEqual(new Set(['dataset:round-rectangle', 'sample:diamond']));
      // a small graph names every node and edge on the drawing (a big one once zoomed in: Graph.tsx)
      const unlabelled = await page.evaluate<number>(
        `document.querySelector('.graph').cytoscape.elements().filter((e) => !e.style('label') && !(e.isEdge() && e.style('target-label'))).length`,
      );
      expect(unlabelled).toBe(0);
      expect(await overlappingLabels(page)).toEqual([]);
      const legend = page.getByRole('definition').filter({ hasText: 'is_derived_from' });
      await expect(legend.textContent()).resolves.toContain('is_part_of');
      await expect(page.locator('.graphlegend').textContent()).resolves.toContain('sample (diamond)');
      await screenshot(page, name);
      expect(await overflow(page)).toEqual([]);
      expect(await seriousViolations(page)).toEqual([]);
    }
    // around one dataset: the root and its two hops, the same check
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${fx.t.url}/graph/${ids.d2}`);
    await page.locator('.graph[data-ready="true"]').waitFor();
    expect((await crossings(page)).found).toEqual([]);
    await screenshot(page, 'light-03-graph-around');
    await page.close();
  });

  test('a graph of 320 datasets: names and relationship types drawn around the selection and once zoomed in', async () => {
    // a tree (fan-out 3) written straight to the tables, as bench:web seeds its 1,000 nodes
    const big = await makeProject(fx.t.app, owner.user);
    await addMember(fx.t.app, big, owner.user, 'admin');
    const tree = Array.from({ length: 320 }, () => newMfid());
    const em = fx.t.app.orm.em.fork();
    await rawQuery(
      em,
      `insert into dataset (unique_id, dataset_name, measurement, owner_id, project_mfid, public)
       select id, 'node ' || g, 'xrd', ?, ?, false from unnest(string_to_array(?, ',')) with ordinality as t(id, g)`,
      [owner.user.uniqueId, big.uniqueId, tree.join(',')],
    );
    await rawQuery(
      em,
      `insert into dataset_link (parent_mfid, child_mfid, relationship_type)
       select split_part(l, ':', 1), split_part(l, ':', 2), 'is_derived_from' from unnest(string_to_array(?, ',')) as t(l)`,
      [
        tree
          .slice(1)
          .map((child, i) => `${tree[Math.floor(i / 3)]}:${child}`)
          .join(','),
      ],
    );
    const page = await fx.page({ key: owner.key });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${fx.t.url}/projects/${big.projectId}/graph`);
    await page.locator('.graph[data-ready="true"]').waitFor();
    await page
      .getByText('Names and relationship types are drawn once zoomed in, and around the selected node.')
      .waitFor();
    const drawn = () =>
      page.evaluate<{ zoom: number; elements: number; labelled: string[] }>(`(() => {
        const cy = document.querySelector('.graph').cytoscape;
        return {
          zoom: cy.zoom(),
          elements: cy.elements().length,
          // an edge's name is its label, or on a bent edge its target label (Graph.tsx)
          labelled: cy.elements().map((e) => {
            const label = e.isEdge() ? e.style('label') || e.style('target-label') : e.style('label');
            return label ? (e.isEdge() ? 'edge:' : 'node:') + label : '';
          }).filter(Boolean),
        };
      })()`);
    // the whole tree in view: too small to read, nothing labelled
    const whole = await drawn();
    expect(whole.elements).toBe(320 + 319);
    expect(whole.zoom).toBeLessThan(0.7);
    expect(whole.labelled).toEqual([]);
    // a node selected (as a click does): it, its parent, its three children and their four links
    await page.evaluate(
      `document.querySelector('.graph').cytoscape.getElementById('${tree[1]}').emit('tap')`,
    );
    // the selection is styled after the page's state changes: wait for its labels
    for (let tries = 0; tries < 100 && (await drawn()).labelled.length === 0; tries++)
      await new Promise((r) => setTimeout(r, 100));
    const around = await drawn();
    expect(around.labelled.filter((l) => l.startsWith('node:')).sort()).toEqual([
      'node:node 1',
      'node:node 2',
      'node:node 5',
      'node:node 6',
      'node:node 7',
    ]);
    expect(around.labelled.filter((l) => l.startsWith('edge:'))).toEqual(
      Array(4).fill('edge:is_derived_from'),
    );
    // zoomed in far enough to read: every name and relationship type
    await screenshot(page, 'light-04-graph-big-selected');
    await page.evaluate(
      `(() => { const cy = document.querySelector('.graph').cytoscape; cy.zoom({ level: 1, position: cy.getElementById('${tree[1]}').position() }); })()`,
    );
    await new Promise((r) => setTimeout(r, 300));
    const zoomed = await drawn();
    expect(zoomed.labelled).toHaveLength(320 + 319);
    // and readable: no two labels (names, relationship types) drawn over each other
    expect(await overlappingLabels(page)).toEqual([]);
    await screenshot(page, 'light-05-graph-big-zoomed');
    await page.close();
  });

  test('the accessibility check finds serious violations, after a navigation too', async () => {
    // the check every page test here relies on (seriousViolations, axe-core run in the page)
    const page = await fx.page();
    const bad =
      '<!doctype html><html><body><img src="x.png"><button></button><a href="/x"></a></body></html>';
    await page.setContent(bad);
    const found = (await seriousViolations(page)).map((v) => v.split(':')[0]);
    expect(found).toEqual(expect.arrayContaining(['image-alt', 'button-name', 'link-name']));
    await page.goto(`${fx.t.url}/`);
    await page.setContent(bad);
    expect((await seriousViolations(page)).map((v) => v.split(':')[0])).toContain('image-alt');
    await page.setContent(
      '<!doctype html><html lang="en"><head><title>ok</title></head><body><main><h1>Fine</h1></main></body></html>',
    );
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();
  });

  test('every page at 390, 768 and 1280 px: no horizontal scrolling, no serious axe violation', async () => {
    const page = await fx.page({ key: owner.key });
    const pages: [string, string][] = [
      ['find', '/'],
      ['dataset', `/datasets/${ids.d0}`],
      ['sample', `/samples/${ids.s0}`],
      ['project', `/projects/${projectId}`],
      ['graph', `/graph/${ids.d0}`],
      ['keys', '/keys'],
      ['deletion-requests', '/deletion-requests'],
      ['not-found', '/no-such-page'],
    ];
    if (ids.instrument) pages.push(['instrument', `/instruments/${ids.instrument}`]);
    for (const width of [390, 768, 1280]) {
      await page.setViewportSize({ width, height: 844 });
      for (const [name, path] of pages) {
        await page.goto(`${fx.t.url}${path}`);
        // a heading, or the page's one message (deletion requests to one who may not review them)
        await page.locator('main h1, main p').first().waitFor();
        // the page's data drawn (no "Loading…" left) before measuring
        // (a locator, not waitForFunction: the page's CSP forbids the eval that polling uses)
        await page.locator('main [role="status"]', { hasText: 'Loading' }).waitFor({ state: 'detached' });
        await screenshot(page, `light-10-${name}-${width}`);
        expect({ name, width, overflow: await overflow(page) }).toEqual({ name, width, overflow: [] });
        if (width !== 768)
          expect({ name, width, axe: await seriousViolations(page) }).toEqual({ name, width, axe: [] });
      }
    }
    // "Sign out" is on screen at phone width
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${fx.t.url}/`);
    const box = await page.getByRole('button', { name: 'Sign out' }).boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
    // the sign-in page too
    await page.context().clearCookies();
    await page.goto(`${fx.t.url}/`);
    await page.getByLabel('API key').waitFor();
    expect(await overflow(page)).toEqual([]);
    await page.close();
  });

  test("dates in the reader's words with the ISO kept; the skip link and focus on the new page's heading", async () => {
    const page = await fx.page({ key: owner.key });
    await page.goto(`${fx.t.url}/datasets/${ids.d0}`);
    const created = page.locator('.fields time').first();
    await created.waitFor();
    const iso = await created.getAttribute('datetime');
    expect(iso).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(await created.getAttribute('title')).toBe(iso);
    const shown = (await created.textContent()) ?? '';
    expect(shown).not.toContain('T');
    expect(shown).toMatch(new RegExp(String(new Date(iso!).getUTCFullYear())));
    // the skip link: the first Tab stop, and it takes focus to the content's heading
    await page.goto(`${fx.t.url}/`);
    await page.locator('main h1').waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement?.textContent')).toBe('Skip to content');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(`document.activeElement?.closest('main') !== null`)).toBe(true);
    expect(page.url()).toBe(`${fx.t.url}/`);
    // a link to another page: focus lands on its h1
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.waitForFunction(`document.activeElement?.tagName === 'H1'`);
    expect(await page.evaluate('document.activeElement?.textContent')).toMatch(/API keys/i);
    await page.close();
  });

  test('the service out of reach: a plain message, not a blank page', async () => {
    const page = await fx.page({ key: owner.key });
    await page.goto(`${fx.t.url}/`);
    await page.locator('main h1').waitFor();
    await page.route('**/graphql', (r) => r.abort('connectionrefused'));
    await page.getByRole('link', { name: 'API keys' }).click();
    await expect(page.getByRole('alert').first().textContent()).resolves.toMatch(/cannot be reached/);
    await screenshot(page, 'light-20-unreachable');
    // at start: the session cannot be asked either
    await page.route('**/auth/session', (r) => r.abort('connectionrefused'));
    await page.reload();
    await expect(
      page
        .getByText(/cannot be reached/)
        .first()
        .textContent(),
    ).resolves.toMatch(/cannot be reached/);
    await screenshot(page, 'light-21-unreachable-at-start');
    await page.close();
  });
});
