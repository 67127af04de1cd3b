import { screen, within } from '@testing-library/react';
import { mockApi, renderRoutes } from '@/testing/test-utils';
import { UserTransactionsTable } from './user-transactions-table';

const page = (items: unknown[], total = items.length) => ({ items, page: 1, per_page: 50, total, pages: Math.max(1, Math.ceil(total / 50)) });
const entry = (over: Record<string, unknown>) => ({
  id: 1, created_at: '2026-11-01T10:00:00Z', type: 'debit', amount_paise: 300, balance_after_paise: 0, reason: 'api_call', reference: null,
  transaction_id: null, pid: null, service: null, status: null, status_code: null, ...over,
});

describe('UserTransactionsTable', () => {
  it("is the wallet's ledger: manual entries, a charged call, a refunded call and its refund, with the balance after each", async () => {
    const calls = mockApi({
      'GET /partner/users/7/wallets/api/ledger': {
        status: 200,
        body: page(
          [
            entry({ id: 5, type: 'debit', amount_paise: 20000, balance_after_paise: 79700, reason: 'manual' }),
            entry({ id: 4, type: 'credit', amount_paise: 300, balance_after_paise: 99700, reason: 'refund', reference: 'TXN00000002', transaction_id: 2, pid: 'PID2', service: 'gst_check', status: 'refunded', status_code: 502 }),
            entry({ id: 3, type: 'debit', amount_paise: 300, balance_after_paise: 99400, reference: 'TXN00000002', transaction_id: 2, pid: 'PID2', service: 'gst_check', status: 'refunded', status_code: 502 }),
            entry({ id: 2, type: 'debit', amount_paise: 300, balance_after_paise: 99700, reference: 'TXN00000001', transaction_id: 1, pid: 'PID1', service: 'pan_check', status: 'success', status_code: 200 }),
            entry({ id: 1, type: 'credit', amount_paise: 100000, balance_after_paise: 100000, reason: 'manual' }),
          ],
          120,
        ),
      },
    });
    renderRoutes([{ path: '/', element: <UserTransactionsTable userId={7} kind="api" /> }], '/');
    expect(await screen.findByText('Manual credit')).toBeInTheDocument();
    for (const h of ['#', 'Date', 'PID', 'Services', 'Amount', 'Balance', 'Type', 'Status']) expect(screen.getByRole('columnheader', { name: h })).toBeInTheDocument();
    const rows = screen.getAllByRole('row').slice(1);
    expect(within(rows[0]).getByText('Manual debit')).toBeInTheDocument();
    expect(within(rows[0]).getByText('₹797.00')).toBeInTheDocument();
    expect(within(rows[1]).getByText('Refund')).toBeInTheDocument();
    expect(within(rows[1]).getByText('Credit')).toHaveClass('credit');
    expect(within(rows[2]).getByText('Refunded')).toHaveClass('status-bad');
    expect(within(rows[2]).getByText('Debit')).toHaveClass('debit');
    expect(within(rows[3]).getByText('Success')).toBeInTheDocument();
    expect(within(rows[4]).getByText('₹1,000.00', { selector: 'td' })).toBeInTheDocument();
    expect(screen.getByText('1 of 3 pages')).toBeInTheDocument();
    expect(calls[0].url).toContain('per_page=50');
  });

  it("says 'No transactions available' for an empty wallet", async () => {
    mockApi({ 'GET /partner/users/7/wallets/product/ledger': { status: 200, body: page([]) } });
    renderRoutes([{ path: '/', element: <UserTransactionsTable userId={7} kind="product" /> }], '/');
    expect(await screen.findByText('No transactions available')).toBeInTheDocument();
  });
});
