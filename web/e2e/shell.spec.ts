import { expect, test } from '@playwright/test';

test('visiting /auth shows the login form', async ({ page }) => {
  await page.goto('/auth');
  await expect(page.getByLabel('Email')).toBeVisible();
  await expect(page.getByLabel('Password', { exact: true })).toBeVisible();
  await expect(page.getByLabel('Captcha', { exact: true })).toBeVisible();
  await expect(page.getByRole('checkbox', { name: /terms/i })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();
  await page.screenshot({ path: 'test-results/auth.png' });
});

test('visiting /dashboard signed out lands on /auth', async ({ page }) => {
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/auth$/);
  await expect(page.getByLabel('Email')).toBeVisible();
});

test('visiting a super-admin screen signed out lands on /superadmin/auth', async ({ page }) => {
  await page.goto('/superadmin/clients');
  await expect(page).toHaveURL(/\/superadmin\/auth$/);
});
