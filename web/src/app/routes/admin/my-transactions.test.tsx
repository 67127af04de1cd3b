import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi, renderRoutes } from '@/testing/test-utils';
import MyTransactionsPage from './my-transactions';
import UserTransactionsPage from './user-transactions';

const page = (items: unknown[], total = items.length) => ({ items, page: 1, per_page: 50, total, pages: Math.max(1, Math.ceil(total / 50)) });
const txn = {
  id: 9, created_at: '2026-11-01T10:00:00Z', user_id: 12, email: 'asha@example.in', service: 'pan_check', pid: 'PID9', status_code: 502, status: 'refunded',
  amount_type: 'debit', amount_paise: 250, user_amount_paise: 300, remaining_paise: 1000, partner_remaining_paise: 4960,
};

describe('My Transactions', () => {
  it("shows the partner's side of each call, and the filter goes to the URL and the request", async () => {
    const calls = mockApi({ 'GET /partner/api-transactions': { status: 200, body: page([txn], 60) } });
    const { router } = renderRoutes([{ path: '/my-transactions', element: <MyTransactionsPage /> }], '/my-transactions');
    expect(await screen.findByText('asha@example.in')).toBeInTheDocument();
    expect(screen.getByText('₹2.50')).toBeInTheDocument();
    expect(screen.getByText('₹49.60')).toBeInTheDocument();
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

describe('User Transactions', () => {
  it("shows the users' side and has four tabs", async () => {
    mockApi({
      'GET /partner/api-transactions': { status: 200, body: page([txn]) },
      'GET /partner/api-logs': { status: 200, body: page([]) },
    });
    renderRoutes([{ path: '/user-transactions', element: <UserTransactionsPage /> }], '/user-transactions');
    expect(await screen.findByText('₹3.00')).toBeInTheDocument();
    expect(screen.getByText('₹10.00')).toBeInTheDocument();
    for (const t of ['API transactions', 'API logs', 'Product transactions', 'Product logs']) expect(screen.getByRole('tab', { name: t })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('tab', { name: 'API logs' }));
    expect(await screen.findByText('No logs available')).toBeInTheDocument();
  });
});
