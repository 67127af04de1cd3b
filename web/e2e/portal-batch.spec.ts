import { writeFileSync } from 'node:fs';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { adminEmail, adminPassword, paiseOf } from './support/sign-in';
import { sql } from './support/sql';
import { killAllWorkers, startWorker } from './support/workers';

// Batch verification on the seeded demo partner's site: the super admin turns Batch Processing
// on, the demo user uploads 100 rows, every worker of the platform is SIGKILLed half-way and a
// new one started, and each successful row is charged exactly once.

const USER_EMAIL = 'aarav.sharma1@example.in';
const USER_PASSWORD = 'User@12345';
const ROWS = 100;

function site(path = '/'): string {
  const port = new URL(test.info().project.use.baseURL ?? 'http://localhost').port;
  return `http://demo.localhost:${port}${path}`;
}

async function adminToken(request: APIRequestContext): Promise<string> {
  const res = await request.post('/api/v1/superadmin/login', { data: { email: adminEmail, password: adminPassword, captcha: null } });
  expect(res.status()).toBe(200);
  return (await res.json()).token;
}

async function setBatchProcessing(request: APIRequestContext, on: boolean) {
  const headers = { Authorization: `Bearer ${await adminToken(request)}` };
  const clients = await (await request.get('/api/v1/superadmin/clients?email=demo@example.in', { headers })).json();
  const demo = clients.items.find((c: { email: string }) => c.email === 'demo@example.in');
  const res = await request.patch(`/api/v1/superadmin/clients/${demo.id}/settings`, { headers, data: { batch_processing: on } });
  expect(res.status()).toBe(200);
}

async function signIn(page: Page) {
  await page.goto(site('/login'));
  await page.getByLabel('Email').fill(USER_EMAIL);
  await page.getByLabel('Password', { exact: true }).fill(USER_PASSWORD);
  await page.getByLabel('Captcha', { exact: true }).fill('any');
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

async function noSeriousAxeViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

test.afterAll(async ({ request }) => {
  await setBatchProcessing(request, false);
});

test('a batch of 100 rows survives its workers being killed half-way, each row charged once', async ({ page, request }) => {
  test.setTimeout(180_000);
  await setBatchProcessing(request, true);
  // Sandbox rows are free unless the partner charges them: the demo partner does here.
  sql("UPDATE partners SET charge_sandbox = true WHERE user_name = 'demo'");
  await signIn(page);
  await expect(page.getByTestId('api-wallet')).toHaveText(/₹[1-9]/);
  const before = paiseOf(await page.getByTestId('api-wallet').textContent());

  await page.getByRole('link', { name: 'Batch' }).first().click();
  await expect(page.getByRole('heading', { name: 'Batch verification' })).toBeVisible();
  await noSeriousAxeViolations(page);

  // A sandbox API the demo user may call, and a file of its required fields.
  const token = await page.evaluate(() => localStorage.getItem('portal_auth'));
  const apis = await (await request.get('/api/v1/me/apis', { headers: { Authorization: `Bearer ${token}` } })).json();
  const offer = apis.find((a: { sandbox: boolean }) => a.sandbox);
  expect(offer).toBeTruthy();
  const header = offer.required_fields.length ? offer.required_fields : ['reference'];
  const lines = [header.join(','), ...Array.from({ length: ROWS }, (_, i) => header.map((f: string) => `${f}-${i + 1}`).join(','))];
  const file = test.info().outputPath('batch.csv');
  writeFileSync(file, lines.join('\n') + '\n');

  await page.getByLabel('API').selectOption(offer.service);
  await page.getByLabel('Mode').selectOption('sandbox');
  await page.getByLabel('CSV file').setInputFiles(file);
  await page.getByRole('button', { name: 'Start batch' }).click();
  const done = page.getByTestId('batch-done');
  await expect(done).toHaveText(new RegExp(`of ${ROWS}$`));

  // Half-way: every worker dies at once, then one comes back, as after a crash.
  await expect
    .poll(async () => Number((await done.textContent())?.split(' ')[0] ?? 0), { timeout: 60_000, intervals: [200] })
    .toBeGreaterThanOrEqual(30);
  killAllWorkers();
  const atKill = Number((await done.textContent())?.split(' ')[0] ?? 0);
  expect(atKill).toBeLessThan(ROWS);
  startWorker();

  await expect(done).toHaveText(`${ROWS} of ${ROWS}`, { timeout: 120_000 });
  await expect(page.getByTestId('batch-charged')).toHaveText(String(ROWS));
  await expect(page.getByTestId('batch-failed')).toHaveText('0');
  const charged = paiseOf(await page.getByTestId('batch-amount').textContent());
  expect(charged).toBe(ROWS * offer.price_paise);
  await page.screenshot({ path: 'test-results/portal-batch.png', fullPage: true });

  // The money moved once per row: the wallet fell by exactly the batch's amount.
  await page.goto(site('/dashboard'));
  await expect(page.getByTestId('api-wallet')).toHaveText(/₹/);
  expect(paiseOf(await page.getByTestId('api-wallet').textContent())).toBe(before - charged);

  // The result file: one line per row, each a success with its own transaction.
  await page.goto(site('/batch'));
  const row = page.getByRole('row').filter({ hasText: 'batch.csv' }).first();
  await expect(row).toContainText('Completed');
  const download = page.waitForEvent('download');
  await row.getByRole('button', { name: 'Download result' }).click();
  const text = await (await (await download).createReadStream()).toArray().then((c) => Buffer.concat(c).toString('utf8'));
  const results = text.trim().split('\n').slice(1);
  expect(results).toHaveLength(ROWS);
  const txns = new Set(results.map((l) => l.split(',')[header.length + 3]));
  expect(txns.size).toBe(ROWS);
  expect(results.every((l) => l.includes(',Success,'))).toBe(true);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Batch verification' })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.screenshot({ path: 'test-results/portal-batch-phone.png', fullPage: true });
  await noSeriousAxeViolations(page);
});
