import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi, renderRoutes } from '@/testing/test-utils';
import MyTransactionsPage from './my-transactions';
import UserTransactionsPage from './user-transactions';

const page = (items: unknown[], total = items.length) => ({ items, page: 1, per_page: 50, total, pages: Math.max(1, Math.ceil(total / 50)) });
const txn = {
  id: 9, created_at: '2026-11-01T10:00:00Z', user_id: 12, email: 'asha@example.in', service: 'pan_check', pid: 'PID9', status_code: 502, status: 'refunded',
  amount_type: 'debit', amount_paise: 250, user_amount_paise: 300, net_paise: 0, user_net_paise: 0, remaining_paise: 1000, partner_remaining_paise: 4960,
};
const paid = { ...txn, id: 8, pid: 'PID8', status_code: 200, status: 'success', net_paise: 250, user_net_paise: 300, remaining_paise: 700, partner_remaining_paise: 4710 };

describe('My Transactions', () => {
  it("shows the partner's side of each call, and the filter goes to the URL and the request", async () => {
    const calls = mockApi({ 'GET /partner/api-transactions': { status: 200, body: page([txn, paid], 60) } });
    const { router } = renderRoutes([{ path: '/my-transactions', element: <MyTransactionsPage /> }], '/my-transactions');
    expect((await screen.findAllByText('asha@example.in')).length).toBe(2);
    // The refunded call nets to nothing, with the balance after its refund; the paid one costs ₹2.50.
    expect(screen.getByText('₹0.00')).toBeInTheDocument();
    expect(screen.getByText('₹49.60')).toBeInTheDocument();
    expect(screen.getByText('₹2.50')).toBeInTheDocument();
    expect(screen.getByText('₹47.10')).toBeInTheDocument();
    expect(screen.getByText('502 Refunded')).toHaveClass('debit');
    expect(screen.getByText('1 of 2')).toBeInTheDocument();

    await userEvent.type(screen.getByLabelText('User ID'), '12x');
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(screen.getByText('User ID contains only numeric values.')).toBeInTheDocument();
    await userEvent.clear(screen.getByLabelText('User ID'));
    await userEvent.type(screen.getByLabelText('User ID'), '12');
    await userEvent.type(screen.getByLabelText('Services'), 'pan');
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(router.state.location.search).toBe('?user_id=12&services=pan'));
    await waitFor(() => expect(calls.at(-1)?.url).toContain('user_id=12'));
    expect(calls.at(-1)?.url).toContain('services=pan');

    await userEvent.click(screen.getByRole('button', { name: 'Clear' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(screen.getByLabelText('User ID')).toHaveValue('');
  });

  it("says 'No transactions available' when nothing matches", async () => {
    mockApi({ 'GET /partner/product-transactions': { status: 200, body: page([]) } });
    renderRoutes([{ path: '/my-transactions', element: <MyTransactionsPage /> }], '/my-transactions?tab=product&date=2026-11-01');
    expect(await screen.findByText('No transactions available')).toBeInTheDocument();
    expect(screen.getByLabelText('Date')).toHaveValue('2026-11-01');
  });
});

describe('My Transactions, Wallet transactions', () => {
  it('filters the partner’s wallet movements by wallet, type and days, through the URL', async () => {
    const calls = mockApi({ 'GET /partner/wallet-entries': { status: 200, body: page([]) } });
    const { router } = renderRoutes([{ path: '/my-transactions', element: <MyTransactionsPage /> }], '/my-transactions?tab=wallet');
    expect(await screen.findByText('No transactions available')).toBeInTheDocument();
    await userEvent.selectOptions(screen.getByLabelText('Wallet'), 'product');
    await userEvent.selectOptions(screen.getByLabelText('Type'), 'credit');
    await userEvent.type(screen.getByLabelText('From'), '2026-11-01');
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(router.state.location.search).toBe('?tab=wallet&kind=product&type=credit&from=2026-11-01'));
    await waitFor(() => expect(calls.at(-1)?.url).toContain('kind=product'));
    expect(calls.at(-1)?.url).toContain('type=credit');
    expect(calls.at(-1)?.url).toContain('from=2026-11-01');
  });
});

describe('User Transactions', () => {
  it("shows the users' side and has four tabs", async () => {
    mockApi({
      'GET /partner/api-transactions': { status: 200, body: page([txn]) },
      'GET /partner/api-logs': { status: 200, body: page([]) },
    });
    renderRoutes([{ path: '/user-transactions', element: <UserTransactionsPage /> }], '/user-transactions');
    expect(await screen.findByText('₹0.00')).toBeInTheDocument();
    expect(screen.getByText('₹10.00')).toBeInTheDocument();
    for (const t of ['API transactions', 'API logs', 'Product transactions', 'Product logs']) expect(screen.getByRole('tab', { name: t })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('tab', { name: 'API logs' }));
    expect(await screen.findByText('No logs available')).toBeInTheDocument();
  });
});

describe('Export to CSV of a filtered screen', () => {
  it("asks for that screen's rows: its filter, its day and its side of the money", async () => {
    const calls = mockApi({
      'GET /partner/api-transactions': { status: 200, body: page([paid]) },
      'POST /exports': { status: 202, body: { export_id: 4, job_id: 'j4' } },
      'GET /exports/4': { status: 200, body: { id: 4, kind: 'api_transactions', created_at: '2026-11-01T10:00:00Z', from: '2026-11-01', to: '2026-11-01', user_id: 12, status: 'queued', total_records: null, rows_written: 0, urls: [], job_id: 'j4', error: null } },
    });
    renderRoutes([{ path: '/my-transactions', element: <MyTransactionsPage /> }], '/my-transactions?user_id=12&email=asha&services=pan&date=2026-11-01');
    await screen.findByText('₹2.50');
    await userEvent.click(screen.getByRole('button', { name: 'Export to CSV' }));
    await userEvent.click(screen.getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(calls.some((c) => c.init.method === 'POST')).toBe(true));
    const post = calls.find((c) => c.init.method === 'POST');
    expect(JSON.parse(post?.init.body ?? '{}')).toEqual({ kind: 'api_transactions', user_id: 12, ledger: false, side: 'partner', email: 'asha', services: 'pan', from: '2026-11-01', to: '2026-11-01' });
  });

  const queued = (kind: string) => ({
    'POST /exports': { status: 202, body: { export_id: 5, job_id: 'j5' } },
    'GET /exports/5': { status: 200, body: { id: 5, kind, created_at: '2026-11-01T10:00:00Z', from: '2026-11-01', to: '2026-11-02', user_id: null, status: 'queued', total_records: null, rows_written: 0, urls: [], job_id: 'j5', error: null } },
  });

  it("the wallet transactions' export carries the Wallet and Type filters and their days", async () => {
    const calls = mockApi({ 'GET /partner/wallet-entries': { status: 200, body: page([]) }, ...queued('wallet_entries') });
    renderRoutes([{ path: '/my-transactions', element: <MyTransactionsPage /> }], '/my-transactions?tab=wallet&kind=product&type=debit&from=2026-11-01&to=2026-11-02');
    await userEvent.click(await screen.findByRole('button', { name: 'Export to CSV' }));
    await userEvent.click(screen.getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(calls.some((c) => c.init.method === 'POST')).toBe(true));
    const post = calls.find((c) => c.init.method === 'POST');
    expect(JSON.parse(post?.init.body ?? '{}')).toEqual({ kind: 'wallet_entries', wallet: 'product', type: 'debit', from: '2026-11-01', to: '2026-11-02' });
  });

  it("the API logs' export carries the Status Code filter", async () => {
    const calls = mockApi({ 'GET /partner/api-logs': { status: 200, body: page([]) }, ...queued('api_logs') });
    renderRoutes([{ path: '/user-transactions', element: <UserTransactionsPage /> }], '/user-transactions?tab=api-logs&status_code=402&date=2026-11-01');
    await userEvent.click(await screen.findByRole('button', { name: 'Export to CSV' }));
    await userEvent.click(screen.getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(calls.some((c) => c.init.method === 'POST')).toBe(true));
    const post = calls.find((c) => c.init.method === 'POST');
    expect(JSON.parse(post?.init.body ?? '{}')).toEqual({ kind: 'api_logs', ledger: false, side: 'user', status_code: 402, from: '2026-11-01', to: '2026-11-01' });
  });
});
