import { expect, test } from '@playwright/test';
import { paiseOf, signInSuperAdmin } from './support/sign-in';

// The super admin's money screens against the real platform and its seeded catalogue.

test("API's lists the catalogue 10 rows a page with paging", async ({ page }) => {
  await signInSuperAdmin(page);
  await page.getByRole('link', { name: "API's", exact: true }).click();
  await expect(page).toHaveURL(/\/superadmin\/apis$/);
  const rows = page.locator('.data-table tbody tr');
  await expect(rows).toHaveCount(10);
  await expect(page.getByText(/^1 of \d+$/)).toBeVisible();
  const first = await rows.first().textContent();
  await page.screenshot({ path: 'test-results/superadmin-apis.png', fullPage: true });

  await page.getByRole('button', { name: 'Next page' }).click();
  await expect(page).toHaveURL(/\/superadmin\/apis\?page=2$/);
  await expect(page.getByText(/^2 of \d+$/)).toBeVisible();
  await expect(rows).toHaveCount(10);
  await expect(rows.first()).not.toHaveText(first!);
  await expect(rows.first().locator('td').first()).toHaveText('11');
});

test('Plans: edit one price inline and save it', async ({ page }) => {
  await signInSuperAdmin(page);
  await page.goto('/superadmin/plans');
  for (const t of ['Slab 1 Default', 'Slab 2 Standard', 'Slab 3 Premium', 'Slab 4 Pro']) {
    await expect(page.getByRole('tab', { name: t })).toBeVisible();
  }
  await page.getByRole('tab', { name: 'Slab 3 Premium' }).click();
  await expect(page).toHaveURL(/tab=premium/);

  const row = page.locator('.data-table tbody tr').first();
  await row.getByRole('button', { name: /^Edit price of/ }).click();
  // One row at a time: every other Edit is disabled while this one is open.
  await expect(page.locator('.data-table tbody tr').nth(1).getByRole('button', { name: /^Edit price of/ })).toBeDisabled();
  const input = row.getByRole('spinbutton');
  const old = Number(await input.inputValue());
  await input.fill('');
  await expect(row.getByRole('button', { name: 'Save' })).toBeDisabled();
  const next = (old + 1.25).toFixed(2);
  // Typed key by key, as a person does: the field must keep its focus and every key.
  await input.pressSequentially(next);
  await row.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Price updated successfully')).toBeVisible();
  await expect(row.getByRole('button', { name: /^Edit price of/ })).toBeEnabled();
  await page.screenshot({ path: 'test-results/superadmin-plans.png' });
});

test("a client's Credits: add credit and see the balance change", async ({ page }) => {
  await signInSuperAdmin(page);
  await page.getByRole('link', { name: 'Clients' }).click();
  const demo = page.locator('.data-table tbody tr', { hasText: 'demo@example.in' });
  await demo.getByRole('button', { name: 'View details' }).click();
  await expect(page).toHaveURL(/\/superadmin\/client-details$/);
  await expect(page.getByText('Back to clients')).toBeVisible();
  await expect(page.getByText('+91 9876543210')).toBeVisible();

  await page.getByRole('tab', { name: 'Credits' }).click();
  const wallet = page.getByRole('region', { name: 'API Wallet' });
  const balance = wallet.getByTestId('api-balance');
  await expect(balance).toHaveText(/₹/);
  const before = paiseOf(await balance.textContent());

  // Amounts take paise, and money moves only once the confirmation is accepted.
  await wallet.getByLabel('Amount (₹)').fill('250.50');
  await wallet.getByRole('button', { name: 'Add Credits' }).click();
  await expect(page.getByRole('dialog')).toContainText('Add ₹250.50 to the API Wallet?');
  await page.getByRole('dialog').getByRole('button', { name: 'Add', exact: true }).click();
  await expect(wallet.getByText('Credits added successfully')).toBeVisible();
  await expect.poll(async () => paiseOf(await balance.textContent())).toBe(before + 25050);
  await page.screenshot({ path: 'test-results/superadmin-client-credits.png' });

  await page.getByRole('tab', { name: 'Wallet Transactions' }).click();
  await expect(page.locator('.data-table tbody tr').first()).toContainText('Credit');
  await expect(page.locator('.data-table tbody tr').first()).toContainText('₹250.50');
});
