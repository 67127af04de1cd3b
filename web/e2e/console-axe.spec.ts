import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIResponse, type Page } from '@playwright/test';
import { submitPartnerSignIn } from './support/sign-in';
import { sql } from './support/sql';

// Every screen of the partner console, for a partner that has just finished its wizard (no
// users but one, no history), with the default theme and with a pale brand colour (#F5F5DC,
// where white text on the brand fill and the brand as link colour would not read), at desktop
// and at phone width: no serious or critical axe-core violation. Then the public pages of that
// partner's site. The partner is made through the API (sign-up) and finished in SQL, as the
// other specs seed what a browser cannot do quickly.

const PASSWORD = 'Partner-axe-1';
const PALE = '#F5F5DC';

/** The console's routes (web/src/app/router.tsx, the partner paths), each with what shows it has loaded. */
const ROUTES: [string, string][] = [
  ['/dashboard', 'Dashboard'],
  ['/user-accounts', 'User Accounts'],
  ['/user-detail', 'User Detail'],
  ['/add-user-manually', 'Add User Manually'],
  ['/reset-password', 'Reset Password'],
  ['/user-transactions', 'User Transactions'],
  ['/my-transactions', 'My Transactions'],
  ['/my-plan', 'My Plan'],
  ['/my-apis', 'My APIs'],
  ['/trubank', 'TruBank'],
  ['/my-account', 'My Account'],
  ['/whitelist-ip', 'Whitelist IP'],
  ['/ip-hits', 'IP Hits'],
  ['/webhooks', 'Webhooks'],
];

/** Tabs that are screens of their own: each is checked at desktop width. */
const TABS: [string, string[]][] = [
  ['/my-account', ['basic', 'theme', 'smtp', 'signup', 'payment', 'settings', 'contact']],
  ['/user-detail', ['api-transactions', 'product-transactions', 'api-logs', 'product-logs', 'api-price', 'credits', 'ip-details', 'whitelist-ips', 'settings', 'api-status']],
  ['/user-transactions', ['api-transactions', 'api-logs', 'product-transactions', 'product-logs']],
  ['/my-transactions', ['api', 'product', 'wallet']],
];

/** The partner site's public pages. */
const PUBLIC = ['/', '/login', '/signup', '/forgot-password', '/privacy-policy', '/terms-and-conditions', '/cancellation-policy'];

const WIDTHS = [
  ['desktop', { width: 1280, height: 900 }],
  ['phone', { width: 390, height: 844 }],
] as const;

const THEMES = [
  ['default', null],
  ['pale', PALE],
] as const;

type Partner = { id: string; email: string; subdomain: string; user: Record<string, unknown> };
let partner: Partner;

async function ok(res: APIResponse, status = 200) {
  expect(res.status(), await res.text()).toBe(status);
  return res.json();
}

test.beforeAll(async ({ playwright }, info) => {
  const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
  const userName = `axe${stamp}`;
  const email = `${userName}@example.in`;
  const subdomain = `axe${stamp}`.toLowerCase();
  const request = await playwright.request.newContext({ baseURL: info.project.use.baseURL });
  const { partner_id } = await ok(
    await request.post('/api/v1/partner/signup', {
      data: { first_name: 'Asha', last_name: 'Verma', email, phone_number: '9876543210', user_name: userName, password: PASSWORD, captcha: null },
    }),
    201,
  );
  // What the verification link and the wizard would have done: a new partner, ready.
  sql(
    `UPDATE partners SET email_verified_at = now(), plan = 'default', billing_cycle = 'monthly', plan_selected_at = now(),
       subdomain = '${subdomain}', subdomain_status = 'active', title = 'Axe Check KYC', description = 'Identity checks for everyone',
       branding_done = true, smtp_done = true WHERE id = ${partner_id}`,
  );
  const { token } = await ok(await request.post('/api/v1/partner/login', { data: { email, password: PASSWORD, captcha: null } }));
  const headers = { Authorization: `Bearer ${token}` };
  // One user, so User Detail has someone to show.
  const { id } = await ok(
    await request.post('/api/v1/partner/users', {
      headers,
      data: { first_name: 'Meera', last_name: 'Iyer', email: `meera.${stamp}@example.in`, phone_number: '9876543210', password: 'User@12345', full_access: true },
    }),
    201,
  );
  const user = await ok(await request.get(`/api/v1/partner/users/${id}`, { headers }));
  await request.dispose();
  partner = { id: String(partner_id), email, subdomain, user };
});

function setTheme(primary: string | null) {
  const colour = primary ?? '#6091E2';
  sql(`UPDATE partners SET theme_primary = '${colour}', theme_secondary = '${primary ?? '#9462E7'}' WHERE id = ${partner.id}`);
}

/** The page has drawn its data: its heading is up and nothing says it is still loading. */
async function settled(page: Page, heading?: string) {
  if (heading) await expect(page.getByRole('heading', { name: heading, exact: true }).first()).toBeVisible();
  else await expect(page.locator('h1, h2').first()).toBeVisible();
  await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => {});
  await expect(page.getByText(/^(Loading|In process)\b/)).toHaveCount(0);
}

async function seriousViolations(page: Page, where: string): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${where} ${v.id}: ${v.nodes.map((n) => `${n.target.join(' ')} (${n.failureSummary?.split('\n').slice(1).join(' ').trim()})`).join(', ')}`);
}

async function signIn(page: Page) {
  await submitPartnerSignIn(page, partner.email, PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);
  // User Detail shows the user opened from User Accounts (kept in session storage).
  await page.evaluate((u) => sessionStorage.setItem('user-detail', JSON.stringify(u)), partner.user);
}

function site(path: string): string {
  const port = new URL(test.info().project.use.baseURL ?? 'http://localhost').port;
  return `http://${partner.subdomain}.localhost:${port}${path}`;
}

for (const [themeName, colour] of THEMES) {
  for (const [widthName, size] of WIDTHS) {
    test(`every console screen of a new partner, ${themeName} theme, ${widthName}: no serious axe violation`, async ({ page }) => {
      test.setTimeout(240_000);
      setTheme(colour);
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.setViewportSize(size);
      await signIn(page);
      const found: string[] = [];
      for (const [path, heading] of ROUTES) {
        await page.goto(path);
        await settled(page, heading);
        found.push(...(await seriousViolations(page, path)));
        await page.screenshot({ path: `test-results/console-axe-${themeName}-${widthName}${path.replace(/\//g, '-')}.png`, fullPage: true });
      }
      if (widthName === 'desktop') {
        for (const [path, tabs] of TABS) {
          for (const tab of tabs) {
            await page.goto(`${path}?tab=${tab}`);
            await settled(page);
            found.push(...(await seriousViolations(page, `${path}?tab=${tab}`)));
          }
        }
      }
      expect(found).toEqual([]);
      expect(errors).toEqual([]);
    });

    test(`the public pages of a new partner's site, ${themeName} theme, ${widthName}: no serious axe violation`, async ({ page }) => {
      test.setTimeout(120_000);
      setTheme(colour);
      await page.setViewportSize(size);
      const found: string[] = [];
      for (const path of PUBLIC) {
        await page.goto(site(path));
        await settled(page);
        found.push(...(await seriousViolations(page, `site ${path}`)));
        await page.screenshot({ path: `test-results/site-axe-${themeName}-${widthName}${path === '/' ? '-home' : path.replace(/\//g, '-')}.png`, fullPage: true });
      }
      expect(found).toEqual([]);
    });
  }
}
