import { expect, test, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';

// Key controls on the seeded demo partner's site (demo.localhost): a user creates a named
// sandbox key that may call one API, calls the gateway with it, is refused another API with the
// key's own error code, reads its call back by transaction id, and sees the call in the key's
// usage. Then it lifts the limit in the edit dialog and the other API answers.

const USER_EMAIL = 'aarav.sharma1@example.in';
const USER_PASSWORD = 'User@12345';

function site(path = '/'): string {
  const port = new URL(test.info().project.use.baseURL ?? 'http://localhost').port;
  return `http://demo.localhost:${port}${path}`;
}

async function signIn(page: Page) {
  await page.goto(site('/login'));
  await page.getByLabel('Email').fill(USER_EMAIL);
  await page.getByLabel('Password', { exact: true }).fill(USER_PASSWORD);
  await page.getByLabel('Captcha', { exact: true }).fill('any');
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

type Offer = { service: string; name: string; required_fields: string[]; price_paise: number; sandbox: boolean };

test('a key limited to one API calls it, is refused another, and shows its usage', async ({ page, request }) => {
  await signIn(page);
  await page.getByRole('link', { name: 'API Keys' }).click();
  await expect(page.getByRole('heading', { name: 'Create a key' })).toBeVisible();

  // Two APIs a sandbox key may call, from the form's own list.
  const select = page.getByLabel('APIs this key may call');
  await expect(select.locator('option').nth(1)).toBeAttached();
  const values = await select.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
  const [allowed, other] = values;

  const name = `Limited ${Date.now() % 100000}`;
  await page.getByRole('radio', { name: /^Sandbox/ }).check();
  await page.getByLabel('Name', { exact: true }).fill(name);
  await select.selectOption([allowed]);
  await page.getByRole('button', { name: 'Create key' }).click();
  const dialog = page.getByRole('dialog', { name: 'Your new API key' });
  const key = ((await dialog.getByTestId('new-key').textContent()) ?? '').trim();
  expect(key).toMatch(/^kyc_test_/);
  await dialog.getByRole('button', { name: 'Close' }).click();
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText(allowed);
  await expect(row).toContainText('Any address');
  await expect(row).toContainText('0 calls');

  // The gateway: the listed API answers, the other is refused with the key's own code.
  const offers: Offer[] = await (await request.get('/api/v1/verify', { headers: { 'X-Api-Key': key } })).json();
  expect(offers.map((o) => o.service)).toEqual([allowed]);
  const inputOf = (service: string) => {
    const fields = offers.find((o) => o.service === service)?.required_fields ?? ['id_number'];
    return Object.fromEntries(fields.map((f) => [f, 'ABCDE1234F']));
  };
  const ok = await request.post(`/api/v1/verify/${allowed}`, { headers: { 'X-Api-Key': key }, data: inputOf(allowed) });
  expect(ok.status()).toBe(200);
  const answer = await ok.json();
  const refused = await request.post(`/api/v1/verify/${other}`, { headers: { 'X-Api-Key': key }, data: { id_number: 'ABCDE1234F' } });
  expect(refused.status()).toBe(403);
  const error = (await refused.json()).error;
  expect(error.code).toBe('key_api_not_allowed');
  expect(error.message).toContain(other);

  // The call read back by its transaction id, with the answer it got.
  const txn = ok.headers()['x-transaction-id'];
  const kept = await request.get(`/api/v1/verify/transactions/${txn}`, { headers: { 'X-Api-Key': key } });
  expect(kept.status()).toBe(200);
  const body = await kept.json();
  expect(body.service).toBe(allowed);
  expect(body.status).toBe('success');
  expect(body.response).toEqual(answer);

  // The usage column counts the call.
  await page.reload();
  await expect(row).toContainText('1 call,');
  await new AxeBuilder({ page }).analyze().then(({ violations }) => {
    const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => v.id)).toEqual([]);
  });
  await page.screenshot({ path: 'test-results/portal-key-limits.png', fullPage: true });

  // Lifting the limit in the edit dialog lets the other API through (in force within a second).
  await row.getByRole('button', { name: /^Edit / }).click();
  const edit = page.getByRole('dialog', { name: 'Edit key' });
  await edit.getByLabel('APIs this key may call').selectOption([]);
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toHaveCount(0);
  await expect(row).toContainText('All APIs');
  const all: Offer[] = await (await request.get('/api/v1/verify', { headers: { 'X-Api-Key': key } })).json();
  const otherOffer = all.find((o) => o.service === other)!;
  expect(otherOffer).toBeTruthy();
  const input = Object.fromEntries(otherOffer.required_fields.map((f) => [f, 'ABCDE1234F']));
  await expect
    .poll(async () => (await request.post(`/api/v1/verify/${other}`, { headers: { 'X-Api-Key': key }, data: input })).status(), { timeout: 5_000 })
    .toBe(200);
});
