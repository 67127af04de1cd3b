import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { signInPartner } from './support/sign-in';

/** India's day (the platform's business day), `offset` days from today, as YYYY-MM-DD: the
 * browser runs on UTC, whose date differs from India's between 18:30 and 24:00 UTC. */
const day = (offset: number) =>
  new Date(Date.now() + 5.5 * 3600_000 + offset * 86_400_000).toISOString().slice(0, 10);

// A seeded demo user's API transactions through the real export_csv job of the e2e worker.
test('a partner exports a user’s API transactions, sees the export finish and downloads the CSV', async ({ page }) => {
  test.setTimeout(90_000);
  await signInPartner(page);
  await page.getByRole('link', { name: 'User Accounts' }).click();
  await page.getByRole('button', { name: 'View details' }).first().click();
  await expect(page).toHaveURL(/\/user-detail$/);
  await expect(page.locator('.data-table tbody tr').first()).toBeVisible();

  await page.getByRole('button', { name: 'Export to CSV' }).click();
  const dialog = page.getByRole('dialog', { name: 'Export to CSV' });
  await dialog.getByLabel('From').fill(day(-150));
  await dialog.getByLabel('To').fill(day(0));
  await dialog.getByRole('button', { name: 'Export' }).click();
  await expect(dialog.getByText('CSV is ready to download')).toBeVisible({ timeout: 30_000 });
  await page.screenshot({ path: 'test-results/export-csv-ready.png' });

  const downloading = page.waitForEvent('download');
  await dialog.getByRole('link', { name: /Download CSV|Part 1/ }).first().click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^api_transactions_.*_part1\.csv$/);
  const text = (await readFile((await download.path())!)).toString('utf8');
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  expect(lines[0]).toBe('#,Date (IST),Transaction ID,PID,Services,Status,Amount,Balance,Type');
  expect(lines[1]).toMatch(/^1,\w{3} \w{3} \d{2} \d{4} \d{2}:\d{2}:\d{2},/);
  expect(lines.length).toBeGreaterThan(2);
});

test('a partner requests an API logs export and finds it in the list with its link', async ({ page }) => {
  test.setTimeout(90_000);
  await signInPartner(page);
  await page.getByRole('link', { name: 'User Accounts' }).click();
  await page.getByRole('button', { name: 'View details' }).nth(1).click();
  await page.getByRole('tab', { name: 'API Logs' }).click();
  const requests = page.getByRole('region', { name: 'Export requests' });
  await requests.getByLabel('From').fill(day(1));
  await requests.getByRole('button', { name: 'Request export' }).click();
  await expect(requests.getByText('From date cannot be later than today')).toBeVisible();
  await requests.getByLabel('From').fill(day(-150));
  await requests.getByLabel('To').fill(day(1));
  await requests.getByRole('button', { name: 'Request export' }).click();
  await expect(requests.getByText('CSV is ready to download')).toBeVisible({ timeout: 30_000 });
  const row = requests.locator('.data-table tbody tr').first();
  await expect(row).toContainText('Completed');
  await expect(row.getByRole('link').first()).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  await requests.scrollIntoViewIfNeeded();
  await requests.screenshot({ path: 'test-results/export-requests-phone.png' });
});
