import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi, renderRoutes } from '@/testing/test-utils';
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
});

describe('JobsPage', () => {
  it('shows the queue per kind, the failures and the workers', async () => {
    mockApi({ 'GET /superadmin/jobs': { status: 200, body: overview(true) } });
    renderRoutes([{ path: '/superadmin/jobs', element: <JobsPage /> }], '/superadmin/jobs');
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
      'GET /superadmin/jobs': () => ({ status: 200, body: overview(!retried) }),
      'POST /superadmin/jobs/:id/retry': () => {
        retried = true;
        return { status: 202 };
      },
    });
    renderRoutes([{ path: '/superadmin/jobs', element: <JobsPage /> }], '/superadmin/jobs');
    await userEvent.click(await screen.findByRole('button', { name: 'Retry job 01JOB' }));
    expect(await screen.findByText('Job queued again')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByText('No failed jobs')).toBeInTheDocument());
    expect(calls.some((c) => c.init.method === 'POST' && c.url === '/api/v1/superadmin/jobs/01JOB/retry')).toBe(true);
  });

  it('discards only after confirming, and shows a refusal', async () => {
    const calls = mockApi({
      'GET /superadmin/jobs': { status: 200, body: overview(true) },
      'POST /superadmin/jobs/:id/discard': { status: 409, body: { error: { code: 'conflict', message: 'Only a failed job can be retried or discarded' } } },
    });
    renderRoutes([{ path: '/superadmin/jobs', element: <JobsPage /> }], '/superadmin/jobs');
    await userEvent.click(await screen.findByRole('button', { name: 'Discard job 01JOB' }));
    expect(calls.filter((c) => c.init.method === 'POST')).toHaveLength(0);
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Discard' }));
    expect(await screen.findByText('Only a failed job can be retried or discarded')).toBeInTheDocument();
  });
});
