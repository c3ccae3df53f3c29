import type { Page } from 'playwright-core';
import { browserSuite, openPage } from '../support/browser';
import { makeUser, type TestUser } from '../support/factories';
import { createDataset, screenshot } from '../support/web';

/**
 * The page's session across tabs (docs/authentication.md): an API key entered once becomes a
 * session cookie, so a dataset opened in a new tab and a reload stay signed in; signing out in
 * one tab ends the session in all of them; a revoked session sends every tab to the sign-in form.
 */

browserSuite("the page's session across tabs", (fx) => {
  let ada: TestUser;
  let datasetId: string;

  beforeAll(async () => {
    ada = await makeUser(fx.t.app);
    datasetId = await createDataset(fx.t, ada.key, { datasetName: 'session tab dataset' });
  }, 120_000);
  const newPage = async (): Promise<Page> => {
    const page = await openPage(fx.context);
    return page;
  };

  test('a session answered before the page has subscribed to it is still drawn', async () => {
    // Preact runs effects after the next animation frame (or a short timer without one). Here there is
    // never a frame, the fallback takes 3 s, and /auth/session is answered at once from a copy:
    // the answer lands before a plain effect would subscribe. A page that subscribed that way stayed on "Loading…" with no
    // request in flight (the stall of docs/development.md); it must show the sign-in form.
    await fx.context.clearCookies();
    const signedOut = await (await fetch(`${fx.t.url}/auth/session`)).text();
    const page = await newPage();
    // no frame ever, and Preact's fallback timer (35 ms in 10.x, 100 ms before) made 3 s: effects
    // run late, as on a busy machine
    await page.addInitScript(`
      window.requestAnimationFrame = () => 0;
      const later = window.setTimeout.bind(window);
      window.setTimeout = (fn, ms, ...rest) => later(fn, ms >= 30 && ms <= 100 ? 3000 : ms, ...rest);
    `);
    await page.route('**/auth/session', (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: signedOut }),
    );
    await page.goto(`${fx.t.url}/`);
    await page.getByLabel('API key').waitFor({ timeout: 10_000 });
    await page.close();
  });

  test('a key entered once: new tabs and reloads stay signed in; sign-out in one tab ends all', async () => {
    await fx.context.clearCookies();
    const first = await newPage();
    await first.goto(`${fx.t.url}/`);
    await first.getByLabel('API key').fill(ada.key);
    await first.getByRole('button', { name: 'Sign in' }).click();
    await first.getByText('Signed in as').waitFor();
    const [cookie] = await fx.context.cookies(fx.t.url);
    expect(cookie).toMatchObject({ name: 'catalog_session', httpOnly: true, sameSite: 'Lax', secure: false });

    // a second tab, straight to a dataset: no sign-in form
    const second = await newPage();
    await second.goto(`${fx.t.url}/datasets/${datasetId}`);
    await second.getByRole('heading', { name: 'session tab dataset' }).waitFor();
    await second.getByText('Signed in as').waitFor();
    await screenshot(second, 'session-02-second-tab');
    await second.reload();
    await screenshot(second, 'session-03-reload');
    await second.getByRole('heading', { name: 'session tab dataset' }).waitFor();

    await first.getByRole('button', { name: 'Sign out' }).click();
    await first.getByLabel('API key').waitFor();
    await second.reload();
    await second.getByLabel('API key').waitFor();
    await first.close();
    await second.close();
  });

  test('a revoked session sends the page back to the sign-in form with the reason', async () => {
    await fx.context.clearCookies();
    const page = await newPage();
    await page.goto(`${fx.t.url}/`);
    await page.getByLabel('API key').fill(ada.key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Signed in as').waitFor();
    await fx.t.app.services.userAdmin.endSessions(fx.t.app.orm.em.fork(), ada.user.uniqueId);
    await page.goto(`${fx.t.url}/datasets/${datasetId}`);
    await page.getByLabel('API key').waitFor();
    await page.close();
  });
});
