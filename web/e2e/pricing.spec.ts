import { expect, test } from '@playwright/test';
import { paiseOf, signInPartner } from './support/sign-in';

// My Plan's selling prices against the seeded demo partner (20% default margin): the cost and
// what users pay side by side; a selling price set and removed again (specs share one platform).
test('a partner sees its cost beside its selling price and sets one API price', async ({ page }) => {
  await signInPartner(page);
  await page.getByRole('link', { name: 'My Plan' }).click();
  await expect(page).toHaveURL(/\/my-plan$/);
  await expect(page.getByLabel('Default margin (%)')).toHaveValue('20');
  const table = page.locator('.data-table').nth(1);
  const row = table.locator('tbody tr').first();
  await expect(row.getByRole('spinbutton')).toBeVisible();
  const cost = paiseOf(await row.locator('td').nth(3).textContent());
  const sells = paiseOf(await row.locator('td').nth(4).textContent());
  expect(sells).toBe(cost + Math.floor((cost * 2000 + 5000) / 10000));
  await page.screenshot({ path: 'test-results/my-plan-selling-prices.png', fullPage: true });

  await row.getByRole('spinbutton').pressSequentially(((cost + 1234) / 100).toFixed(2));
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Price updated successfully')).toBeVisible();
  await expect.poll(async () => paiseOf(await row.locator('td').nth(4).textContent())).toBe(cost + 1234);
  await expect(row).toContainText('(own price)');
  await row.getByRole('button', { name: 'Use margin' }).click();
  await expect.poll(async () => paiseOf(await row.locator('td').nth(4).textContent())).toBe(sells);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: 'test-results/my-plan-selling-prices-phone.png', fullPage: true });
});
