import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import axe from 'axe-core';
import type { Page } from 'playwright-core';
import type { TestApp } from './app';
import { gql } from './http';

/** Where browser tests keep their screenshots (CI keeps the folder as an artifact). */
export const SCREENSHOTS = path.resolve(__dirname, '..', '..', 'test-artifacts', 'web');

export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  const file = path.join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** What {@link seriousViolations} runs in the page: axe-core's default rules, violations only. */
const SERIOUS_IN_PAGE = `(async () => {
  const result = await window.axe.run(document, { resultTypes: ['violations'] });
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => v.id + ': ' + v.nodes.map((n) => n.target.join(' ')).join(', '));
})()`;

/**
 * The serious and critical axe-core violations on the page as it is now (ids and targets). axe
 * runs in the page and hands back only those: @axe-core/playwright's AxeBuilder passes every
 * rule's whole result (each node checked, passed or not) through the browser protocol and back
 * into a second page to merge frames, which was about half of a browser test file's own CPU
 * (web-fix: 25.7 of 46.6 CPU-s in playwright-core's protocol validation and serialisation). The
 * page's frames other than the main one (none in the web app) still go through AxeBuilder.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  if (page.frames().length > 1) {
    const result = await new AxeBuilder({ page }).analyze();
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  }
  if (!(await page.evaluate<boolean>('typeof window.axe === "object"'))) await page.evaluate(axe.source);
  return page.evaluate<string[]>(SERIOUS_IN_PAGE);
}

/**
 * Signs the browser in with `key` on a fresh start: the session cookie is shared by every page of
 * the browser context, so any earlier sign-in is forgotten first.
 */
export async function signInWith(page: Page, base: string, key: string): Promise<void> {
  await page.context().clearCookies();
  await page.goto(`${base}/`);
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByText('Signed in as').waitFor();
}

/** One GraphQL call that must succeed; returns its data. */
export async function must<T = any>(
  t: TestApp,
  key: string,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<T> {
  const r = await gql<T>(t.url, key, query, variables);
  if (r.errors?.length || !r.data) throw new Error(`${query}: ${JSON.stringify(r.errors)}`);
  return r.data;
}

export async function createDataset(
  t: TestApp,
  key: string,
  input: Record<string, unknown>,
): Promise<string> {
  const d = await must<{ createDataset: { uniqueId: string } }>(
    t,
    key,
    'mutation($input: CreateDatasetInput!) { createDataset(input: $input) { uniqueId } }',
    { input },
  );
  return d.createDataset.uniqueId;
}

export async function link(t: TestApp, key: string, parentId: string, childId: string): Promise<void> {
  await must(
    t,
    key,
    'mutation($p: ID!, $c: ID!) { linkResources(input: {parentId: $p, childId: $c}) { kind } }',
    {
      p: parentId,
      c: childId,
    },
  );
}
