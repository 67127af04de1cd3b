import { expect, test, type Page } from '@playwright/test';
import { signInSuperAdmin } from './support/sign-in';

// Client details, Users and API Status (spec part 2 §2.15) on the seeded demo partner and its
// 36 users. The specs share one platform: what a test changes it puts back.

async function openDemo(page: Page, tab: string) {
  await signInSuperAdmin(page);
  await page.getByRole('link', { name: 'Clients' }).click();
  await page.locator('.data-table tbody tr', { hasText: 'demo@example.in' }).getByRole('button', { name: 'View details' }).click();
  await expect(page).toHaveURL(/\/superadmin\/client-details$/);
  await page.getByRole('tab', { name: tab, exact: true }).click();
}

const USER_TABS = ['API Transactions', 'API Logs', 'Product Transactions', 'Product Logs', 'API Price', 'Credits', 'Settings'];

test("Users: the client's users 8 a page, and one user's seven tabs and Back", async ({ page }) => {
  await openDemo(page, 'Users');
  const cards = page.locator('.user-card');
  await expect(cards).toHaveCount(8);
  await expect(page.getByText('1 of 5')).toBeVisible();
  for (const label of ['User Id', 'Name', 'Status', 'Phone', 'Email', 'User Name']) {
    await expect(cards.first().getByText(label, { exact: true })).toBeVisible();
  }
  await expect(cards.first().getByText('demo', { exact: true })).toBeVisible();
  await page.screenshot({ path: 'test-results/superadmin-client-users.png', fullPage: true });
  await page.getByRole('button', { name: 'Next page' }).click();
  await expect(page.getByText('2 of 5')).toBeVisible();
  // The second page's cards, not the first page's kept on screen while it loads.
  await expect(cards.first().locator('.user-card-n')).toHaveText('9');
  await expect(cards).toHaveCount(8);

  const second = cards.first();
  const email = (await second.locator('dd.break').textContent())!.trim();
  const userId = (await second.locator('dd').first().textContent())!.trim();
  await second.getByRole('button', { name: 'View Details' }).click();
  await expect(page).toHaveURL(new RegExp(`user=${userId}`));
  await expect(page.locator('.detail-card')).toContainText(email);
  const tabs = page.locator('.client-user-detail');
  for (const name of USER_TABS) await expect(tabs.getByRole('tab', { name, exact: true })).toBeVisible();

  await expect(tabs.locator('.data-table')).toBeVisible();
  await page.screenshot({ path: 'test-results/superadmin-client-user-api-transactions.png', fullPage: true });
  for (const name of ['API Logs', 'Product Transactions', 'Product Logs']) {
    await tabs.getByRole('tab', { name, exact: true }).click();
    await expect(tabs.locator('.data-table')).toBeVisible();
  }
  await tabs.getByRole('tab', { name: 'API Price', exact: true }).click();
  await expect(tabs.locator('.data-table tbody tr').first()).toBeVisible();
  await expect(tabs.getByRole('columnheader', { name: 'Change Price' })).toBeVisible();
  await tabs.getByRole('tab', { name: 'Credits', exact: true }).click();
  await expect(tabs.getByText('API Wallet')).toBeVisible();
  await expect(tabs.getByText('Product Wallet')).toBeVisible();
  await page.screenshot({ path: 'test-results/superadmin-client-user-credits.png', fullPage: true });

  // Settings: a Plan Status choice is saved for the user and shows on the list; put back.
  await tabs.getByRole('tab', { name: 'Settings', exact: true }).click();
  const status = page.getByRole('radiogroup', { name: 'Plan Status' });
  const wasActive = await status.getByRole('radio', { name: 'Active', exact: true }).isChecked();
  const flip = wasActive ? 'Inactive' : 'Active';
  await status.getByRole('radio', { name: flip, exact: true }).click();
  await expect(status.getByRole('radio', { name: flip, exact: true })).toBeChecked();
  await page.reload();
  await expect(page.getByRole('radiogroup', { name: 'Plan Status' }).getByRole('radio', { name: flip, exact: true })).toBeChecked();
  await page.screenshot({ path: 'test-results/superadmin-client-user-settings.png', fullPage: true });

  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page.getByText('2 of 5')).toBeVisible();
  await expect(cards.filter({ hasText: email }).getByText(flip, { exact: true })).toBeVisible();
  await cards.filter({ hasText: email }).getByRole('button', { name: 'View Details' }).click();
  await page.locator('.client-user-detail').getByRole('tab', { name: 'Settings', exact: true }).click();
  const restore = wasActive ? 'Active' : 'Inactive';
  await page.getByRole('radiogroup', { name: 'Plan Status' }).getByRole('radio', { name: restore, exact: true }).click();
  await expect(page.getByRole('radiogroup', { name: 'Plan Status' }).getByRole('radio', { name: restore, exact: true })).toBeChecked();

  await page.setViewportSize({ width: 390, height: 844 });
  await page.locator('.client-user-detail').getByRole('tab', { name: 'API Transactions', exact: true }).click();
  await page.waitForTimeout(300);
  await page.screenshot({ path: 'test-results/superadmin-client-user-phone.png' });
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page.locator('.user-card').first()).toBeVisible();
  await page.screenshot({ path: 'test-results/superadmin-client-users-phone.png' });
});

test('API Status: an accordion per category with Show or Hide for the category and each API', async ({ page }) => {
  await openDemo(page, 'API Status');
  const items = page.locator('.accordion-item');
  await expect(items.first()).toBeVisible();
  const first = items.first();
  const toggle = first.locator('.accordion-toggle');
  const category = (await first.locator('.accordion-title').textContent())!.trim();
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  const row = first.locator('.accordion-row').first();
  await expect(row).toBeVisible();
  await page.screenshot({ path: 'test-results/superadmin-client-api-status.png', fullPage: true });

  const catGroup = page.getByRole('radiogroup', { name: `Category ${category}` });
  await catGroup.getByRole('radio', { name: 'Hide' }).click();
  await expect(page.getByText(`${category} is hidden`)).toBeVisible();
  await page.reload();
  await expect(page.getByRole('radiogroup', { name: `Category ${category}` }).getByRole('radio', { name: 'Hide' })).toBeChecked();
  await page.getByRole('radiogroup', { name: `Category ${category}` }).getByRole('radio', { name: 'Show' }).click();
  await expect(page.getByText(`${category} is shown`)).toBeVisible();

  await page.locator('.accordion-item').first().locator('.accordion-toggle').click();
  const apiGroup = page.locator('.accordion-item').first().locator('.accordion-row').first().getByRole('radiogroup');
  await apiGroup.getByRole('radio', { name: 'Hide' }).click();
  await expect(page.getByText(/ is hidden$/)).toBeVisible();
  await expect(apiGroup.getByRole('radio', { name: 'Hide' })).toBeChecked();
  await apiGroup.getByRole('radio', { name: 'Show' }).click();
  await expect(page.getByText(/ is shown$/)).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(300);
  await page.screenshot({ path: 'test-results/superadmin-client-api-status-phone.png', fullPage: true });
});

test("API Pricing: the modal shows the entry's catalogue fields beside its price and status", async ({ page }) => {
  await openDemo(page, 'API Pricing');
  await page.getByRole('button', { name: 'Add new' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'Add API Pricing' })).toBeVisible();
  const service = dialog.getByLabel('Service');
  const first = await service.locator('option').nth(1).getAttribute('value');
  await service.selectOption(first!);
  for (const label of ['Name', 'Category', 'Services', 'Method', 'End Point', 'Documentation Link', 'Param Name', 'Header Param Name', 'Description', 'Curl Code', 'Response Code']) {
    await expect(dialog.locator('.api-fields dt', { hasText: new RegExp(`^${label}$`) })).toBeVisible();
  }
  await expect(dialog.locator('.api-fields dd').nth(2)).toHaveText(first!);
  await expect(dialog.getByLabel('Price (₹)')).toBeVisible();
  await expect(dialog.getByRole('radiogroup', { name: 'Status' })).toBeVisible();
  await page.screenshot({ path: 'test-results/superadmin-client-api-pricing-modal.png' });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(300);
  await page.screenshot({ path: 'test-results/superadmin-client-api-pricing-modal-phone.png' });
  await page.keyboard.press('Escape');
});
