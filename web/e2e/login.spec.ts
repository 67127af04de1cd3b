import { expect, test } from '@playwright/test';

// Sign-in flows against the real platform with its seeded accounts; scripts/test starts it
// and passes the seeded passwords.
function required(name: string): string {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set: run the e2e tests through scripts/test`);
  return v;
}

const demoPassword = required('E2E_DEMO_PASSWORD');
const adminEmail = required('E2E_SUPERADMIN_EMAIL');
const adminPassword = required('E2E_SUPERADMIN_PASSWORD');

test('a partner signs in, sees the admin shell and logs out', async ({ page }) => {
  await page.goto('/auth');
  await page.getByLabel('Email').fill('demo@example.in');
  await page.getByLabel('Password', { exact: true }).fill(demoPassword);
  await page.getByLabel('Captcha', { exact: true }).fill('any');
  await page.getByRole('checkbox', { name: /terms/i }).check();
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText('API Wallet')).toBeVisible();
  await expect(page.getByText('Product Wallet')).toBeVisible();
  await expect(page.getByRole('link', { name: 'User Accounts' })).toBeVisible();
  await page.screenshot({ path: 'test-results/dashboard.png' });

  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page.getByText('Are you sure you want to logout?')).toBeVisible();
  await page.getByRole('dialog').getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/auth$/);
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/auth$/);
});

test('a wrong password shows the error box', async ({ page }) => {
  await page.goto('/auth');
  await page.getByLabel('Email').fill('demo@example.in');
  await page.getByLabel('Password', { exact: true }).fill('not-the-password');
  await page.getByRole('checkbox', { name: /terms/i }).check();
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByRole('alert')).toContainText('Error!');
  await expect(page).toHaveURL(/\/auth$/);
});

test('the super admin signs in and sees the console', async ({ page }) => {
  await page.goto('/superadmin/auth');
  await page.getByLabel('Username').fill(adminEmail);
  await page.getByLabel('Password', { exact: true }).fill(adminPassword);
  await page.getByLabel('Captcha', { exact: true }).fill('any');
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/superadmin\/dashboard$/);
  await expect(page.getByText(adminEmail)).toBeVisible();
  await expect(page.getByRole('link', { name: "Test API's" })).toBeVisible();
  await page.getByRole('link', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/superadmin\/auth$/);
});
