import { browserSuite } from '../support/browser';
import { rest } from '../support/http';
import { makeUser, unique, type TestUser } from '../support/factories';
import { seriousViolations } from '../support/web';

/**
 * The page's "API keys": a signed-in person creates a key (the secret shown once), sees it
 * listed without its secret, and revokes it; each step checked through the API too.
 */
browserSuite('your API keys in the web app', (fx) => {
  let ada: TestUser;

  beforeAll(async () => {
    ada = await makeUser(fx.t.app, { username: unique('ada') });
  });

  test('create shows the secret once and it works; the list never shows it; revoke ends it', async () => {
    const page = await fx.page({ key: ada.key });
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('heading', { name: 'Your API keys' }).waitFor();
    await page.getByLabel('Label').fill('laptop script');
    await page.getByLabel('Expires in').selectOption('30');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = (await page.getByTestId('new-secret').textContent()) ?? '';
    expect(secret).toMatch(/^cat_/);
    expect((await rest(fx.t.url, 'GET', '/account', { key: secret })).status).toBe(200);
    await page.getByRole('button', { name: 'Revoke laptop script' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Done' }).click();
    await page.reload();
    await page.getByRole('button', { name: 'Revoke laptop script' }).waitFor();
    expect(await page.content()).not.toContain(secret);
    await page.getByRole('button', { name: 'Revoke laptop script' }).click();
    await page.getByRole('cell', { name: 'revoked' }).waitFor();
    expect((await rest(fx.t.url, 'GET', '/account', { key: secret })).status).toBe(401);
    await page.close();
  });
});
