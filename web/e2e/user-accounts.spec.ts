import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { waitForLink } from './support/outbox';
import { demoPassword, signInPartner } from './support/sign-in';

// User Accounts on the seeded demo partner (issue 23): a user made through the API is found by
// the server's search, edited, deactivated (its key refused by the gateway) and activated
// again, sent the portal's reset link (read from the outbox), given a key that is then revoked;
// at desktop and phone width, with no serious axe-core violation.

async function noSeriousAxeViolations(page: Page, within?: string) {
  const axe = new AxeBuilder({ page });
  const { violations } = await (within ? axe.include(within) : axe).analyze();
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

async function noSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

/** A fresh user of the demo partner, made through the API (Add User's own form has its spec).
 * Names take letters only: the time in letters makes the user unique. */
async function seedUser(request: APIRequestContext) {
  const tag = Date.now()
    .toString(36)
    .replace(/[0-9]/g, (d) => 'abcdefghij'[Number(d)]);
  const lastName = `Kapoor${tag}`;
  const email = `zoya.${tag}@example.in`;
  const login = await request.post('/api/v1/partner/login', { data: { email: 'demo@example.in', password: demoPassword, captcha: null } });
  expect(login.status()).toBe(200);
  const { token } = (await login.json()) as { token: string };
  const res = await request.post('/api/v1/partner/users', {
    headers: { Authorization: `Bearer ${token}` },
    data: { first_name: 'Zoya', last_name: lastName, email, phone_number: '9811122233', password: 'Zoya-pass-123', full_access: false },
  });
  expect(res.status(), await res.text()).toBe(201);
  return { lastName, email };
}

test('a partner searches, edits, deactivates and activates a user, mails a reset link and manages its keys', async ({ page, request }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const { lastName, email } = await seedUser(request);
  await page.setViewportSize({ width: 1280, height: 1000 });
  await signInPartner(page);
  await page.getByRole('link', { name: 'User Accounts' }).click();
  await expect(page).toHaveURL(/\/user-accounts/);

  // The server's search: by the whole name, then by the mobile; the text stays in the URL.
  const search = page.getByRole('searchbox', { name: 'Search' });
  await search.fill(`zoya ${lastName}`);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`q=zoya\\+${lastName}`, 'i'));
  const cards = page.getByRole('list', { name: 'Users' }).getByRole('listitem');
  await expect(cards).toHaveCount(1);
  const card = cards.first();
  await expect(card).toContainText(email);
  await noSeriousAxeViolations(page);
  await page.screenshot({ path: 'test-results/user-accounts-search.png', fullPage: true });

  // Edit under Add User's rules: a bad phone is refused in the form, a good one saved.
  const name = `Zoya ${lastName}`;
  await card.getByRole('button', { name: `Edit ${name}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit user' });
  await edit.getByLabel('Phone number').fill('98-111');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit.getByText('No special character & alphabets allowed in phone number.')).toBeVisible();
  await noSeriousAxeViolations(page, '.modal');
  await edit.getByLabel('Phone number').fill('9822233344');
  await edit.getByLabel('First name').fill('Zoya Rani');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('User updated successfully')).toBeVisible();
  await expect(edit).toHaveCount(0);

  await search.fill('9822233344');
  await search.press('Enter');
  await expect(cards).toHaveCount(1);
  await expect(card).toContainText('Zoya Rani');
  await expect(card).toContainText(email);
  const newName = `Zoya Rani ${lastName}`;

  await card.getByRole('button', { name: `Deactivate ${newName}` }).click();
  const deactivate = page.getByRole('dialog', { name: 'Deactivate user' });
  await expect(deactivate).toContainText('API keys and portal sign-in are refused');
  await deactivate.getByRole('button', { name: 'Deactivate' }).click();
  await expect(page.getByText('User deactivated')).toBeVisible();
  await expect(card.getByText('Inactive', { exact: true })).toBeVisible();
  await expect(card.getByRole('button', { name: `Send reset mail to ${newName}` })).toBeDisabled();

  await card.getByRole('button', { name: `Activate ${newName}` }).click();
  await page.getByRole('dialog', { name: 'Activate user' }).getByRole('button', { name: 'Activate' }).click();
  await expect(page.getByText('User activated')).toBeVisible();
  await expect(card.getByText('Active', { exact: true })).toBeVisible();

  // The portal's reset link, mailed by the worker to the user.
  await card.getByRole('button', { name: `Send reset mail to ${newName}` }).click();
  const reset = page.getByRole('dialog', { name: 'Send password reset mail' });
  await expect(reset).toContainText(email);
  await reset.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByText(`A password reset link is being sent to ${email}`)).toBeVisible();
  const link = await waitForLink(email, /http:\/\/demo\.localhost:\d+\/reset-password\/[A-Za-z0-9_-]+/);
  expect(link).toMatch(/\/reset-password\//);

  // API Keys on User Detail: create (shown once), use, revoke.
  await card.getByRole('button', { name: 'View details' }).click();
  await expect(page).toHaveURL(/\/user-detail/);
  await page.getByRole('tab', { name: 'API Keys' }).click();
  await expect(page.getByText('This user has no API keys yet.')).toBeVisible();
  await page.getByRole('button', { name: 'Create key' }).click();
  const shown = page.getByRole('dialog', { name: 'New API key' });
  const key = (await shown.getByTestId('new-key').textContent())?.trim() ?? '';
  expect(key).toMatch(/^kyc_test_[A-Za-z0-9]+$/);
  await noSeriousAxeViolations(page, '.modal');
  await shown.getByRole('button', { name: 'Close' }).click();
  const row = page.getByRole('row', { name: new RegExp(key.slice(0, 16)) });
  await expect(row).toContainText('Active');
  await expect(row).toContainText('Never');
  expect((await request.get('/api/v1/verify', { headers: { 'X-Api-Key': key } })).status()).toBe(200);
  await noSeriousAxeViolations(page);
  await page.screenshot({ path: 'test-results/user-detail-api-keys.png', fullPage: true });

  await row.getByRole('button', { name: `Revoke ${key.slice(0, 16)}` }).click();
  await page.getByRole('dialog', { name: 'Revoke key' }).getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByText('Key revoked')).toBeVisible();
  await expect(row).toContainText('Revoked');
  expect((await request.get('/api/v1/verify', { headers: { 'X-Api-Key': key } })).status()).toBe(401);
  expect(errors).toEqual([]);
});

test('User Accounts and a user’s API Keys at phone width', async ({ page, request }) => {
  const { email } = await seedUser(request);
  await page.setViewportSize({ width: 390, height: 844 });
  await signInPartner(page);
  await page.goto(`/user-accounts?q=${encodeURIComponent(email)}`);
  const card = page.getByRole('list', { name: 'Users' }).getByRole('listitem').first();
  await expect(card).toContainText(email);
  await expect(page.getByRole('searchbox', { name: 'Search' })).toHaveValue(email);
  await expect(card.getByRole('button', { name: /^Edit / })).toBeVisible();
  await noSidewaysScroll(page);
  await noSeriousAxeViolations(page);
  await page.screenshot({ path: 'test-results/user-accounts-phone.png', fullPage: true });

  await card.getByRole('button', { name: /^Deactivate / }).click();
  await expect(page.getByRole('dialog', { name: 'Deactivate user' })).toBeVisible();
  await noSidewaysScroll(page);
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();

  await card.getByRole('button', { name: 'View details' }).click();
  await page.goto('/user-detail?tab=api-keys');
  await expect(page.getByRole('button', { name: 'Create key' })).toBeVisible();
  await noSidewaysScroll(page);
  await noSeriousAxeViolations(page);
  await page.screenshot({ path: 'test-results/user-detail-api-keys-phone.png', fullPage: true });
});
