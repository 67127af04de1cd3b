import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { signInSuperAdmin } from './support/sign-in';
import { sql } from './support/sql';

// The Jobs page's browser, detail, pause and bulk actions against the real platform: the
// queue is the platform's own (apalis.jobs) and scripts/test runs two worker processes. The
// jobs are `send_mail` jobs made by the landing page's contact form, as in operations.spec.ts;
// a failure is written with SQL, as if SMTP had refused every attempt.
//
// The contact form allows 5 posts a minute per address and operations.spec.ts posts 3 more
// right after this file, so these tests make two jobs and reuse them, one test after another.
test.describe.configure({ mode: 'serial', timeout: 120_000 });

/** The first job: browsed and opened, then failed and bulk retried, then discarded and revived. */
let first = '';
/** Made while send_mail is paused; later failed and bulk retried with the first. */
let second = '';

const status = (id: string) => sql(`SELECT status FROM apalis.jobs WHERE id = '${id}'`);

/** A send_mail job from the contact form; waits out the form's rate limit when it answers 429. */
async function contactJob(request: APIRequestContext, message: string): Promise<string> {
  for (let tries = 0; tries < 8; tries++) {
    const res = await request.post('/api/v1/public/contact', {
      data: { name: 'Jobs Page', email: 'jobs-page@example.in', mobile: '9876543210', message },
    });
    if (res.status() === 429) {
      const wait = Number(res.headers()['retry-after'] ?? '12');
      await new Promise((r) => setTimeout(r, (Number.isFinite(wait) && wait > 0 ? wait : 12) * 1000));
      continue;
    }
    expect(res.status()).toBe(202);
    return ((await res.json()) as { job_id: string }).job_id;
  }
  throw new Error('the contact form kept answering 429');
}

/** As if SMTP had refused every attempt (what operations.spec.ts does). */
function failForGood(id: string, error: string) {
  sql(
    `UPDATE apalis.jobs SET status = 'Failed', attempts = max_attempts, done_at = now(),
       last_result = '{"Err": "${error}"}' WHERE id = '${id}'`,
  );
}

async function openJobs(page: Page) {
  await signInSuperAdmin(page);
  await page.getByRole('link', { name: 'Jobs', exact: true }).click();
  await expect(page).toHaveURL(/\/superadmin\/jobs$/);
  await expect(page.getByRole('heading', { name: 'Jobs' })).toBeVisible();
}

/** The job list at one state tab and send_mail; its tab panel. */
async function browse(page: Page, state: string) {
  await page.getByRole('tab', { name: state, exact: true }).click();
  await expect(page.getByRole('tab', { name: state, exact: true })).toHaveAttribute('aria-selected', 'true');
  await page.getByLabel('Job kind', { exact: true }).selectOption('send_mail');
  await expect(page).toHaveURL(/kind=send_mail/);
  return page.getByRole('tabpanel');
}

/** The queue table's row of send_mail (the first table of the page). */
const sendMailRow = (page: Page) => page.locator('.data-table').first().locator('tbody tr', { hasText: 'send_mail' });

async function noSeriousAxeViolations(page: Page, within?: string) {
  const axe = new AxeBuilder({ page });
  const { violations } = await (within ? axe.include(within) : axe).analyze();
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

// A failed test must not leave send_mail paused for the specs that follow.
test.afterAll(() => {
  sql(`DELETE FROM job_kind_pauses WHERE kind = 'send_mail'`);
});

test("the list of done send_mail jobs opens a job's detail with its attempt", async ({ page, request }) => {
  first = await contactJob(request, 'Jobs page: browsed');
  await expect.poll(() => status(first), { timeout: 20_000 }).toBe('Done');

  await openJobs(page);
  const list = await browse(page, 'Done');
  await expect(page).toHaveURL(/state=done/);
  const row = list.locator('tbody tr', { hasText: first });
  await expect(row).toBeVisible({ timeout: 15_000 });
  await expect(row).toContainText('Done');
  await expect(row).toContainText('send_mail');
  await page.screenshot({ path: 'test-results/superadmin-jobs-list.png', fullPage: true });

  await row.getByRole('link', { name: first }).click();
  await expect(page).toHaveURL(new RegExp(`job=${first}`));
  const dialog = page.getByRole('dialog', { name: 'send_mail job' });
  await expect(dialog.getByTestId('job-state')).toHaveText('Done');
  await expect(dialog).toContainText(first);
  // One attempt, done: "1 of N", with its time and duration.
  const attempts = dialog.locator('tbody tr');
  await expect(attempts).toHaveCount(1);
  await expect(attempts.first().locator('td').first()).toHaveText(/^1 of \d+$/);
  await expect(attempts.first()).toContainText('Done');
  await expect(attempts.first()).toContainText(/\d+(\.\d)? m?s/);
  await expect(dialog.locator('pre')).not.toBeEmpty();
  // A done job is neither retried, discarded nor revived.
  for (const name of ['Retry', 'Discard', 'Revive']) await expect(dialog.getByRole('button', { name, exact: true })).toHaveCount(0);
  await page.screenshot({ path: 'test-results/superadmin-job-detail.png', fullPage: true });
  await noSeriousAxeViolations(page, '.modal');

  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page).not.toHaveURL(/job=/);

  // At a phone's width nothing but the tables scrolls sideways, and the page stays usable.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(500);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await noSeriousAxeViolations(page);
  await page.screenshot({ path: 'test-results/superadmin-jobs-list-phone.png', fullPage: true });
});

test('a paused kind keeps its new job waiting, and runs it once resumed', async ({ page, request }) => {
  await openJobs(page);
  await sendMailRow(page).getByRole('button', { name: 'Pause send_mail' }).click();
  const confirm = page.getByRole('dialog', { name: 'Pause send_mail' });
  await expect(confirm).toContainText('No new send_mail job will start until you resume it.');
  await confirm.getByRole('button', { name: 'Pause', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'send_mail paused' })).toBeVisible();
  await expect(sendMailRow(page).getByText('Paused', { exact: true })).toBeVisible();
  await expect(sendMailRow(page).getByRole('button', { name: 'Resume send_mail' })).toBeVisible();
  expect(sql(`SELECT count(*) FROM job_kind_pauses WHERE kind = 'send_mail'`)).toBe('1');

  second = await contactJob(request, 'Jobs page: paused');
  const list = await browse(page, 'Queued');
  const row = list.locator('tbody tr', { hasText: second });
  await expect(row).toContainText('Queued', { timeout: 15_000 });
  // Still waiting a few seconds on: no worker starts a job of a paused kind.
  await page.waitForTimeout(4_000);
  expect(status(second)).toBe('Pending');
  await expect(row).toContainText('Queued');
  await page.screenshot({ path: 'test-results/superadmin-jobs-paused.png', fullPage: true });

  await sendMailRow(page).getByRole('button', { name: 'Resume send_mail' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'send_mail resumed' })).toBeVisible();
  await expect(sendMailRow(page).getByRole('button', { name: 'Pause send_mail' })).toBeVisible();
  await expect(sendMailRow(page).getByText('Paused', { exact: true })).toHaveCount(0);
  await expect.poll(() => status(second), { timeout: 20_000 }).toBe('Done');
  await expect(row).toHaveCount(0, { timeout: 15_000 });

  const done = await browse(page, 'Done');
  await done.getByRole('link', { name: second }).click();
  await expect(page.getByRole('dialog', { name: 'send_mail job' }).getByTestId('job-state')).toHaveText('Done');
});

test('Retry all takes the failed send_mail jobs after confirming how many, and they run', async ({ page }) => {
  failForGood(first, 'SMTP: connection refused (e2e bulk)');
  failForGood(second, 'SMTP: connection refused (e2e bulk)');
  // The set the button takes: these two and any failed send_mail job another spec left.
  const failed = Number(
    sql(`SELECT count(*) FROM apalis.jobs WHERE job_type = 'send_mail' AND status = 'Failed' AND attempts >= max_attempts`),
  );
  expect(failed).toBeGreaterThanOrEqual(2);

  await openJobs(page);
  const list = await browse(page, 'Failed');
  await expect(list.getByRole('link', { name: first })).toBeVisible({ timeout: 15_000 });
  await expect(list.getByRole('link', { name: second })).toBeVisible();
  await expect(list.getByText(`${failed} jobs`, { exact: true })).toBeVisible();

  await list.getByRole('button', { name: 'Retry all' }).click();
  const dialog = page.getByRole('dialog', { name: 'Retry all' });
  await expect(dialog).toContainText(`The ${failed} failed send_mail jobs will be queued again to run now.`);
  await page.screenshot({ path: 'test-results/superadmin-jobs-bulk-retry.png', fullPage: true });
  await dialog.getByRole('button', { name: `Retry ${failed} jobs` }).click();
  await expect(page.getByText(`${failed} jobs queued again`)).toBeVisible();
  await expect(dialog).toHaveCount(0);

  await expect.poll(() => status(first), { timeout: 20_000 }).toBe('Done');
  await expect.poll(() => status(second), { timeout: 20_000 }).toBe('Done');
  await expect(list.getByRole('link', { name: first })).toHaveCount(0, { timeout: 15_000 });
  await expect(list.getByRole('link', { name: second })).toHaveCount(0);
});

test('a discarded job is revived from its detail and runs', async ({ page }) => {
  failForGood(first, 'bounced (e2e revive)');
  await openJobs(page);

  // Discarded from its detail, after confirming.
  const failedList = await browse(page, 'Failed');
  await failedList.getByRole('link', { name: first }).click();
  const dialog = page.getByRole('dialog', { name: 'send_mail job' });
  await expect(dialog.getByTestId('job-state')).toHaveText('Failed');
  await expect(dialog).toContainText('bounced (e2e revive)');
  await dialog.getByRole('button', { name: 'Discard', exact: true }).click();
  await expect(dialog.getByText('The send_mail job will not run again.')).toBeVisible();
  expect(status(first)).toBe('Failed');
  await dialog.getByRole('button', { name: 'Discard', exact: true }).click();
  await expect(page.getByText('Job discarded')).toBeVisible();
  await expect(dialog.getByTestId('job-state')).toHaveText('Discarded');
  expect(status(first)).toBe('Killed');
  await dialog.getByRole('button', { name: 'Close' }).click();

  // Found among the discarded jobs, and revived.
  const discarded = await browse(page, 'Discarded');
  await discarded.getByRole('link', { name: first }).click();
  await expect(dialog.getByTestId('job-state')).toHaveText('Discarded');
  await expect(dialog.getByRole('button', { name: 'Retry', exact: true })).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Revive' }).click();
  await expect(page.getByText('Job queued again')).toBeVisible();
  await expect.poll(() => status(first), { timeout: 20_000 }).toBe('Done');
  await expect(dialog.getByTestId('job-state')).toHaveText('Done', { timeout: 15_000 });

  // Every attempt is listed; the count never passes the maximum.
  const attempts = (await dialog.locator('dt:text-is("Attempts") + dd').textContent()) ?? '';
  const [, n, max] = attempts.match(/^(\d+) of (\d+)$/) ?? [];
  expect(Number(n)).toBeGreaterThanOrEqual(3);
  expect(Number(n)).toBeLessThanOrEqual(Number(max));
  await page.screenshot({ path: 'test-results/superadmin-job-revived.png', fullPage: true });
});
