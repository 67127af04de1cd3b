import { execFileSync } from 'node:child_process';
import { expect, test, type Page } from '@playwright/test';
import { signInSuperAdmin } from './support/sign-in';

// The super admin's operations view against the real platform: scripts/test runs two worker
// processes, and the queue is the platform's own (apalis.jobs).

function sql(statement: string): string {
  const url = process.env.E2E_ENV_DATABASE_URL;
  if (!url) throw new Error('E2E_ENV_DATABASE_URL is not set: run the e2e tests through scripts/test');
  return execFileSync('psql', [url, '-Atqc', statement], { encoding: 'utf8' }).trim();
}

async function openJobs(page: Page) {
  await signInSuperAdmin(page);
  await page.getByRole('link', { name: 'Jobs', exact: true }).click();
  await expect(page).toHaveURL(/\/superadmin\/jobs$/);
  await expect(page.getByRole('heading', { name: 'Jobs' })).toBeVisible();
}

test('the Jobs page shows both worker processes running', async ({ page }) => {
  await openJobs(page);
  const workers = page.locator('.data-table').nth(2).locator('tbody tr', { hasText: 'Running' });
  await expect(workers).toHaveCount(2, { timeout: 15_000 });
  await expect(page.getByText('· 2 running')).toBeVisible();
  await expect(page.locator('.data-table').first().locator('tbody tr', { hasText: 'send_mail' })).toBeVisible();
  await page.screenshot({ path: 'test-results/superadmin-jobs.png', fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  // The menu slides away when the width drops; shoot once it has.
  await page.waitForTimeout(500);
  await page.screenshot({ path: 'test-results/superadmin-jobs-phone.png', fullPage: true });
});

test('a failed job retried from the Jobs page runs again and succeeds', async ({ page, request }) => {
  const res = await request.post('/api/v1/public/contact', {
    data: { name: 'Ops Check', email: 'ops@example.in', mobile: '9876543210', message: 'retry me' },
  });
  expect(res.status()).toBe(202);
  const id = ((await res.json()) as { job_id: string }).job_id;
  await expect.poll(() => sql(`SELECT status FROM apalis.jobs WHERE id = '${id}'`), { timeout: 15_000 }).toBe('Done');
  // As if its delivery had failed every attempt (SMTP down).
  sql(
    `UPDATE apalis.jobs SET status = 'Failed', attempts = max_attempts, done_at = now(),
       last_result = '{"Err": "SMTP: connection refused (e2e)"}' WHERE id = '${id}'`,
  );

  await openJobs(page);
  const row = page.locator('tbody tr', { hasText: id });
  await expect(row).toContainText('SMTP: connection refused (e2e)');
  await expect(row).toContainText('Failed');
  await page.screenshot({ path: 'test-results/superadmin-jobs-failure.png', fullPage: true });
  await row.getByRole('button', { name: `Retry job ${id}` }).click();
  await expect(page.getByText('Job queued again')).toBeVisible();
  await expect(row).toHaveCount(0, { timeout: 15_000 });
  await expect.poll(() => sql(`SELECT status FROM apalis.jobs WHERE id = '${id}'`), { timeout: 15_000 }).toBe('Done');
  await page.screenshot({ path: 'test-results/superadmin-jobs-retried.png', fullPage: true });
});

test('a failed job can be discarded after confirming', async ({ page, request }) => {
  const res = await request.post('/api/v1/public/contact', {
    data: { name: 'Ops Discard', email: 'ops2@example.in', mobile: '9876543210', message: 'discard me' },
  });
  const id = ((await res.json()) as { job_id: string }).job_id;
  await expect.poll(() => sql(`SELECT status FROM apalis.jobs WHERE id = '${id}'`), { timeout: 15_000 }).toBe('Done');
  sql(`UPDATE apalis.jobs SET status = 'Failed', attempts = max_attempts, done_at = now(), last_result = '{"Err": "bounced"}' WHERE id = '${id}'`);
  await openJobs(page);
  const row = page.locator('tbody tr', { hasText: id });
  await row.getByRole('button', { name: `Discard job ${id}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Discard' }).click();
  await expect(page.getByText('Job discarded')).toBeVisible();
  await expect(row).toHaveCount(0);
  expect(sql(`SELECT status FROM apalis.jobs WHERE id = '${id}'`)).toBe('Killed');
});

test('the Mail page lists the outbox and shows a message', async ({ page, request }) => {
  const res = await request.post('/api/v1/public/contact', {
    data: { name: 'Mail Page', email: 'mailpage@example.in', mobile: '9876543210', message: 'Seen on the Mail page' },
  });
  expect(res.status()).toBe(202);
  await signInSuperAdmin(page);
  await page.getByRole('link', { name: 'Mail', exact: true }).click();
  await expect(page).toHaveURL(/\/superadmin\/mail$/);
  // The contact mail arrives within a poll or two of the page.
  const row = page.locator('.data-table tbody tr', { hasText: 'Contact form: Mail Page' });
  await expect(row).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText(/^\d+ messages$/)).toBeVisible();
  await page.screenshot({ path: 'test-results/superadmin-mail.png', fullPage: true });
  await row.getByRole('button', { name: 'View' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'Contact form: Mail Page' })).toBeVisible();
  await expect(dialog.locator('.mail-text')).toContainText('Seen on the Mail page');
  await page.screenshot({ path: 'test-results/superadmin-mail-open.png', fullPage: true });
});
