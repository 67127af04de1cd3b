import { expect, test } from '@playwright/test';
import { paiseOf, signInPartner } from './support/sign-in';

// The partner's User Detail Credits tab against the real platform and the seeded demo users.
test('a partner adds and deducts credits on a user and gets the 402 message beyond the balance', async ({ page }) => {
  await signInPartner(page);
  await page.getByRole('link', { name: 'User Accounts' }).click();
  await page.getByRole('button', { name: 'View details' }).first().click();
  await expect(page).toHaveURL(/\/user-detail$/);
  await page.getByRole('tab', { name: 'Credits' }).click();

  const wallet = page.getByRole('region', { name: 'API Wallet' });
  const balance = wallet.getByTestId('api-balance');
  await expect(balance).toHaveText(/₹/);
  const start = paiseOf(await balance.textContent());
  const amount = wallet.getByLabel('Amount (₹)');

  await amount.fill('50');
  await wallet.getByRole('button', { name: 'Add Credits' }).click();
  await expect(page.getByRole('dialog')).toContainText('Add ₹50.00 to the API Wallet?');
  await page.getByRole('dialog').getByRole('button', { name: 'Add', exact: true }).click();
  await expect(wallet.getByText('Credits added successfully')).toBeVisible();
  await expect.poll(async () => paiseOf(await balance.textContent())).toBe(start + 5000);

  // Amounts take paise: ₹0.69 can be deducted; a third decimal is refused with a message.
  await amount.fill('20.255');
  await wallet.getByRole('button', { name: 'Deduct Credits' }).click();
  await expect(wallet.getByText('Enter the amount in rupees with at most 2 decimals (paise)')).toBeVisible();
  await amount.fill('0.69');
  await wallet.getByRole('button', { name: 'Deduct Credits' }).click();
  await expect(page.getByRole('dialog')).toContainText('Deduct ₹0.69 from the API Wallet?');
  await page.getByRole('dialog').getByRole('button', { name: 'Deduct', exact: true }).click();
  await expect(wallet.getByText('Credits deducted successfully')).toBeVisible();
  await expect.poll(async () => paiseOf(await balance.textContent())).toBe(start + 5000 - 69);

  // A credit beyond the cap is refused before anything is asked.
  await amount.fill('1000000.01');
  await wallet.getByRole('button', { name: 'Add Credits' }).click();
  await expect(wallet.getByText('A credit can be at most ₹10,00,000.00 at a time')).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // More than the balance: the server refuses with 402 and nothing moves.
  const now = start + 5000 - 69;
  await amount.fill(String(Math.floor(now / 100) + 1000));
  await wallet.getByRole('button', { name: 'Deduct Credits' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Deduct', exact: true }).click();
  const error = wallet.getByRole('alert');
  await expect(error).toContainText('Error!');
  await expect(error).toContainText(/insufficient balance/i);
  await expect(balance).toHaveText(/₹/);
  expect(paiseOf(await balance.textContent())).toBe(now);
  await page.screenshot({ path: 'test-results/partner-user-credits.png', fullPage: true });
});

test("a partner changes one API price of a user; only that row is sent", async ({ page }) => {
  await signInPartner(page);
  await page.getByRole('link', { name: 'User Accounts' }).click();
  await page.getByRole('button', { name: 'View details' }).nth(1).click();
  await page.getByRole('tab', { name: 'API Price' }).click();
  const row = page.locator('.data-table tbody tr').nth(2);
  await expect(row.getByRole('spinbutton')).toBeVisible();
  const old = paiseOf(await row.locator('td').nth(4).textContent());
  const next = ((old + 175) / 100).toFixed(2);
  await row.getByRole('spinbutton').pressSequentially(next);
  const put = page.waitForRequest((r) => r.method() === 'PUT' && /\/partner\/users\/\d+\/prices$/.test(r.url()));
  await page.getByRole('button', { name: 'Save' }).click();
  const body = (await put).postDataJSON();
  expect(body.prices).toHaveLength(1);
  expect(body.prices[0].price_paise).toBe(old + 175);
  await expect(page.getByText('Price updated successfully')).toBeVisible();
  await expect(row.locator('td').nth(4)).toHaveText(`₹${((old + 175) / 100).toLocaleString('en-IN', { minimumFractionDigits: 2 })}`);
  await expect(row.getByRole('spinbutton')).toHaveValue('');
  await page.screenshot({ path: 'test-results/partner-user-api-price.png' });
});

test('a partner adds a user manually and finds it first in User Accounts', async ({ page }) => {
  await signInPartner(page);
  await page.getByRole('link', { name: 'Add User Manually' }).click();
  await expect(page).toHaveURL(/\/add-user-manually$/);
  const email = `manual${Date.now().toString(36)}@example.in`;
  await page.getByLabel('First name').fill('Meera');
  await page.getByLabel('Last name').fill('Nair');
  await page.getByLabel('Phone number').fill('98x');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByText('No special character & alphabets allowed in phone number.')).toBeVisible();
  await page.getByLabel('Phone number').fill('9876501234');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('Meera-pass-1');
  await page.getByRole('radio', { name: 'Full' }).check();
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByRole('dialog')).toContainText('Account created successfully');
  await expect(page.getByRole('dialog')).toContainText('Mail has been sent to user for confirmation');
  await page.screenshot({ path: 'test-results/add-user-manually.png', fullPage: true });
  await page.getByRole('dialog').getByRole('button', { name: 'OK' }).click();
  await page.getByRole('link', { name: 'User Accounts' }).click();
  await expect(page.getByText(email)).toBeVisible();
});
