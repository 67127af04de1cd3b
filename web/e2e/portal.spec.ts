import { expect, test, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';

// The end users' portal on the seeded demo partner's site (demo.localhost: Chromium resolves
// *.localhost to loopback). The demo user is seeded by domain/src/seed.rs.

const USER_EMAIL = 'aarav.sharma1@example.in';
const USER_PASSWORD = 'User@12345';

function site(path = '/'): string {
  const port = new URL(test.info().project.use.baseURL ?? 'http://localhost').port;
  return `http://demo.localhost:${port}${path}`;
}

async function signIn(page: Page) {
  await page.goto(site('/login'));
  await page.getByLabel('Email').fill(USER_EMAIL);
  await page.getByLabel('Password', { exact: true }).fill(USER_PASSWORD);
  await page.getByLabel('Captcha', { exact: true }).fill('any');
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

/** The page again at phone width, loaded afresh (no desktop layout left over), with no sideways scroll. */
async function atPhoneWidth(page: Page, ready: () => Promise<void>) {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await ready();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

async function noSeriousAxeViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

test("the partner's site sells the partner's APIs to its users, never the platform to partners", async ({ page, request }) => {
  const portal = await (await request.get('/api/v1/public/portal?subdomain=demo')).json();
  await page.goto(site('/'));
  await expect(page).toHaveTitle(portal.title);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(portal.title.replace(/ - Home$/, ''));
  await expect(page.getByText(/resell/i)).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'APIs and prices' })).toBeVisible();
  expect(portal.apis.length).toBeGreaterThan(0);
  await expect(page.getByText(portal.apis[0].name, { exact: true }).first()).toBeVisible();
  await noSeriousAxeViolations(page);
  await page.screenshot({ path: 'test-results/portal-landing.png', fullPage: false });
  await atPhoneWidth(page, () => expect(page.getByRole('heading', { name: 'APIs and prices' })).toBeVisible());
  await page.screenshot({ path: 'test-results/portal-landing-phone.png', fullPage: false });
});

test('a user signs in on its partner site and sees its wallets and usage on the dashboard', async ({ page }) => {
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  await expect(page.getByTestId('api-wallet')).toHaveText(/₹/);
  await expect(page.getByText('Success rate')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'By API' })).toBeVisible();
  await expect(page.locator('.data-table tbody td:not(.table-empty)').first()).toBeVisible();
  await noSeriousAxeViolations(page);
  await page.screenshot({ path: 'test-results/portal-dashboard.png', fullPage: true });
  await atPhoneWidth(page, () => expect(page.locator('.data-table tbody td:not(.table-empty)').first()).toBeVisible());
  await page.screenshot({ path: 'test-results/portal-dashboard-phone.png', fullPage: true });
  await noSeriousAxeViolations(page);
});

test("a user of the demo partner cannot sign in on the platform's address or another site", async ({ request }) => {
  const res = await request.post('/api/v1/me/login', { data: { email: USER_EMAIL, password: USER_PASSWORD, captcha: null } });
  expect(res.status()).toBe(401);
});
