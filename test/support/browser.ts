import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { startTestApp, type TestApp } from './app';
import { signInWith } from './web';

/** The system Chromium (Debian's `chromium` package); CHROMIUM_PATH overrides it. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Whether browser tests can run. Without Chromium they are skipped on a developer's machine
 * (with the reason in the test name) and fail under CI, where `.ci/run` installs it.
 */
export function browserAvailability(): { available: boolean; reason: string } {
  if (fs.existsSync(CHROMIUM)) return { available: true, reason: '' };
  return {
    available: false,
    reason: `no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`,
  };
}

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * How long a page action or wait may take. Generous: the suite runs the service, its database,
 * two jest workers and up to three Chromiums on two cores, and a quiet 2 s step has taken over
 * 15 s there. A step that never happens still fails, only later.
 */
export const PAGE_TIMEOUT = 60_000;

/** A request in flight longer than this is printed with its age (docs/development.md "Test tiers"). */
const SLOW_REQUEST_MS = 15_000;

/**
 * A new tab with {@link PAGE_TIMEOUT}; the page's uncaught errors and console errors are printed
 * (always a bug), and so is every request still unanswered after {@link SLOW_REQUEST_MS}, once: a
 * stalled step then shows whether the page waited on the service (a request listed) or on itself
 * (none).
 */
export async function openPage(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  page.setDefaultTimeout(PAGE_TIMEOUT);
  page.on('pageerror', (err) => {
    console.error(`uncaught in the page ${page.url()}: ${err.stack ?? err.message}`);
  });
  page.on('console', (msg) => {
    // a refused request (a 401 before sign-in, a 404 the test asks for) is the test's own business
    if (msg.type() === 'error' && !msg.text().startsWith('Failed to load resource'))
      console.error(`console error in the page ${page.url()}: ${msg.text()}`);
  });
  const inFlight = new Map<object, { started: number; what: string; told: boolean }>();
  page.on('request', (r) =>
    inFlight.set(r, { started: Date.now(), what: `${r.method()} ${r.url()}`, told: false }),
  );
  page.on('requestfinished', (r) => inFlight.delete(r));
  page.on('requestfailed', (r) => inFlight.delete(r));
  const watch = setInterval(() => {
    const now = Date.now();
    for (const req of inFlight.values()) {
      if (req.told || now - req.started < SLOW_REQUEST_MS) continue;
      req.told = true;
      console.error(`request unanswered after ${now - req.started} ms on ${page.url()}: ${req.what}`);
    }
  }, 5_000);
  watch.unref();
  page.on('close', () => clearInterval(watch));
  return page;
}

/** A headless Chromium with a fresh profile; `close()` also removes the profile. */
export async function launchBrowser(): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'catalog-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
  });
  return {
    context,
    async close() {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** A server on its own loopback port (so its own origin) answering every GET with `html`. */
export async function servePage(html: string): Promise<{ origin: string; close(): Promise<void> }> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** What a browser test file gets from {@link browserSuite}: its service, its browser and pages. */
export interface BrowserFixture {
  /** the file's service (from the suite's `beforeAll` on) */
  readonly t: TestApp;
  /** the browser's one context: its pages share the session cookie */
  readonly context: BrowserContext;
  /**
   * A new tab ({@link openPage}) at `width` × 900 when given, signed in with `key` when given
   * ({@link signInWith}), then at `path` of the service when given.
   */
  page(options?: { key?: string; path?: string; width?: number }): Promise<Page>;
}

export interface BrowserSuiteOptions {
  /** the environment of the file's service ({@link startTestApp}); computed in `beforeAll` when a function */
  env?: Record<string, string> | (() => Promise<Record<string, string>>);
  /** a service other than {@link startTestApp}'s (a child process): its `close()` ends it */
  start?: () => Promise<TestApp>;
  /** each test's and hook's timeout (180 s; the service's start has at least 120 s) */
  timeout?: number;
}

/**
 * The setup every browser test file shares: skipped without Chromium on a developer's machine
 * (the reason in the suite's name) and a failing test under CI; one service and one Chromium
 * for the file, started before its tests and closed after them. `body` declares the file's tests, and its own `beforeAll` (seeding
 * records) runs once the service and the browser are up.
 */
export function browserSuite(
  title: string,
  body: (fx: BrowserFixture) => void,
  options: BrowserSuiteOptions = {},
): void {
  const { available, reason } = browserAvailability();
  if (!available && process.env.CI) {
    test('a headless browser is available for the web app tests', () => {
      throw new Error(`CI must run the browser tests: ${reason}`);
    });
  }
  const timeout = options.timeout ?? 180_000;
  jest.setTimeout(timeout);
  const suite = available ? describe : describe.skip;
  suite(`${title}${available ? '' : ` (skipped: ${reason})`}`, () => {
    let app: TestApp | undefined;
    let browser: { context: BrowserContext; close(): Promise<void> } | undefined;
    const fixture: BrowserFixture = {
      get t() {
        if (!app) throw new Error('the service is not started yet: use it in a test or a beforeAll');
        return app;
      },
      get context() {
        if (!browser) throw new Error('the browser is not started yet: use it in a test or a beforeAll');
        return browser.context;
      },
      async page({ key, path: at, width } = {}) {
        const page = await openPage(fixture.context);
        if (width !== undefined) await page.setViewportSize({ width, height: 900 });
        if (key !== undefined) await signInWith(page, fixture.t.url, key);
        if (at !== undefined) await page.goto(`${fixture.t.url}${at}`);
        return page;
      },
    };
    beforeAll(
      async () => {
        const { env, start } = options;
        app = start ? await start() : await startTestApp(typeof env === 'function' ? await env() : env);
        browser = await launchBrowser();
      },
      Math.max(timeout, 120_000),
    );
    afterAll(async () => {
      await browser?.close();
      await app?.close();
    });
    body(fixture);
  });
}
