import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { messagesTo } from './support/outbox';
import { demoPassword, signInPartner } from './support/sign-in';

// TruBank on the seeded demo partner: a new end user buys a manual bank-statement verification
// through the product API with its own key (seeded here through the API, not the UI), then the
// partner views the statement and changes the status in the browser, and the user is mailed.

const PDF = Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

async function noSeriousAxeViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

async function ok<T>(res: Awaited<ReturnType<APIRequestContext['post']>>, status = 200): Promise<T> {
  expect(res.status(), await res.text()).toBe(status);
  return (await res.json()) as T;
}

/** A fresh full-access user of the demo partner with product credit, a live key and one request. */
async function seedRequest(request: APIRequestContext) {
  const login = await ok<{ token: string }>(
    await request.post('/api/v1/partner/login', { data: { email: 'demo@example.in', password: demoPassword, captcha: null } }),
  );
  const auth = { Authorization: `Bearer ${login.token}` };
  const email = `trubank${Date.now().toString(36)}@example.in`;
  const user = await ok<{ id: number }>(
    await request.post('/api/v1/partner/users', {
      headers: auth,
      data: { first_name: 'Kavya', last_name: 'Iyer', email, phone_number: '9876543210', password: 'Kavya-pass-1', full_access: true },
    }),
    201,
  );
  await ok(await request.post(`/api/v1/partner/users/${user.id}/wallets/product/entries`, { headers: auth, data: { type: 'credit', amount_paise: 50_000 } }));
  const { key } = await ok<{ key: string }>(await request.post(`/api/v1/partner/users/${user.id}/api-keys`, { headers: auth, data: { mode: 'live' } }), 201);

  const apiKey = { 'X-Api-Key': key };
  const link = await ok<{ key: string; url: string; headers: Record<string, string> }>(
    await request.post('/api/v1/products/bank-statements/uploads', {
      headers: apiKey,
      data: { file_name: 'march statement.pdf', content_type: 'application/pdf', size: PDF.length },
    }),
  );
  expect((await request.put(link.url, { headers: link.headers, data: PDF })).status()).toBe(200);
  const submitted = await ok<{ request_id: string; status: string; charged_paise: number }>(
    await request.post('/api/v1/products/bank-statements', {
      headers: apiKey,
      data: { file_key: link.key, account_name: 'Kavya Iyer', account_number: '50100987654321', bank_name: 'HDFC Bank' },
    }),
    201,
  );
  expect(submitted.status).toBe('pending');
  expect(submitted.charged_paise).toBeGreaterThan(0);
  return { email, key, requestId: submitted.request_id };
}

test('a partner views a submitted bank statement and marks it verified; the user is mailed', async ({ page, request }) => {
  const seeded = await seedRequest(request);
  await signInPartner(page);
  await page.getByRole('link', { name: 'TruBank' }).click();
  await expect(page).toHaveURL(/\/trubank$/);
  await expect(page.getByRole('heading', { name: 'TruBank' })).toBeVisible();

  const row = page.getByRole('row').filter({ hasText: seeded.requestId });
  await expect(row).toBeVisible();
  await expect(row).toContainText('Kavya Iyer');
  await expect(row).toContainText('50100987654321');
  await expect(row).toContainText('HDFC Bank');
  await expect(row).toContainText('Pending');
  await noSeriousAxeViolations(page);
  await page.screenshot({ path: 'test-results/trubank-queue.png', fullPage: true });

  // View statement opens the file through its signed link.
  const view = row.getByRole('link', { name: 'View statement' });
  await expect(view).toHaveAttribute('target', '_blank');
  const href = await view.getAttribute('href');
  const file = await request.get(href!);
  expect(file.status()).toBe(200);
  expect(file.headers()['content-type']).toBe('application/pdf');
  expect(Buffer.from(await file.body()).subarray(0, 5).toString()).toBe('%PDF-');

  // Change Status: the status is required; then Verified with a report and a comment.
  await row.getByRole('button', { name: 'Change Status' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change Status' });
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(dialog.getByText('Status is required')).toBeVisible();
  await noSeriousAxeViolations(page);
  await page.screenshot({ path: 'test-results/trubank-change-status.png' });
  await dialog.getByRole('radio', { name: 'Verified', exact: true }).check();
  await dialog.getByLabel('File (optional)').setInputFiles({ name: 'report.pdf', mimeType: 'application/pdf', buffer: PDF });
  await dialog.getByLabel('Comment (optional)').fill('Matches the account summary');
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Status changed successfully')).toBeVisible();
  await expect(row).toContainText('Verified');
  await page.screenshot({ path: 'test-results/trubank-verified.png', fullPage: true });

  // The user reads the decision through the API and by mail (sent by the worker).
  const mine = await (await request.get(`/api/v1/products/bank-statements/${seeded.requestId}`, { headers: { 'X-Api-Key': seeded.key } })).json();
  expect(mine.status).toBe('verified');
  expect(mine.comment).toBe('Matches the account summary');
  expect(mine.result_file_url).toBeTruthy();
  await expect
    .poll(() => messagesTo(seeded.email).some((m) => m.includes(`Bank statement verification ${seeded.requestId}: Verified`)), { timeout: 20_000 })
    .toBe(true);

  // Phone width: the page fits, the table scrolls inside itself.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(page.getByRole('row').filter({ hasText: seeded.requestId })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await noSeriousAxeViolations(page);
  await page.screenshot({ path: 'test-results/trubank-phone.png', fullPage: true });
});
