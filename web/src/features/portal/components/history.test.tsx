import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi, renderRoutes } from '@/testing/test-utils';
import { History, checkRange } from './history';

const txn = { id: 4202, created_at: '2026-11-24T10:00:00Z', service: 'pan_verification', pid: 'PID1001', status_code: 200, status: 'success', amount_type: 'debit', amount_paise: 800, net_paise: 800, balance_paise: 11619600 };
const log = { id: 9, created_at: '2026-11-24T10:00:00Z', service: 'pan_verification', pid: 'PID1001', vid: 'VID42', status_code: 422, amount_paise: 0, transaction_id: 4202 };
const page = (items: unknown[]) => ({ items, page: 1, per_page: 50, total: items.length, pages: items.length ? 1 : 0 });

function render(path = '/') {
  const calls = mockApi({
    'GET /me/api-transactions': { status: 200, body: page([txn]) },
    'GET /me/api-logs': { status: 200, body: page([log]) },
  });
  const exportButton = vi.fn((kind: string, from?: string, to?: string) => <p>export {kind} {from ?? '-'} {to ?? '-'}</p>);
  const utils = renderRoutes([{ path: '/', element: <History exportButton={exportButton} /> }], path);
  return { ...utils, calls, exportButton };
}

describe('History', () => {
  it("lists the user's transactions with what it paid and its balance after", async () => {
    render();
    expect(await screen.findByRole('cell', { name: '4202' })).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: '₹8.00' })).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: '₹1,16,196.00' })).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: 'Success' })).toBeInTheDocument();
    expect(screen.getByText('export api_transactions - -')).toBeInTheDocument();
  });

  it('filters by date through the URL, checks the range first, and exports the filtered range', async () => {
    const { calls, router } = render();
    await screen.findByRole('cell', { name: '4202' });
    await userEvent.type(screen.getByLabelText('From'), '2026-11-20');
    await userEvent.type(screen.getByLabelText('To'), '2026-11-10');
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(screen.getByText('From date cannot be after To date')).toBeInTheDocument();
    await userEvent.clear(screen.getByLabelText('To'));
    await userEvent.type(screen.getByLabelText('To'), '2026-11-24');
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(router.state.location.search).toBe('?from=2026-11-20&to=2026-11-24'));
    await waitFor(() => expect(calls.some((c) => c.url === '/api/v1/me/api-transactions?from=2026-11-20&to=2026-11-24&page=1&per_page=50')).toBe(true));
    expect(screen.getByText('export api_transactions 2026-11-20 2026-11-24')).toBeInTheDocument();
  });

  it('shows the logs on their tab, with the status code', async () => {
    render('/?tab=logs');
    expect(await screen.findByRole('cell', { name: 'VID42' })).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: '422' })).toBeInTheDocument();
    expect(screen.getByText('export api_logs - -')).toBeInTheDocument();
  });

  it('says so when there is nothing', async () => {
    mockApi({ 'GET /me/api-transactions': { status: 200, body: page([]) } });
    renderRoutes([{ path: '/', element: <History exportButton={() => null} /> }], '/');
    expect(await screen.findByText('No transactions available')).toBeInTheDocument();
  });

  it('checks the range', () => {
    expect(checkRange({ from: '2026-11-02', to: '2026-11-01' })).toEqual({ from: 'From date cannot be after To date' });
    expect(checkRange({ from: '', to: '2026-11-01' })).toEqual({});
  });
});
