import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi, renderRoutes } from '@/testing/test-utils';
import { ExportRequests } from './export-requests';

const row = (id: number, over: object) => ({
  id,
  kind: 'api_logs',
  created_at: '2026-11-23T10:00:00Z',
  from: '2026-11-01',
  to: '2026-11-20',
  user_id: 7,
  job_id: `J${id}`,
  error: null,
  total_records: null,
  rows_written: 0,
  urls: [],
  status: 'queued',
  ...over,
});
const page = (items: unknown[]) => ({ items, page: 1, per_page: 50, total: items.length, pages: 1 });

describe('ExportRequests', () => {
  it('lists the requests with the spec’s states', async () => {
    const calls = mockApi({
      'GET /exports': {
        status: 200,
        body: page([
          row(3, { status: 'running', rows_written: 2500 }),
          row(2, { status: 'completed', total_records: 0, rows_written: 0 }),
          row(1, { status: 'completed', total_records: 1234, rows_written: 1234, urls: ['/files/exports/1/x.csv'] }),
        ]),
      },
    });
    renderRoutes([{ path: '/', element: <ExportRequests kind="api_logs" userId={7} /> }], '/');
    expect(await screen.findByText('In process')).toBeInTheDocument();
    for (const h of ['Created At', 'From Date', 'To Date', 'Total Records', 'Status', 'Links']) {
      expect(screen.getByRole('columnheader', { name: h })).toBeInTheDocument();
    }
    expect(screen.getByText('Link will be available soon')).toBeInTheDocument();
    expect(screen.getByText(/2,500 rows written/)).toBeInTheDocument();
    expect(screen.getByText('No records')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Download CSV' })).toHaveAttribute('href', '/files/exports/1/x.csv');
    expect(screen.getByText('1,234')).toBeInTheDocument();
    expect(calls[0].url).toContain('kind=api_logs');
    expect(calls[0].url).toContain('user_id=7');
  });

  it("requests an export and says 'CSV is ready to download' when it is done", async () => {
    let listed: unknown[] = [];
    const calls = mockApi({
      'GET /exports': () => ({ status: 200, body: page(listed) }),
      'POST /exports': () => {
        listed = [row(5, { status: 'completed', total_records: 3, rows_written: 3, urls: ['/files/exports/5/x.csv'] })];
        return { status: 202, body: { export_id: 5, job_id: 'J5' } };
      },
      'GET /exports/5': { status: 200, body: row(5, { status: 'completed', total_records: 3, rows_written: 3, urls: ['/files/exports/5/x.csv'] }) },
    });
    renderRoutes([{ path: '/', element: <ExportRequests kind="api_logs" userId={7} /> }], '/');
    expect(await screen.findByText('No requests found')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Request export' }));
    expect(await screen.findByText('CSV is ready to download')).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Download CSV' })).toBeInTheDocument();
    const post = calls.find((c) => c.init.method === 'POST')!;
    expect(JSON.parse(post.init.body!)).toMatchObject({ kind: 'api_logs', user_id: 7 });
  });
});
