import { browserSuite, openPage } from '../support/browser';
import { rest } from '../support/http';
import { makeUser, unique, type TestUser } from '../support/factories';
import { screenshot, seriousViolations } from '../support/web';
import { User } from '../../src/modules/user/user.entity';

/**
 * An administrator browses as a member until they elevate (docs/authentication.md, "Elevation"):
 * signed in with a key, the page shows the member's view; elevating shows the administrators'
 * menu, the pending accounts page activates an account, and the mode survives a reload and a new
 * tab (it is on the session); returning to the member's view hides the menu again.
 */

browserSuite(
  'an administrator elevates in the web app',
  (fx) => {
    let root: TestUser;
    let newcomer: TestUser;
    let newcomerName: string;

    beforeAll(async () => {
      root = await makeUser(fx.t.app, { username: unique('root'), admin: true });
      newcomerName = unique('newcomer');
      newcomer = await makeUser(fx.t.app, { username: newcomerName });
      await fx.t.app.orm.em
        .fork()
        .nativeUpdate(User, { uniqueId: newcomer.user.uniqueId }, { pendingSince: new Date() });
    }, 120_000);

    test('member view first; elevate; activate a pending account; the mode survives reload and a new tab', async () => {
      const page = await fx.page({ key: root.key });
      const badge = page.getByTestId('privilege-mode');
      const nav = page.getByRole('navigation', { name: 'Main' });
      expect(await badge.textContent()).toBe('Member view');
      await page.getByRole('link', { name: 'Datasets' }).waitFor();
      expect(await nav.getByRole('link', { name: 'Deletion requests' }).count()).toBe(0);
      expect(await nav.getByRole('link', { name: 'Pending accounts' }).count()).toBe(0);
      expect(await seriousViolations(page)).toEqual([]);
      // the page's own requests act as a member: administration is refused
      await page.goto(`${fx.t.url}/pending-accounts`);
      await page.getByText('elevate to administrator first').waitFor();

      await page.getByRole('button', { name: 'Elevate to administrator' }).click();
      await page.getByText('Administrator', { exact: true }).waitFor();
      await nav.getByRole('link', { name: 'Deletion requests' }).waitFor();
      await nav.getByRole('link', { name: 'Pending accounts' }).click();
      const activate = page.getByRole('button', { name: `Activate Test ${newcomerName}` });
      await activate.waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, '30-pending-accounts');
      expect((await rest(fx.t.url, 'GET', '/account', { key: newcomer.key })).status).toBe(401);
      await activate.click();
      await activate.waitFor({ state: 'detached' });
      expect((await rest(fx.t.url, 'GET', '/account', { key: newcomer.key })).status).toBe(200);

      // the mode is the session's: a reload and a new tab are still elevated
      await page.reload();
      await nav.getByRole('link', { name: 'Deletion requests' }).waitFor();
      expect(await badge.textContent()).toBe('Administrator');
      const tab = await openPage(fx.context);
      await tab.goto(`${fx.t.url}/deletion-requests`);
      await tab.getByRole('heading', { name: 'Pending deletion requests' }).waitFor();
      expect(await tab.getByTestId('privilege-mode').textContent()).toBe('Administrator');
      await tab.close();

      await page.getByRole('button', { name: 'Return to member view' }).click();
      await page.getByText('Member view', { exact: true }).waitFor();
      await nav.getByRole('link', { name: 'Datasets' }).waitFor();
      expect(await nav.getByRole('link', { name: 'Deletion requests' }).count()).toBe(0);
      await page.reload();
      await badge.filter({ hasText: 'Member view' }).waitFor();

      // both switches are in the administrator's history
      const history = await rest<{ items: { event_type?: string; type?: string }[] }>(
        fx.t.url,
        'GET',
        `/resources/${root.user.uniqueId}/history`,
        { key: root.key },
      );
      const types = history.body.items.map((e) => e.event_type ?? e.type);
      expect(types).toEqual(expect.arrayContaining(['account.elevated', 'account.elevation_dropped']));
      await page.close();
    });

    test('a member sees no mode switch', async () => {
      const ada = await makeUser(fx.t.app, { username: unique('ada') });
      const page = await fx.page({ key: ada.key });
      await page.getByRole('link', { name: 'Datasets' }).waitFor();
      expect(await page.getByTestId('privilege-mode').count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Elevate to administrator' }).count()).toBe(0);
      await page.close();
    });
  },
  { timeout: 240_000 },
);
