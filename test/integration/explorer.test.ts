import { startTestApp, type TestApp } from '../support/app';
import { browserAvailability, launchBrowser } from '../support/browser';

/** The explorer's first contact: no empty bearer header pre-filled, the schema loads without a key. */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

const INTROSPECTION = '{ __schema { queryType { name } } }';

async function post(authorization: string | undefined, query: string) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (authorization !== undefined) headers.authorization = authorization;
  const res = await fetch(`${t.url}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query }) });
  return {
    status: res.status,
    body: (await res.json()) as { data?: unknown; errors?: { message: string }[] },
  };
}

test('the page pre-fills no Authorization header and says where the key goes', async () => {
  const html = await (await fetch(`${t.url}/graphql`, { headers: { accept: 'text/html' } })).text();
  expect(html).not.toContain('defaultHeaders');
  expect(html).not.toMatch(/Bearer "/);
  expect(html).toContain('id="hint"');
  expect(html).toMatch(/Headers.*Authorization.*Bearer &lt;your API key&gt;/s);
});

test('an empty bearer template counts as no key: introspection works, data still needs a key', async () => {
  for (const header of ['Bearer ', 'Bearer', '']) {
    const intro = await post(header, INTROSPECTION);
    expect(intro.status).toBe(200);
    expect(intro.body.data).toEqual({ __schema: { queryType: { name: 'Query' } } });
    const me = await post(header, '{ me { user { uniqueId } } }');
    expect(me.body.errors?.[0].message).toMatch(/An API key is required/);
  }
  const bad = await post('Bearer not-a-key', INTROSPECTION);
  expect(bad.status).toBe(401);
});

const { available, reason } = browserAvailability();
if (!available && process.env.CI) {
  test('a headless browser is available for the explorer test', () => {
    throw new Error(`CI must run the browser test: ${reason}`);
  });
}

(available ? test : test.skip)(
  `in a browser, the explorer loads the schema with no key${available ? '' : ` (skipped: ${reason})`}`,
  async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.context.newPage();
      const introspection = page.waitForResponse(
        (r) => r.url() === `${t.url}/graphql` && r.request().method() === 'POST',
      );
      await page.goto(`${t.url}/graphql`);
      const res = await introspection;
      expect(res.status()).toBe(200);
      const body = (await res.json()) as { data?: { __schema?: unknown }; errors?: unknown };
      expect(body.errors).toBeUndefined();
      expect(body.data?.__schema).toBeDefined();
      expect(res.request().headers().authorization).toBeUndefined();
      await expect(page.locator('#hint').textContent()).resolves.toContain('Authorization');
    } finally {
      await browser.close();
    }
  },
);
