import { screen } from '@testing-library/react';
import { mockApi, renderRoutes } from '@/testing/test-utils';
import { UserLogsTable } from './user-logs-table';

const page = (items: unknown[], total = items.length) => ({ items, page: 1, per_page: 50, total, pages: Math.max(1, Math.ceil(total / 50)) });

describe('UserLogsTable', () => {

  it('lists API calls with their status codes, 200 green and others red', async () => {
    const calls = mockApi({ 'GET /partner/users/7/api-logs': {
      status: 200,
      body: page(
        [
          { id: 2, created_at: '2026-11-02T10:00:00Z', user_id: 7, service: 'pan_verification', pid: 'PID1001', vid: 'V2', vpid: 'P2', status_code: 404, amount_paise: 0 },
          { id: 1, created_at: '2026-11-01T10:00:00Z', user_id: 7, service: 'ifsc_lookup', pid: 'PID1040', vid: 'V1', vpid: 'P1', status_code: 200, amount_paise: 12345600 },
        ],
        120,
      ),
    } });
    renderRoutes([{ path: '/', element: <UserLogsTable userId={7} kind="api" /> }], '/');
    expect(await screen.findByText('pan_verification')).toBeInTheDocument();
    for (const h of ['#', 'Date', 'Services', 'Status Code', 'Amount']) expect(screen.getByRole('columnheader', { name: h })).toBeInTheDocument();
    expect(screen.getByText('404')).toHaveClass('debit');
    expect(screen.getByText('200')).toHaveClass('credit');
    expect(screen.getByText('₹1,23,456.00')).toBeInTheDocument();
    expect(screen.getByText('1 of 3 pages')).toBeInTheDocument();
    expect(calls[0].url).toContain('/partner/users/7/api-logs');
    expect(calls[0].url).toContain('per_page=50');
  });

  it("shows product logs with a Description column, and 'No logs available' when empty", async () => {
    mockApi({ 'GET /partner/users/7/product-logs': { status: 200, body: page([]) } });
    renderRoutes([{ path: '/', element: <UserLogsTable userId={7} kind="product" /> }], '/');
    expect(await screen.findByText('No logs available')).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Description' })).toBeInTheDocument();
  });
});
