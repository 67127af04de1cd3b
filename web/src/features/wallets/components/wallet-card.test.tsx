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

  it('sends the rupees typed as integer paise with the entry type, once confirmed', async () => {
    const calls = mockApi({ 'POST /partner/users/:id/wallets/:kind/entries': { status: 200, body: { entry_id: 1, balance_paise: 22500 } } });
    render();
    await userEvent.type(screen.getByLabelText('Amount (₹)'), '125');
    await userEvent.click(screen.getByRole('button', { name: 'Add Credits' }));
    // Nothing moves before the confirmation, which names the amount and the wallet.
    expect(await screen.findByText('Add ₹125.00 to the API Wallet?')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(calls).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: 'Add Credits' }));
    await userEvent.click(screen.getByRole('button', { name: 'Add' }));
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
    const retype = async (text: string, button: 'Add Credits' | 'Deduct Credits') => {
      await userEvent.clear(screen.getByLabelText('Amount (₹)'));
      await userEvent.type(screen.getByLabelText('Amount (₹)'), text);
      await userEvent.click(screen.getByRole('button', { name: button }));
    };
    await retype('1.234', 'Add Credits');
    expect(screen.getByText('Enter the amount in rupees with at most 2 decimals (paise)')).toBeInTheDocument();
    await retype('99999999999999999999', 'Add Credits');
    expect(screen.getByText('Amount is too large')).toBeInTheDocument();
    await retype('1000000.01', 'Add Credits');
    expect(screen.getByText('A credit can be at most ₹10,00,000.00 at a time')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('deducts paise: ₹0.69 is 69 paise', async () => {
    const calls = mockApi({ 'POST /partner/users/:id/wallets/:kind/entries': { status: 200, body: { entry_id: 1, balance_paise: 9931 } } });
    render();
    await userEvent.type(screen.getByLabelText('Amount (₹)'), '0.69');
    await userEvent.click(screen.getByRole('button', { name: 'Deduct Credits' }));
    expect(await screen.findByText('Deduct ₹0.69 from the API Wallet?')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Deduct' }));
    expect(await screen.findByText('Credits deducted successfully')).toBeInTheDocument();
    expect(bodies(calls)[0]).toMatchObject({ type: 'debit', amount_paise: 69 });
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
    await userEvent.click(await screen.findByRole('button', { name: 'Deduct' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Error! Insufficient balance');
    await userEvent.click(screen.getByRole('button', { name: 'Deduct Credits' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Deduct' }));
    expect(await screen.findByText('Credits deducted successfully')).toBeInTheDocument();
    await userEvent.type(amount, '50');
    await userEvent.click(screen.getByRole('button', { name: 'Deduct Credits' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Deduct' }));
    await waitFor(() => expect(bodies(calls)).toHaveLength(3));
    const [a, b, c] = bodies(calls);
    expect(b.idempotency_key).toBe(a.idempotency_key);
    expect(c.idempotency_key).not.toBe(b.idempotency_key);
    expect(c).toMatchObject({ type: 'debit', amount_paise: 5000 });
  });
});
