import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setPartnerToken } from '@/lib/auth';
import { partnerJwt } from '@/testing/jwt';
import { mockApi, renderRoutes } from '@/testing/test-utils';
import { WalletCard } from './wallet-card';

const owner = { scope: 'user' as const, id: 7 };
const render = () => renderRoutes([{ path: '/', element: <WalletCard owner={owner} kind="api" balancePaise={10000} /> }], '/');
const bodies = (calls: { init: RequestInit }[]) => calls.filter((c) => c.init.method === 'POST').map((c) => JSON.parse(String(c.init.body)));

describe('WalletCard', () => {
  beforeEach(() => setPartnerToken(partnerJwt()));

  it('sends the whole rupees typed as integer paise with the entry type', async () => {
    const calls = mockApi({ 'POST /partner/users/:id/wallets/:kind/entries': { status: 200, body: { entry_id: 1, balance_paise: 22500 } } });
    render();
    await userEvent.type(screen.getByLabelText('Amount (₹)'), '125');
    await userEvent.click(screen.getByRole('button', { name: 'Add Credits' }));
    expect(await screen.findByText('Credits added successfully')).toBeInTheDocument();
    expect(calls[0].url).toBe('/api/v1/partner/users/7/wallets/api/entries');
    const [body] = bodies(calls);
    expect(body).toMatchObject({ type: 'credit', amount_paise: 12500 });
    expect(body.idempotency_key).toMatch(/^[0-9a-f-]{36}$/);
    expect(screen.getByLabelText('Amount (₹)')).toHaveValue('');
  });

  it('checks the amount before asking the server', async () => {
    const calls = mockApi({ 'POST /partner/users/:id/wallets/:kind/entries': { status: 200, body: {} } });
    render();
    await userEvent.click(screen.getByRole('button', { name: 'Deduct Credits' }));
    expect(screen.getByText('Amount is required')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Amount (₹)'), '0');
    await userEvent.click(screen.getByRole('button', { name: 'Deduct Credits' }));
    expect(screen.getByText('Amount must be greater than zero')).toBeInTheDocument();
    await userEvent.clear(screen.getByLabelText('Amount (₹)'));
    await userEvent.type(screen.getByLabelText('Amount (₹)'), '125.50');
    await userEvent.click(screen.getByRole('button', { name: 'Add Credits' }));
    expect(screen.getByText('Enter the amount in whole rupees, without paise')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it("shows the server's 402 message; a retry of the same request reuses its key, the next movement gets a new one", async () => {
    let n = 0;
    const calls = mockApi({
      'POST /partner/users/:id/wallets/:kind/entries': () => {
        n += 1;
        if (n === 1) return { status: 402, body: { error: { code: 'insufficient_balance', message: 'Insufficient balance', fields: {} } } };
        return { status: 200, body: { entry_id: n, balance_paise: 5000 } };
      },
    });
    render();
    const amount = screen.getByLabelText('Amount (₹)');
    await userEvent.type(amount, '50');
    await userEvent.click(screen.getByRole('button', { name: 'Deduct Credits' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Error! Insufficient balance');
    await userEvent.click(screen.getByRole('button', { name: 'Deduct Credits' }));
    expect(await screen.findByText('Credits deducted successfully')).toBeInTheDocument();
    await userEvent.type(amount, '50');
    await userEvent.click(screen.getByRole('button', { name: 'Deduct Credits' }));
    await waitFor(() => expect(bodies(calls)).toHaveLength(3));
    const [a, b, c] = bodies(calls);
    expect(b.idempotency_key).toBe(a.idempotency_key);
    expect(c.idempotency_key).not.toBe(b.idempotency_key);
    expect(c).toMatchObject({ type: 'debit', amount_paise: 5000 });
  });
});
