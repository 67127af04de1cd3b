import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jobDetail, jobRow, operations, pageApi, pageOf } from '@/features/jobs/testing/fixtures';
import { mockApi, renderRoutes, type ApiCall } from '@/testing/test-utils';
import JobsPage from './jobs';

const kind = (k: string, over: Record<string, number> = {}) => ({
  kind: k, queued: 0, running: 0, retrying: 0, failed: 0, discarded: 0, done_last_hour: 0, done_last_minute: 0, oldest_queued_secs: 0, ...over,
});

const overview = (failed: boolean) => ({
  kinds: [kind('send_mail', { queued: 1234, failed: failed ? 1 : 0, done_last_hour: 4321, done_last_minute: 75, oldest_queued_secs: 125 }), kind('prune_jobs')],
  recent_failures: failed
    ? [{ id: '01JOB', kind: 'send_mail', status: 'failed', attempts: 8, max_attempts: 8, last_error: 'SMTP: connection refused', at: '2026-11-23T10:00:00Z', next_run_at: null }]
    : [],
  workers: [
    { id: 'box-11', host: 'box', pid: 11, concurrency: 4, started_at: '2026-11-23T09:00:00Z', last_seen_at: '2026-11-23T10:00:00Z', stopped_at: null, status: 'running' },
    { id: 'box-12', host: 'box', pid: 12, concurrency: 8, started_at: '2026-11-23T09:00:00Z', last_seen_at: '2026-11-23T10:00:00Z', stopped_at: null, status: 'missing' },
    { id: 'box-13', host: 'box', pid: 13, concurrency: 8, started_at: '2026-11-23T09:00:00Z', last_seen_at: '2026-11-23T10:00:00Z', stopped_at: null, status: 'stalled' },
  ],
  heartbeat_secs: 30,
  periodic: [],
  running: [],
  paused: [],
});

const renderPage = (path = '/superadmin/jobs') => renderRoutes([{ path: '/superadmin/jobs', element: <JobsPage /> }], path);
const posts = (calls: ApiCall[]) => calls.filter((c) => c.init.method === 'POST');
/** The query of every list request, in order. */
const listQueries = (calls: ApiCall[]) =>
  calls.filter((c) => c.url.startsWith('/api/v1/superadmin/jobs/list')).map((c) => c.url.slice(c.url.indexOf('?') + 1));

describe('JobsPage', () => {
  it('shows the queue per kind, the failures and the workers', async () => {
    mockApi({ ...pageApi(), 'GET /superadmin/jobs': { status: 200, body: overview(true) } });
    renderPage();
    const row = (await screen.findByText('1,234')).closest('tr')!;
    expect(within(row).getByText('send_mail')).toBeInTheDocument();
    expect(within(row).getByText('4,321')).toBeInTheDocument();
    expect(within(row).getByText('75')).toBeInTheDocument();
    expect(within(row).getByText('2 m 5 s')).toBeInTheDocument();
    expect(screen.getByText('SMTP: connection refused')).toBeInTheDocument();
    expect(screen.getByText('8 of 8')).toBeInTheDocument();
    expect(screen.getByText('No heartbeat')).toBeInTheDocument();
    // Beating, but its fetcher cannot reach the queue: not counted as running.
    expect(screen.getByText('Not fetching')).toBeInTheDocument();
    expect(screen.getByText(/1 running/)).toBeInTheDocument();
  });

  it('retries a failed job and refreshes the view', async () => {
    let retried = false;
    const calls = mockApi({
      ...pageApi(),
      'GET /superadmin/jobs': () => ({ status: 200, body: overview(!retried) }),
      'POST /superadmin/jobs/:id/retry': () => {
        retried = true;
        return { status: 202 };
      },
    });
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Retry job 01JOB' }));
    expect(await screen.findByText('Job queued again')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByText('No failed jobs')).toBeInTheDocument());
    expect(calls.some((c) => c.init.method === 'POST' && c.url === '/api/v1/superadmin/jobs/01JOB/retry')).toBe(true);
  });

  it('discards only after confirming, and shows a refusal', async () => {
    const calls = mockApi({
      ...pageApi(),
      'GET /superadmin/jobs': { status: 200, body: overview(true) },
      'POST /superadmin/jobs/:id/discard': { status: 409, body: { error: { code: 'conflict', message: 'Only a failed job can be retried or discarded' } } },
    });
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Discard job 01JOB' }));
    expect(calls.filter((c) => c.init.method === 'POST')).toHaveLength(0);
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Discard' }));
    expect(await screen.findByText('Only a failed job can be retried or discarded')).toBeInTheDocument();
  });

  it('pauses a kind after confirming, shows it paused, and resumes it at once', async () => {
    let paused = false;
    const calls = mockApi({
      ...pageApi(),
      'GET /superadmin/jobs': () => ({
        status: 200,
        body: operations({ paused: paused ? [{ kind: 'send_mail', paused_at: '2026-11-23T10:00:00Z', paused_by: 'superadmin:1' }] : [] }),
      }),
      'POST /superadmin/jobs/kinds/:kind/pause': () => {
        paused = true;
        return { status: 204 };
      },
      'POST /superadmin/jobs/kinds/:kind/resume': () => {
        paused = false;
        return { status: 204 };
      },
    });
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Pause send_mail' }));
    // Asked first: nothing sent until confirmed.
    const dialog = screen.getByRole('dialog', { name: 'Pause send_mail' });
    expect(dialog).toHaveTextContent('No new send_mail job will start until you resume it.');
    expect(posts(calls)).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Pause' }));
    const row = (await screen.findByRole('button', { name: 'Resume send_mail' })).closest('tr')!;
    expect(within(row).getByText('Paused')).toBeInTheDocument();
    expect(posts(calls).map((c) => c.url)).toEqual(['/api/v1/superadmin/jobs/kinds/send_mail/pause']);
    // The other kind is not paused.
    expect(screen.getByRole('button', { name: 'Pause prune_jobs' })).toBeInTheDocument();

    await userEvent.click(within(row).getByRole('button', { name: 'Resume send_mail' }));
    expect(await screen.findByRole('button', { name: 'Pause send_mail' })).toBeInTheDocument();
    expect(screen.queryByText('Paused')).not.toBeInTheDocument();
    expect(posts(calls).map((c) => c.url)).toEqual([
      '/api/v1/superadmin/jobs/kinds/send_mail/pause',
      '/api/v1/superadmin/jobs/kinds/send_mail/resume',
    ]);
  });

  it('lists the jobs of the chosen state and kind, a page at a time, the filter in the URL', async () => {
    const calls = mockApi({
      ...pageApi(),
      'GET /superadmin/jobs/list': (call) => {
        const q = new URL(call.url, 'http://x').searchParams;
        const state = q.get('state') ?? '';
        return { status: 200, body: pageOf([jobRow(`01${state.toUpperCase()}`, { state })], 60, Number(q.get('page') ?? 1)) };
      },
    });
    const { router } = renderPage();
    expect(await screen.findByRole('link', { name: '01QUEUED' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Queued' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByText('60 jobs')).toBeInTheDocument();
    expect(listQueries(calls)[0]).toBe('state=queued&page=1&per_page=25');

    await userEvent.click(screen.getByRole('tab', { name: 'Failed' }));
    expect(await screen.findByRole('link', { name: '01FAILED' })).toBeInTheDocument();
    await userEvent.selectOptions(screen.getByLabelText('Job kind'), 'send_mail');
    await waitFor(() => expect(listQueries(calls)).toContain('state=failed&kind=send_mail&page=1&per_page=25'));
    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(listQueries(calls)).toContain('state=failed&kind=send_mail&page=2&per_page=25'));
    expect(router.state.location.search).toBe('?state=failed&kind=send_mail&page=2');

    // Another state starts again at page 1 and keeps the kind.
    await userEvent.click(screen.getByRole('tab', { name: 'Done' }));
    await waitFor(() => expect(listQueries(calls).at(-1)).toBe('state=done&kind=send_mail&page=1&per_page=25'));
    await userEvent.selectOptions(screen.getByLabelText('Job kind'), '');
    await waitFor(() => expect(listQueries(calls).at(-1)).toBe('state=done&page=1&per_page=25'));
  });

  it('bulk retries the filtered set after confirming how many jobs it takes, and says how many changed', async () => {
    const calls = mockApi({
      ...pageApi(),
      'GET /superadmin/jobs/list': { status: 200, body: pageOf([jobRow('01F1', { state: 'failed', attempts: 3 })], 3) },
      'POST /superadmin/jobs/bulk': { status: 200, body: { count: 3 } },
    });
    renderPage('/superadmin/jobs?state=failed&kind=send_mail');
    expect(await screen.findByText('3 jobs')).toBeInTheDocument();
    // Failed jobs can be retried or discarded, both of the whole filter.
    expect(screen.getByRole('button', { name: 'Discard all' })).toBeEnabled();
    await userEvent.click(screen.getByRole('button', { name: 'Retry all' }));
    const dialog = screen.getByRole('dialog', { name: 'Retry all' });
    expect(dialog).toHaveTextContent('The 3 failed send_mail jobs will be queued again to run now.');
    expect(posts(calls)).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Retry 3 jobs' }));
    expect(await screen.findByText('3 jobs queued again')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    const sent = posts(calls);
    expect(sent.map((c) => c.url)).toEqual(['/api/v1/superadmin/jobs/bulk']);
    expect(JSON.parse(sent[0].init.body!)).toEqual({ action: 'retry', state: 'failed', kind: 'send_mail', expected: 3 });
  });

  it('shows the refusal when the set changed since it was counted, and offers no bulk action on done jobs', async () => {
    const calls = mockApi({
      ...pageApi(),
      'GET /superadmin/jobs/list': (call) => ({
        status: 200,
        body: call.url.includes('state=done') ? pageOf([jobRow('01D', { state: 'done' })], 1) : pageOf([jobRow('01X', { state: 'discarded' })], 1),
      }),
      'POST /superadmin/jobs/bulk': { status: 409, body: { error: { code: 'conflict', message: 'The jobs changed: 2 match now. Look again and confirm.' } } },
    });
    renderPage('/superadmin/jobs?state=discarded');
    await screen.findByText('1 job');
    // Discarded jobs are retried (revived), not discarded again.
    expect(screen.queryByRole('button', { name: 'Discard all' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Retry all' }));
    expect(screen.getByRole('dialog')).toHaveTextContent('The 1 discarded job of every kind will be queued again to run now.');
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Retry 1 job' }));
    expect(await screen.findByText('The jobs changed: 2 match now. Look again and confirm.')).toBeInTheDocument();
    expect(JSON.parse(posts(calls)[0].init.body!)).toEqual({ action: 'retry', state: 'discarded', expected: 1 });

    await userEvent.click(screen.getByRole('tab', { name: 'Done' }));
    await screen.findByRole('link', { name: '01D' });
    expect(screen.queryByRole('button', { name: 'Retry all' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Discard all' })).not.toBeInTheDocument();
  });

  it("opens a job's detail from the list: attempts as n of max, each attempt, the next run, and Retry", async () => {
    const calls = mockApi({
      ...pageApi(),
      'GET /superadmin/jobs/list': { status: 200, body: pageOf([jobRow('01RETRY', { state: 'retrying', attempts: 2, max_attempts: 1 })]) },
      'GET /superadmin/jobs/:id': {
        status: 200,
        body: jobDetail('01RETRY', {
          state: 'retrying',
          // More attempts counted than allowed (a lost worker): never "2 of 1".
          attempts: 2,
          max_attempts: 1,
          last_error: 'SMTP: timed out',
          next_run_at: '2026-11-23T10:05:00Z',
          args: { user_id: 42 },
          history: [
            { attempt: 1, started_at: '2026-11-23T10:00:00Z', finished_at: '2026-11-23T10:00:01Z', duration_ms: 1250, outcome: 'lost', error: null, worker: 'box-11' },
            { attempt: 2, started_at: '2026-11-23T10:01:00Z', finished_at: '2026-11-23T10:01:00Z', duration_ms: 80, outcome: 'retrying', error: 'SMTP: timed out', worker: 'box-12' },
          ],
        }),
      },
      'POST /superadmin/jobs/:id/retry': { status: 202 },
    });
    const { router } = renderPage('/superadmin/jobs?state=retrying');
    expect(await screen.findByText('2 of 2')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('link', { name: '01RETRY' }));
    expect(router.state.location.search).toBe('?state=retrying&job=01RETRY');
    const dialog = await screen.findByRole('dialog', { name: 'send_mail job' });
    await within(dialog).findByText('Retrying');
    expect(within(dialog).queryByText(/2 of 1/)).not.toBeInTheDocument();
    const attempts = within(dialog).getAllByRole('row').slice(1);
    expect(attempts.map((r) => within(r).getAllByRole('cell')[0].textContent)).toEqual(['1 of 2', '2 of 2']);
    expect(attempts[0]).toHaveTextContent('1.3 s');
    expect(attempts[0]).toHaveTextContent('Worker lost');
    expect(attempts[0]).toHaveTextContent('box · 11');
    expect(attempts[1]).toHaveTextContent('80 ms');
    expect(attempts[1]).toHaveTextContent('Failed, retried');
    expect(attempts[1]).toHaveTextContent('SMTP: timed out');
    expect(within(dialog).getByText('Next attempt').nextElementSibling).toHaveTextContent('Mon Nov 23 2026 15:35:00 IST');
    expect(within(dialog).getByText(/"user_id": 42/)).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Revive' })).not.toBeInTheDocument();

    await userEvent.click(within(dialog).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Job queued again')).toBeInTheDocument();
    expect(posts(calls).map((c) => c.url)).toEqual(['/api/v1/superadmin/jobs/01RETRY/retry']);

    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(router.state.location.search).toBe('?state=retrying');
  });

  it('revives a discarded job from its detail, and discards a failed one only after confirming', async () => {
    const calls = mockApi({
      ...pageApi(),
      'GET /superadmin/jobs/:id': (call) => ({
        status: 200,
        body: call.url.endsWith('01GONE')
          ? jobDetail('01GONE', { state: 'discarded', attempts: 3, max_attempts: 3 })
          : jobDetail('01BAD', { state: 'failed', attempts: 3, max_attempts: 3 }),
      }),
      'POST /superadmin/jobs/:id/revive': { status: 202 },
      'POST /superadmin/jobs/:id/discard': { status: 204 },
    });
    renderPage('/superadmin/jobs?job=01GONE');
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByText('Discarded');
    expect(within(dialog).queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Revive' }));
    expect(await screen.findByText('Job queued again')).toBeInTheDocument();
    expect(posts(calls).map((c) => c.url)).toEqual(['/api/v1/superadmin/jobs/01GONE/revive']);

    renderPage('/superadmin/jobs?job=01BAD');
    const failed = (await screen.findAllByRole('dialog')).at(-1)!;
    await userEvent.click(await within(failed).findByRole('button', { name: 'Discard' }));
    expect(within(failed).getByText('The send_mail job will not run again.')).toBeInTheDocument();
    expect(posts(calls)).toHaveLength(1);
    await userEvent.click(within(failed).getByRole('button', { name: 'Discard' }));
    expect(await screen.findByText('Job discarded')).toBeInTheDocument();
    expect(posts(calls).map((c) => c.url).at(-1)).toBe('/api/v1/superadmin/jobs/01BAD/discard');
  });

  it("shows the periodic jobs, each worker's running jobs and the last hour's throughput in words", async () => {
    const now = Date.now();
    const minute = (ago: number) => new Date(Math.floor(now / 60_000) * 60_000 - ago * 60_000).toISOString();
    mockApi({
      ...pageApi(
        operations({
          periodic: [
            { kind: 'prune_jobs', schedule: '0 17 * * * *', last_job_id: '01PRUNE', last_state: 'done', last_run_at: '2026-11-23T09:17:00Z', next_run_at: '2026-11-23T10:17:00Z' },
            { kind: 'settle_pending', schedule: '0 */5 * * * *', last_job_id: null, last_state: null, last_run_at: null, next_run_at: '2026-11-23T10:05:00Z' },
          ],
          running: [
            { id: '01RUNA', kind: 'send_mail', worker: 'box-12', started_at: '2026-11-23T10:00:00Z' },
            { id: '01RUNB', kind: 'export_csv', worker: 'box-11', started_at: '2026-11-23T10:00:01Z' },
            { id: '01RUNC', kind: 'send_mail', worker: 'box-12', started_at: '2026-11-23T10:00:02Z' },
          ],
        }),
      ),
      'GET /superadmin/jobs/throughput': {
        status: 200,
        body: {
          minutes: [
            { minute: minute(30), kind: 'send_mail', done: 5, failed: 1 },
            { minute: minute(2), kind: 'send_mail', done: 7, failed: 0 },
            { minute: minute(2), kind: 'prune_jobs', done: 1, failed: 2 },
          ],
        },
      },
    });
    renderPage();
    const prune = (await screen.findByText('0 17 * * * *')).closest('tr')!;
    expect(within(prune).getByRole('link', { name: 'Done: open the last prune_jobs job' })).toHaveAttribute('href', '/superadmin/jobs?job=01PRUNE');
    expect(within(screen.getByText('0 */5 * * * *').closest('tr')!).getByText('Not run yet')).toBeInTheDocument();

    // Grouped by worker, in the workers' order; each worker's count in the workers table.
    const running = screen.getByRole('link', { name: '01RUNA' }).closest('tbody')!;
    expect(within(running).getAllByRole('link').map((a) => a.textContent)).toEqual(['01RUNB', '01RUNA', '01RUNC']);
    expect(within(running).getAllByText('box · 12')).toHaveLength(2);

    expect(await screen.findByText('Last hour, all kinds: 13 done, 3 failed.')).toBeInTheDocument();
    await userEvent.selectOptions(screen.getByLabelText('Job kind in the chart'), 'send_mail');
    expect(screen.getByText('Last hour, send_mail: 12 done, 1 failed.')).toBeInTheDocument();
    expect(screen.getByRole('figure', { name: 'Done and failed per minute, send_mail' })).toBeInTheDocument();
  });
});
