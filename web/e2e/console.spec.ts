import { expect, test } from '@playwright/test';
import { paiseOf, signInPartner } from './support/sign-in';

// The partner console's ledgers and transaction lists on the seeded demo partner.

test("a manual credit shows in the user's API ledger as a Credit row with the balance after it", async ({ page }) => {
  await signInPartner(page);
  await page.getByRole('link', { name: 'User Accounts' }).click();
  await page.getByRole('button', { name: 'View details' }).nth(2).click();
  await page.getByRole('tab', { name: 'Credits' }).click();
  const wallet = page.getByRole('region', { name: 'API Wallet' });
  const shown = wallet.getByTestId('api-balance');
  await expect(shown).toHaveText(/₹/);
  const start = paiseOf(await shown.textContent());
  await wallet.getByLabel('Amount (₹)').fill('7');
  await wallet.getByRole('button', { name: 'Add Credits' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Add', exact: true }).click();
  await expect(wallet.getByText('Credits added successfully')).toBeVisible();
  await expect.poll(async () => paiseOf(await shown.textContent())).toBe(start + 700);
  const balance = (await shown.textContent())?.trim() ?? '';

  await page.getByRole('tab', { name: 'API Transactions' }).click();
  const first = page.locator('.data-table tbody tr').first();
  await expect(first).toContainText('Manual credit');
  await expect(first.locator('td').nth(4)).toHaveText('₹7.00');
  await expect(first.locator('td').nth(5)).toHaveText(balance);
  await expect(first.getByText('Credit', { exact: true })).toHaveClass(/credit/);
  await expect(page.getByText(/^1 of \d+ pages$/)).toBeVisible();
  // The seeded history has failed calls: each shows as refunded, beside the refund that put the money back.
  await expect(page.getByText('Refunded').first()).toBeVisible();
  await page.screenshot({ path: 'test-results/console-user-ledger.png', fullPage: true });
});

test('User Transactions lists every user with the filter in the URL, and says when nothing matches', async ({ page }) => {
  await signInPartner(page);
  await page.getByRole('link', { name: 'User Transactions' }).click();
  await expect(page).toHaveURL(/\/user-transactions$/);
  await expect(page.locator('.data-table tbody tr')).toHaveCount(50);
  await expect(page.getByText(/^1 of \d+$/)).toBeVisible();
  await page.getByRole('button', { name: 'Next page' }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(page.getByText(/^2 of \d+$/)).toBeVisible();

  await page.getByLabel('User ID', { exact: true }).fill('abc');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByText('User ID contains only numeric values.')).toBeVisible();
  await page.getByLabel('User ID', { exact: true }).fill('');
  await page.getByLabel('Services').fill('pan');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/services=pan/);
  await expect(page).not.toHaveURL(/page=2/);
  const services = page.locator('.data-table tbody tr td:nth-child(6)');
  await expect(services.first()).toContainText(/pan/i);
  await page.screenshot({ path: 'test-results/console-user-transactions.png', fullPage: true });

  await page.getByLabel('Email').fill('nobody-at-all');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByText('No transactions available')).toBeVisible();
  await page.getByRole('button', { name: 'Clear' }).click();
  await expect(page).toHaveURL(/\/user-transactions$/);

  await page.getByRole('tab', { name: 'API logs' }).click();
  await expect(page.locator('.data-table tbody tr')).toHaveCount(50);
  await page.getByRole('tab', { name: 'Product logs' }).click();
  await expect(page.getByRole('columnheader', { name: 'Description' })).toBeVisible();
});

test("My Transactions shows the partner's own side with the filter panel, at phone width too", async ({ page }) => {
  await signInPartner(page);
  await page.getByRole('link', { name: 'My Transactions' }).click();
  await expect(page.getByRole('tab', { name: 'API transactions' })).toHaveAttribute('aria-selected', 'true');
  for (const label of ['User ID', 'Email', 'PID', 'Services', 'Date']) await expect(page.getByLabel(label)).toBeVisible();
  await expect(page.locator('.data-table tbody tr')).toHaveCount(50);
  await page.getByRole('tab', { name: 'Product transactions' }).click();
  // The seed's product calls (PIDs PRD…), beside its TruBank requests (newest).
  await expect(page.locator('.data-table tbody tr').filter({ hasText: 'PRD' }).first()).toBeVisible();
  await page.getByLabel('Date').fill('2001-01-01');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/date=2001-01-01/);
  await expect(page.getByText('No transactions available')).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  // The menu becomes the phone's overlay, closed: the page keeps the whole width.
  await expect(page.getByRole('button', { name: 'Apply' })).toBeInViewport();
  await page.waitForTimeout(400);
  await page.screenshot({ path: 'test-results/console-my-transactions-phone.png', fullPage: true });
});

test('My APIs hides an API for every user, and User Detail shows API Status by API and by category', async ({ page }) => {
  await signInPartner(page);
  await page.getByRole('link', { name: 'My APIs' }).click();
  await expect(page).toHaveURL(/\/my-apis$/);
  const first = page.getByRole('radiogroup').first();
  await expect(first.getByRole('radio', { name: 'Show' })).toBeChecked();
  const name = await first.getAttribute('aria-label');
  await first.getByRole('radio', { name: 'Hide' }).click();
  await expect(first.getByRole('radio', { name: 'Hide' })).toBeChecked();
  await expect(page.getByText(`${name} is hidden`)).toBeVisible();
  await page.reload();
  await expect(page.getByRole('radiogroup', { name: name ?? '' }).getByRole('radio', { name: 'Hide' })).toBeChecked();
  await page.screenshot({ path: 'test-results/console-my-apis.png' });
  await page.getByRole('radiogroup', { name: name ?? '' }).getByRole('radio', { name: 'Show' }).click();
  await expect(page.getByText(`${name} is shown`)).toBeVisible();

  await page.getByRole('link', { name: 'User Accounts' }).click();
  await page.getByRole('button', { name: 'View details' }).first().click();
  await page.getByRole('tab', { name: 'API Status' }).click();
  await expect(page.getByRole('tab', { name: 'Status by API name' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('radiogroup').first()).toBeVisible();
  await page.getByRole('tab', { name: 'Status by category name' }).click();
  await expect(page).toHaveURL(/by=category/);
  await expect(page.getByRole('columnheader', { name: 'API name' })).toHaveCount(0);
  await page.screenshot({ path: 'test-results/console-user-api-status.png' });
});

test('IP Hits blocks and unblocks an IP, and Whitelist IP adds one with the spec messages', async ({ page }) => {
  await signInPartner(page);
  await page.getByRole('link', { name: 'IP Hits' }).click();
  await expect(page.getByRole('tab', { name: 'All IPs' })).toHaveAttribute('aria-selected', 'true');
  const row = page.locator('.data-table tbody tr').first();
  await expect(row.getByText('Active')).toBeVisible();
  const userId = (await row.locator('td').nth(2).textContent())?.trim() ?? '';
  const ip = (await row.locator('td').nth(3).textContent())?.trim() ?? '';

  // The filter needs a User ID.
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByText('User ID is required')).toBeVisible();
  await page.getByLabel('User ID', { exact: true }).fill(userId);
  await page.getByLabel('IP', { exact: true }).fill(ip);
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(new RegExp(`user_id=${userId}`));
  await expect(page.locator('.data-table tbody tr')).toHaveCount(1);

  await row.getByRole('button', { name: 'Block' }).click();
  const dialog = page.getByRole('dialog', { name: 'Block IP' });
  await expect(dialog.getByLabel('IP', { exact: true })).toHaveValue(ip);
  await dialog.getByRole('button', { name: 'Block' }).click();
  await expect(dialog.getByText('Comments are required')).toBeVisible();
  await dialog.getByLabel('Comments').fill('Too many failed calls');
  await dialog.getByRole('button', { name: 'Block' }).click();
  await expect(page.locator('.data-table tbody tr').first().getByText('Blocked')).toBeVisible();
  await page.getByRole('tab', { name: 'Blocked IPs' }).click();
  await expect(page.getByText('Too many failed calls')).toBeVisible();
  await page.screenshot({ path: 'test-results/console-blocked-ips.png' });
  await page.getByRole('button', { name: 'Unblock' }).first().click();
  await expect(page.getByText('Are you sure, you want to Unblock the IP?')).toBeVisible();
  await page.getByRole('dialog').getByRole('button', { name: 'Unblock' }).click();
  await expect(page.getByText('No data')).toBeVisible();
  await page.getByRole('tab', { name: 'All IPs' }).click();
  await expect(page.locator('.data-table tbody tr').first().getByText('Active')).toBeVisible();
  await page.screenshot({ path: 'test-results/console-ip-hits.png' });

  await page.getByRole('link', { name: 'Whitelist IP' }).click();
  await page.getByRole('button', { name: 'Add new' }).click();
  const add = page.getByRole('dialog', { name: 'Add new' });
  await add.getByLabel('User ID', { exact: true }).fill('12a');
  await add.getByLabel('IP', { exact: true }).fill('300.1.2.3');
  await add.getByRole('button', { name: 'Submit' }).click();
  await expect(add.getByText('User ID contains only numeric values.')).toBeVisible();
  await expect(add.getByText('Please enter a valid IP address!')).toBeVisible();
  await expect(add.getByText('Comments are required')).toBeVisible();
  const newIp = `198.51.100.${Math.floor(Math.random() * 250) + 1}`;
  await add.getByLabel('User ID', { exact: true }).fill(userId);
  await add.getByLabel('IP', { exact: true }).fill(newIp);
  await add.getByLabel('Comments').fill('Office network');
  await add.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('IP whitelisted successfully')).toBeVisible();
  const first = page.locator('.data-table tbody tr').first();
  await expect(first).toContainText(newIp);
  await expect(first).toContainText('Office network');
  await page.getByLabel('User Id', { exact: true }).fill(userId);
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(new RegExp(`user_id=${userId}`));
  await page.getByLabel('IP', { exact: true }).fill('192.0.2.200');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByText('No whitelisted IPs found')).toBeVisible();
  await page.screenshot({ path: 'test-results/console-whitelist-ip.png' });
});

test('the sign-in page loads with no error in the browser console', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/auth');
  await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(errors).toEqual([]);
});

test('My Account: Basic refuses a non-https link, Settings apply at once, Contact details start empty and save', async ({ page }) => {
  await signInPartner(page);
  await page.getByRole('link', { name: 'My Account' }).click();
  for (const t of ['Basic', 'Theme', 'SMTP', 'Settings', 'Contact details']) await expect(page.getByRole('tab', { name: t })).toBeVisible();
  const link = page.getByLabel('Documentation link');
  await link.fill('http://docs.example.com');
  await expect(page.getByText('Invalid URL')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save' })).toBeDisabled();
  await link.fill('https://docs.demo-kyc.example/v1');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Documentation link saved')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Documentation link')).toHaveValue('https://docs.demo-kyc.example/v1');

  await page.getByRole('tab', { name: 'Settings' }).click();
  const security = page.getByRole('radiogroup', { name: 'Server Security' });
  const wasOn = await security.getByRole('radio', { name: 'Enabled' }).isChecked();
  await security.getByRole('radio', { name: wasOn ? 'Disabled' : 'Enabled' }).click();
  await expect(page.getByText(`Server Security ${wasOn ? 'disabled' : 'enabled'}`)).toBeVisible();
  await page.reload();
  await expect(page.getByRole('radiogroup', { name: 'Server Security' }).getByRole('radio', { name: wasOn ? 'Disabled' : 'Enabled' })).toBeChecked();
  // Leave it as it was: the other specs call the gateway from addresses nobody whitelisted.
  await page.getByRole('radiogroup', { name: 'Server Security' }).getByRole('radio', { name: wasOn ? 'Enabled' : 'Disabled' }).click();
  await expect(page.getByText(`Server Security ${wasOn ? 'enabled' : 'disabled'}`)).toBeVisible();
  await expect(page.getByRole('radiogroup', { name: 'Charge sandbox calls' })).toBeVisible();
  await page.screenshot({ path: 'test-results/console-my-account-settings.png' });

  await page.getByRole('tab', { name: 'SMTP' }).click();
  for (const l of ['Host', 'Port', 'User email', 'From', 'Company name']) await expect(page.getByLabel(l, { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Send test mail' })).toBeVisible();

  await page.getByRole('tab', { name: 'Theme' }).click();
  await expect(page.getByLabel('Title')).not.toHaveValue('');
  await page.screenshot({ path: 'test-results/console-my-account-theme.png', fullPage: true });

  await page.getByRole('tab', { name: 'Contact details' }).click();
  await expect(page.getByRole('alert')).toHaveCount(0);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Phone number is required')).toBeVisible();
  await page.getByLabel('Phone number').fill('9876543210');
  await page.getByLabel('Email').fill('support@demo-kyc.example');
  await page.getByLabel('Address').fill('12 MG Road, Bengaluru 560001');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Contact details saved')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Email')).toHaveValue('support@demo-kyc.example');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(400);
  await page.screenshot({ path: 'test-results/console-my-account-contact-phone.png', fullPage: true });
});
