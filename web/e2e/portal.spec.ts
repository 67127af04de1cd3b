import { expect, test, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { waitForLink } from './support/outbox';
import { paiseOf } from './support/sign-in';
import { sql } from './support/sql';

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
  await page.goto(site('/login'));
  await expect(page.getByRole('heading', { name: 'Login' })).toBeVisible();
  await noSeriousAxeViolations(page);
  await page.screenshot({ path: 'test-results/portal-login-phone.png', fullPage: true });
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

test('a user creates a sandbox key, calls an API in the console, pays for it, and rolls the key', async ({ page, request }) => {
  // Sandbox calls are free unless the partner charges them (My Account, Settings): the demo
  // partner does here, so the console's call moves money.
  sql("UPDATE partners SET charge_sandbox = true WHERE user_name = 'demo'");
  await signIn(page);
  const wallet = page.getByTestId('api-wallet');
  await expect(wallet).toHaveText(/₹/);
  const before = paiseOf(await wallet.textContent());

  // A sandbox key, shown once.
  await page.getByRole('link', { name: 'API Keys' }).click();
  await page.getByRole('radio', { name: /^Sandbox/ }).check();
  await page.getByLabel('Name', { exact: true }).fill('Console key');
  await page.getByRole('button', { name: 'Create key' }).click();
  const dialog = page.getByRole('dialog', { name: 'Your new API key' });
  const oldKey = ((await dialog.getByTestId('new-key').textContent()) ?? '').trim();
  expect(oldKey).toMatch(/^kyc_test_/);
  await page.screenshot({ path: 'test-results/portal-new-key.png' });
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByText(oldKey)).toHaveCount(0);
  await expect(page.getByText(`${oldKey.slice(0, 16)}…`)).toBeVisible();

  // The key works at the gateway.
  const offers = await (await request.get('/api/v1/verify', { headers: { 'X-Api-Key': oldKey } })).json();
  const offer = offers.find((o: { service: string }) => o.service === 'pan_verification') ?? offers[0];
  const input = Object.fromEntries(offer.required_fields.map((f: string) => [f, 'ABCDE1234F']));
  const call = (key: string) => request.post(`/api/v1/verify/${offer.service}`, { headers: { 'X-Api-Key': key }, data: input });
  expect((await call(oldKey)).status()).toBe(200);

  // The APIs page lists it with its price and its documentation: fields, sample answer,
  // errors and code samples on this site.
  await page.getByRole('link', { name: 'APIs', exact: true }).click();
  await page.getByLabel('Search').fill(offer.service);
  await page.getByRole('button', { name: `Documentation of ${offer.name}` }).click();
  const doc = page.getByRole('dialog');
  await expect(doc).toContainText(`/api/v1/verify/${offer.service}`);
  for (const title of ['curl', 'Python', 'JavaScript']) {
    await expect(doc.getByRole('region', { name: title })).toContainText(`${new URL(page.url()).origin}/api/v1/verify/${offer.service}`);
  }
  await expect(doc).toContainText('insufficient_balance');
  await noSeriousAxeViolations(page);
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
  await noSeriousAxeViolations(page);
  await page.screenshot({ path: 'test-results/portal-apis.png', fullPage: true });

  // The console: one sandbox call, charged like a live one.
  await page.getByRole('link', { name: `Try ${offer.name}` }).click();
  await expect(page).toHaveURL(/\/try-it\?service=/);
  for (const f of offer.required_fields) await page.getByLabel(f, { exact: true }).fill('ABCDE1234F');
  await page.getByRole('button', { name: /^Send/ }).click();
  await expect(page.getByTestId('try-status')).toHaveText('200');
  const charged = paiseOf(await page.getByTestId('try-charged').textContent());
  expect(charged).toBe(offer.price_paise);
  const txn = ((await page.getByTestId('try-transaction').textContent()) ?? '').trim();
  expect(txn).toMatch(/^\d+$/);
  const after = paiseOf(await page.getByTestId('try-balance').textContent());
  // Our gateway call above and the console's call, each at the user's price.
  expect(after).toBe(before - 2 * offer.price_paise);
  await expect.poll(async () => paiseOf(await wallet.textContent())).toBe(after);
  await noSeriousAxeViolations(page);
  await page.screenshot({ path: 'test-results/portal-try-it.png', fullPage: true });
  await atPhoneWidth(page, () => expect(page.getByLabel('API', { exact: true })).toBeVisible());
  await page.screenshot({ path: 'test-results/portal-try-it-phone.png', fullPage: true });
  await page.setViewportSize({ width: 1280, height: 720 });

  // History lists the call with what the user paid, and exports it to CSV.
  await page.getByRole('link', { name: 'History' }).click();
  const row = page.locator('.data-table tbody tr').filter({ has: page.getByRole('cell', { name: txn, exact: true }) });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(offer.service);
  await expect(row.getByRole('cell', { name: new RegExp(`^₹${offer.price_paise / 100}\\.`) }).first()).toBeVisible();
  await noSeriousAxeViolations(page);
  await page.screenshot({ path: 'test-results/portal-history.png', fullPage: true });
  await page.getByRole('button', { name: 'Export to CSV' }).click();
  const exportDialog = page.getByRole('dialog', { name: 'Export to CSV' });
  await exportDialog.getByRole('button', { name: 'Export' }).click();
  await expect(exportDialog.getByText('CSV is ready to download')).toBeVisible({ timeout: 20_000 });
  const href = await exportDialog.getByRole('link', { name: /Download/ }).first().getAttribute('href');
  const csv = await (await request.get(href!)).text();
  expect(csv).toContain('#,Date (IST),Transaction ID,PID,Services,Status Code,Status,Amount,Balance,Type');
  expect(csv).toContain(offer.service);
  await noSeriousAxeViolations(page);
  await page.screenshot({ path: 'test-results/portal-history-export.png' });
  await exportDialog.getByRole('button', { name: 'Close' }).click();
  await atPhoneWidth(page, () => expect(page.getByRole('cell', { name: txn, exact: true })).toBeVisible());
  await page.screenshot({ path: 'test-results/portal-history-phone.png', fullPage: true });
  await page.setViewportSize({ width: 1280, height: 720 });

  // Roll: a new key at once, the old one still working during its grace period...
  await page.goto(site('/api-keys'));
  await page.getByRole('button', { name: `Roll ${oldKey.slice(0, 16)}` }).click();
  await page.getByLabel('Grace period (minutes)').fill('5');
  await page.getByRole('button', { name: 'Roll key' }).click();
  const rolled = page.getByRole('dialog', { name: 'Your new API key' });
  await expect(rolled).toContainText('keeps working for 5 minutes');
  const newKey = ((await rolled.getByTestId('new-key').textContent()) ?? '').trim();
  expect(newKey).toMatch(/^kyc_test_/);
  expect(newKey).not.toBe(oldKey);
  await rolled.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByText(/^Active until /)).toBeVisible();
  expect((await call(oldKey)).status()).toBe(200);
  expect((await call(newKey)).status()).toBe(200);

  // ...and refused once it is over (the five minutes run out here through SQL).
  sql(`UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE prefix = '${oldKey.slice(0, 16)}'`);
  await expect.poll(async () => (await call(oldKey)).status(), { timeout: 10_000 }).toBe(401);
  expect((await call(newKey)).status()).toBe(200);
  await page.reload();
  await expect(page.getByRole('cell', { name: 'Expired' })).toBeVisible();
  // The list shows when the gateway last saw each key.
  const oldRow = page.getByRole('row').filter({ hasText: `${oldKey.slice(0, 16)}…` });
  await expect(oldRow).toContainText(/\d{2}:\d{2}:\d{2}/);
  await expect(oldRow).not.toContainText('Never');
  await noSeriousAxeViolations(page);
  await page.screenshot({ path: 'test-results/portal-api-keys.png', fullPage: true });
  await atPhoneWidth(page, () => expect(page.getByRole('cell', { name: 'Expired' })).toBeVisible());
  await page.screenshot({ path: 'test-results/portal-api-keys-phone.png', fullPage: true });
});

test('a user edits its profile and finds how to top up', async ({ page }) => {
  await signIn(page);
  await page.getByRole('link', { name: 'Profile' }).click();
  const line2 = page.getByLabel('Address line 2');
  const text = `Floor ${Date.now() % 100}, MG Road`;
  await line2.fill(text);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Profile updated successfully')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Address line 2')).toHaveValue(text);
  // A bad phone number is refused in the form, before any request.
  await page.getByLabel('Phone number').fill('98-76');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('No special character & alphabets allowed in phone number.')).toBeVisible();
  // A wrong current password is the server's answer, on its field.
  await page.getByLabel('Current password').fill('Wrong@12345');
  await page.getByLabel('New password', { exact: true }).fill('Better@12345');
  await page.getByLabel('Confirm password', { exact: true }).fill('Better@12345');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Current password is incorrect')).toBeVisible();
  await noSeriousAxeViolations(page);
  await page.screenshot({ path: 'test-results/portal-profile.png', fullPage: true });
  await atPhoneWidth(page, () => expect(page.getByLabel('Address line 2')).toHaveValue(text));
  await page.screenshot({ path: 'test-results/portal-profile-phone.png', fullPage: true });
  await page.setViewportSize({ width: 1280, height: 720 });

  await page.getByRole('link', { name: 'Top-up' }).click();
  await expect(page.getByRole('heading', { name: 'Pay by QR code' })).toBeVisible();
  // The demo partner's QR code depends on the specs before this one (My Account uploads one):
  // with a code the page shows its instruction, without one it says so and asks nobody to scan.
  if (await page.getByAltText('QR code for payment').count()) {
    await expect(page.getByTestId('qr-description')).toBeVisible();
  } else {
    await expect(page.getByText('No QR code has been set up yet. Contact your provider below to pay.')).toBeVisible();
    await expect(page.getByTestId('qr-description')).toHaveCount(0);
  }
  await noSeriousAxeViolations(page);
  await page.screenshot({ path: 'test-results/portal-top-up.png', fullPage: true });
  await atPhoneWidth(page, () => expect(page.getByRole('heading', { name: 'Pay by QR code' })).toBeVisible());
  await page.screenshot({ path: 'test-results/portal-top-up-phone.png', fullPage: true });
});

test('a visitor signs up on the site, verifies the address from the mailed link, forgets the password and sets a new one', async ({ page }) => {
  const email = `portal.e2e.${Date.now()}@example.in`;
  await page.goto(site('/'));
  await page.locator('.site-header').getByRole('link', { name: 'Sign up' }).click();
  await expect(page).toHaveURL(/\/signup$/);
  await page.getByLabel('First name').fill('Meera');
  await page.getByLabel('Last name').fill('Iyer');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Phone number').fill('9876501234');
  await page.getByLabel('Password', { exact: true }).fill('Meera@12345');
  await page.getByLabel('Confirm password', { exact: true }).fill('Meera@12345');
  await page.getByLabel('Captcha', { exact: true }).fill('any');
  await page.getByRole('button', { name: 'Sign Up' }).click();
  const terms = page.getByRole('checkbox', { name: 'I agree to the Terms and Conditions' });
  if (await terms.isVisible()) {
    await expect(page.getByText('Please accept the terms and conditions')).toBeVisible();
    await noSeriousAxeViolations(page);
    await page.screenshot({ path: 'test-results/portal-signup.png', fullPage: true });
    await terms.check();
    await page.getByRole('button', { name: 'Sign Up' }).click();
  }
  // No session before the address is verified; the answer would be the same for a known one.
  await expect(page.getByText(/We have sent you an email: open its link to verify your address/)).toBeVisible();
  await expect(page).toHaveURL(/\/signup$/);
  const verify = await waitForLink(email, /http:\/\/demo\.localhost:\d+\/verify-email\/[A-Za-z0-9_-]+/);
  await page.goto(verify);
  await expect(page.getByRole('heading', { name: 'Verify your email address' })).toBeVisible();
  await page.getByLabel('Password', { exact: true }).fill('Meera@12345');
  await noSeriousAxeViolations(page);
  await page.screenshot({ path: 'test-results/portal-verify-email.png', fullPage: true });
  await page.getByRole('button', { name: 'Verify and sign in' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText('Welcome, Meera.')).toBeVisible();

  await page.getByRole('button', { name: 'Logout' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.getByRole('link', { name: 'Forgot password' }).click();
  await expect(page.getByRole('heading', { name: 'Forgot password' })).toBeVisible();
  // The sign-out's own requests settle first: a re-render they cause must not eat the typing.
  await page.waitForLoadState('networkidle');
  await page.getByLabel('Email').fill(email);
  await expect(page.getByLabel('Email')).toHaveValue(email);
  await page.getByRole('button', { name: 'Send link' }).click();
  await expect(page.getByText(/a link to reset the password will be sent/)).toBeVisible();
  const link = await waitForLink(email, /http:\/\/demo\.localhost:\d+\/reset-password\/[A-Za-z0-9_-]+/);
  await page.goto(link);
  await expect(page.getByText('Hello Meera, choose a new password.')).toBeVisible();
  await page.getByLabel('New password', { exact: true }).fill('Meera@67890');
  await page.getByLabel('Confirm password', { exact: true }).fill('Meera@67890');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText(/Your password has been reset/)).toBeVisible();
  await page.getByRole('link', { name: 'Login' }).click();
  await expect(page.getByRole('heading', { name: 'Login' })).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('Meera@67890');
  await page.getByLabel('Captcha', { exact: true }).fill('any');
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  // The link worked once.
  await page.goto(link);
  await expect(page.getByText('Session expired ! Please try again')).toBeVisible();
});
