import { readFile } from 'node:fs/promises';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { signInPartner } from './support/sign-in';
import { sql } from './support/sql';

// What the console's lists and their files say about money (issue 23), on the seeded demo
// partner: a refunded call and a manual credit in a user's ledger and its export with equal
// totals; an export of a filtered screen holding only that screen's rows; a row just after
// midnight IST on its IST day in the filter, on the screen and in the file, in a browser on
// UTC; the partner's logo on its own site. Rows are seeded through the API and SQL.

/** Today in India as YYYY-MM-DD, `days` later. */
function istDay(days = 0): string {
  const now = new Date(Date.now() + 5.5 * 3600_000 + days * 86_400_000);
  return now.toISOString().slice(0, 10);
}

async function partnerToken(page: Page): Promise<string> {
  const token = await page.evaluate(() => localStorage.getItem('auth'));
  expect(token).toBeTruthy();
  return token!;
}

/** The demo partner's fourth user: its id, and its partner's. */
function demoUser(): { user: number; partner: number } {
  const [user, partner] = sql(
    "SELECT u.id || '|' || u.partner_id FROM end_users u JOIN partners p ON p.id = u.partner_id WHERE p.email = 'demo@example.in' ORDER BY u.id OFFSET 3 LIMIT 1",
  ).split('|');
  return { user: Number(user), partner: Number(partner) };
}

/**
 * A refunded call of `user` at `at` (SQL timestamptz): its transaction, and on both API wallets
 * its debit and the refund that put the money back, with the balances after each, as the
 * charger writes them (the wallets end where they were).
 */
function refundedCall(user: number, partner: number, pid: string, paise: number, at = 'now()'): number {
  const wallet = (owner: string) => sql(`SELECT id || '|' || balance_paise FROM wallets WHERE partner_id = ${partner} AND ${owner} AND kind = 'api'`).split('|').map(Number);
  const [uw, ub] = wallet(`user_id = ${user}`);
  const [pw, pb] = wallet('user_id IS NULL');
  const id = Number(
    sql(
      `INSERT INTO api_transactions (partner_id, user_id, service, pid, status, status_code, amount_paise, user_amount_paise, remaining_paise, partner_remaining_paise, created_at, settled_at)
       VALUES (${partner}, ${user}, 'pan_verification', '${pid}', 'refunded', 502, ${paise}, ${paise}, ${ub}, ${pb}, ${at}, ${at}) RETURNING id`,
    ),
  );
  const ref = `TXN${String(id).padStart(8, '0')}`;
  sql(
    `INSERT INTO wallet_entries (wallet_id, type, amount_paise, balance_after_paise, reason, reference, actor_kind, created_at) VALUES
       (${uw}, 'debit', ${paise}, ${ub - paise}, 'api_call', '${ref}', 'user', ${at}),
       (${pw}, 'debit', ${paise}, ${pb - paise}, 'api_call', '${ref}', 'user', ${at}),
       (${uw}, 'credit', ${paise}, ${ub}, 'refund', '${ref}', 'system', ${at} + interval '1 second'),
       (${pw}, 'credit', ${paise}, ${pb}, 'refund', '${ref}', 'system', ${at} + interval '1 second')`,
  );
  return id;
}

/** Requests the export the open screen's Export to CSV asks for, and reads its one file. */
async function exportFile(page: Page, from: string, to: string): Promise<string[][]> {
  await page.getByRole('button', { name: 'Export to CSV' }).click();
  const dialog = page.getByRole('dialog', { name: 'Export to CSV' });
  await dialog.getByLabel('From').fill(from);
  await dialog.getByLabel('To').fill(to);
  await dialog.getByRole('button', { name: 'Export' }).click();
  await expect(dialog.getByText('CSV is ready to download')).toBeVisible({ timeout: 30_000 });
  const downloading = page.waitForEvent('download');
  await dialog.getByRole('link', { name: /Download CSV|Part 1/ }).first().click();
  const text = (await readFile((await (await downloading).path())!)).toString('utf8');
  await dialog.getByRole('button', { name: 'Close' }).click();
  // The files have no quoted commas in these rows' cells but the amounts: split on the quotes first.
  return text
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\n')
    .map((line) => [...line.matchAll(/"([^"]*)"|([^,]+)|(?<=,|^)(?=,|$)/g)].map((m) => m[1] ?? m[2] ?? ''));
}

const paiseOf = (s: string) => Math.round(Number(s.replace(/[^\d.-]/g, '')) * 100);

/** Credits minus debits of table rows (cells as text), given the Amount and Type columns. */
const net = (rows: string[][], amount: number, type: number) => rows.reduce((t, r) => t + (r[type] === 'Credit' ? 1 : -1) * paiseOf(r[amount]), 0);

async function tableRows(page: Page): Promise<string[][]> {
  return page.locator('.data-table tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => (td.textContent ?? '').trim())));
}

test('a refunded call and a manual credit read alike in the ledger tab and its export, with equal totals', async ({ page, request }) => {
  test.setTimeout(120_000);
  const { user, partner } = demoUser();
  await signInPartner(page);
  const token = await partnerToken(page);
  const credit = await request.post(`/api/v1/partner/users/${user}/wallets/api/entries`, {
    headers: { authorization: `Bearer ${token}` },
    data: { type: 'credit', amount_paise: 1234 },
  });
  expect(credit.status()).toBe(200);
  const refunded = refundedCall(user, partner, `E2E-REFUND-${Date.now()}`, 777);

  await page.goto('/user-accounts');
  await page
    .locator('li.user-card')
    .filter({ has: page.locator('dd').getByText(String(user), { exact: true }) })
    .getByRole('button', { name: 'View details' })
    .click();
  await page.getByRole('tab', { name: 'API Transactions' }).click();
  const table = page.locator('.data-table tbody tr');
  await expect(table.filter({ hasText: 'Manual credit' }).first()).toBeVisible();
  await expect(table.filter({ hasText: 'Refund' }).first()).toBeVisible();
  // Today's rows on the screen (newest first): #, Date, PID, Services, Amount, Balance, Type, Status.
  const today = (await tableRows(page)).filter((r) => r[1].startsWith(new Date(`${istDay()}T12:00:00+05:30`).toLocaleDateString('en-US', { timeZone: 'Asia/Kolkata', weekday: 'short', month: 'short', day: '2-digit', year: 'numeric' }).replace(/,/g, '')));
  expect(today.some((r) => r[3] === 'Manual credit' && r[4] === '₹12.34' && r[6] === 'Credit')).toBe(true);
  expect(today.some((r) => r[7] === 'Refund' && r[4] === '₹7.77' && r[6] === 'Credit')).toBe(true);
  expect(today.some((r) => r[7] === 'Refunded' && r[4] === '₹7.77' && r[6] === 'Debit')).toBe(true);
  await page.screenshot({ path: 'test-results/money-truth-ledger.png', fullPage: true });

  const file = await exportFile(page, istDay(), istDay());
  const [header, ...rows] = file;
  expect(header).toEqual(['#', 'Date (IST)', 'Transaction ID', 'PID', 'Services', 'Status', 'Amount', 'Balance', 'Type']);
  expect(rows).toHaveLength(today.length);
  expect(net(rows, 6, 8)).toBe(net(today, 4, 6));
  expect(rows.filter((r) => r[2] === String(refunded)).map((r) => [r[5], r[6], r[8]])).toEqual([
    ['Refund', '₹7.77', 'Credit'],
    ['Refunded', '₹7.77', 'Debit'],
  ]);
  expect(rows.some((r) => r[4] === 'Manual credit' && r[6] === '₹12.34')).toBe(true);
  // The balances are the screen's, row for row.
  expect(rows.map((r) => r[7])).toEqual(today.map((r) => r[5]));
});

test('an export of a filtered User Transactions screen holds only that screen’s rows, refunded calls at ₹0', async ({ page }) => {
  test.setTimeout(120_000);
  const { user, partner } = demoUser();
  const pid = `E2E-FILTER-${Date.now()}`;
  const refunded = refundedCall(user, partner, pid, 555);
  await signInPartner(page);
  await page.goto(`/user-transactions?user_id=${user}&date=${istDay()}`);
  await expect(page.locator('.data-table tbody tr').first()).toBeVisible();
  const screen = await tableRows(page);
  // #, Date, User ID, Email, PID, Services, Status, Amount, Balance, Type
  expect(screen.every((r) => r[2] === String(user))).toBe(true);
  const shown = screen.find((r) => r[4] === pid)!;
  expect([shown[6], shown[7]]).toEqual(['502 Refunded', '₹0.00']);

  const [header, ...rows] = await exportFile(page, istDay(), istDay());
  expect(header).toEqual(['#', 'Date (IST)', 'Transaction ID', 'PID', 'Services', 'Status Code', 'Status', 'Amount', 'Balance', 'Type']);
  expect(rows.map((r) => r[3]).sort()).toEqual(screen.map((r) => r[4]).sort());
  const row = rows.find((r) => r[2] === String(refunded))!;
  expect([row[5], row[6], row[7], row[8]]).toEqual(['502', 'Refunded', '₹0.00', shown[8]]);
  expect(rows.reduce((t, r) => t + paiseOf(r[7]), 0)).toBe(screen.reduce((t, r) => t + paiseOf(r[7]), 0));
});

test.describe('in a browser on UTC', () => {
  test.use({ timezoneId: 'UTC' });

  test('a call at 00:15 IST is on its IST day in the filter, on the screen and in the file', async ({ page }) => {
    test.setTimeout(120_000);
    const { user, partner } = demoUser();
    const pid = `E2E-MIDNIGHT-${Date.now()}`;
    // 00:15 IST today is 18:45 UTC yesterday.
    refundedCall(user, partner, pid, 111, `timestamptz '${istDay()} 00:15:00+05:30'`);
    await signInPartner(page);

    await page.goto(`/user-transactions?pid=${pid}&date=${istDay(-1)}`);
    await expect(page.getByText('No transactions available')).toBeVisible();
    await page.goto(`/user-transactions?pid=${pid}&date=${istDay()}`);
    const row = page.locator('.data-table tbody tr').filter({ hasText: pid });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(/00:15:00 IST/);
    await page.screenshot({ path: 'test-results/money-truth-midnight-utc-browser.png', fullPage: true });

    // Every user's calls narrowed by the PID: #, Date (IST), User ID, Email, Transaction ID, PID, ...
    const [header, ...rows] = await exportFile(page, istDay(), istDay());
    expect(header.slice(0, 6)).toEqual(['#', 'Date (IST)', 'User ID', 'Email', 'Transaction ID', 'PID']);
    expect(rows).toHaveLength(1);
    expect(rows[0][5]).toBe(pid);
    expect(rows[0][1]).toMatch(/ 00:15:00$/);
  });
});

/** A 1x1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

async function upload(request: APIRequestContext, token: string, purpose: 'logo' | 'favicon'): Promise<string> {
  const r = await request.post('/api/v1/uploads', {
    headers: { authorization: `Bearer ${token}` },
    data: { purpose, file_name: `${purpose}.png`, content_type: 'image/png', size: PNG.length },
  });
  expect(r.status()).toBe(200);
  const { key, url, headers } = await r.json();
  const put = await request.put(url, { headers, data: PNG });
  expect(put.ok()).toBe(true);
  return key;
}

test('the partner’s logo and favicon show on its own site, allowed by the site’s CSP', async ({ page, request }) => {
  await signInPartner(page);
  const token = await partnerToken(page);
  const logo_key = await upload(request, token, 'logo');
  const favicon_key = await upload(request, token, 'favicon');
  const saved = await request.put('/api/v1/partner/branding', {
    headers: { authorization: `Bearer ${token}` },
    data: { title: 'Demo KYC - Home', description: 'Demo KYC - API KYC Solution', logo_key, favicon_key, theme: { primary: '#0F766E', secondary: '#7C3AED', tertiary: '#F59E0B' } },
  });
  expect(saved.status()).toBe(200);

  const blocked: string[] = [];
  page.on('console', (m) => m.type() === 'error' && /Content Security Policy/i.test(m.text()) && blocked.push(m.text()));
  const port = new URL(test.info().project.use.baseURL ?? 'http://localhost').port;
  await page.goto(`http://demo.localhost:${port}/`);
  const img = page.locator('img.brand-logo').first();
  await expect(img).toBeVisible();
  await expect.poll(() => img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth)).toBe(1);
  expect(await img.getAttribute('src')).toMatch(/^\/files\//);
  const icon = await page.locator('link[rel="icon"]').getAttribute('href');
  expect(icon).toMatch(/^\/files\//);
  // Fetched by the page itself: only the browser resolves *.localhost.
  expect(await page.evaluate(async (u) => (await fetch(u!)).status, icon)).toBe(200);
  expect(blocked).toEqual([]);
  await page.screenshot({ path: 'test-results/money-truth-partner-logo.png' });
});
