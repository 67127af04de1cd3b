import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi, renderRoutes } from '@/testing/test-utils';
import { ApiKeys, keyState } from './api-keys';

const active = { id: 1, prefix: 'kyc_test_AbCdEfG', mode: 'sandbox', status: 'active', created_at: '2026-11-20T10:00:00Z', last_used_at: null, expires_at: null };
const live = { ...active, id: 2, prefix: 'kyc_live_XyZ1234', mode: 'live', last_used_at: '2026-11-23T09:00:00Z' };

function render(routes: Parameters<typeof mockApi>[0]) {
  const calls = mockApi({ 'GET /me/api-keys': { status: 200, body: [live, active] }, ...routes });
  renderRoutes([{ path: '/', element: <ApiKeys fullAccess={false} /> }], '/');
  return calls;
}

describe('ApiKeys', () => {
  it('lists keys by prefix with their last use', async () => {
    render({});
    expect(await screen.findByText('kyc_live_XyZ1234…')).toBeInTheDocument();
    const row = screen.getByText('kyc_test_AbCdEfG…').closest('tr')!;
    expect(within(row).getByText('Never')).toBeInTheDocument();
    expect(within(row).getByText('Sandbox')).toBeInTheDocument();
  });

  it('creates a sandbox key and shows it once with a copy button', async () => {
    const calls = render({ 'POST /me/api-keys': { status: 201, body: { id: 3, key: 'kyc_test_SECRETSECRETSECRETSECRETSECRET12', prefix: 'kyc_test_SECRETS', mode: 'sandbox' } } });
    await screen.findByText('kyc_live_XyZ1234…');
    await userEvent.click(screen.getByRole('button', { name: 'Create key' }));
    const dialog = await screen.findByRole('dialog', { name: 'Your new API key' });
    expect(within(dialog).getByTestId('new-key')).toHaveTextContent('kyc_test_SECRETSECRETSECRETSECRETSECRET12');
    expect(within(dialog).getByRole('button', { name: 'Copy key' })).toBeInTheDocument();
    expect(JSON.parse(calls.find((c) => c.init.method === 'POST')!.init.body!)).toEqual({ mode: 'sandbox' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByText(/SECRETSECRET/)).not.toBeInTheDocument();
  });

  it('warns that live calls need full access when a partial-access user picks Live', async () => {
    render({});
    await userEvent.click(await screen.findByLabelText('Live'));
    expect(screen.getByText(/partial access/)).toBeInTheDocument();
  });

  it('revokes only after the confirm', async () => {
    const calls = render({ 'DELETE /me/api-keys/1': { status: 204 } });
    await userEvent.click(await screen.findByRole('button', { name: 'Revoke kyc_test_AbCdEfG' }));
    expect(screen.getByRole('dialog', { name: 'Revoke key' })).toHaveTextContent('refused at once');
    expect(calls.filter((c) => c.init.method === 'DELETE')).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(calls.filter((c) => c.init.method === 'DELETE')).toHaveLength(1));
  });

  it('rolls with the grace period the user picks, checked first', async () => {
    const calls = render({
      'POST /me/api-keys/1/roll': { status: 201, body: { id: 4, key: 'kyc_test_NEWNEWNEWNEWNEWNEWNEWNEWNEWNEW12', prefix: 'kyc_test_NEWNEWN', mode: 'sandbox' } },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Roll kyc_test_AbCdEfG' }));
    const grace = screen.getByLabelText('Grace period (minutes)');
    await userEvent.clear(grace);
    await userEvent.type(grace, '20000');
    await userEvent.click(screen.getByRole('button', { name: 'Roll key' }));
    expect(screen.getByText('The grace period can be at most a week (10080 minutes)')).toBeInTheDocument();
    await userEvent.clear(grace);
    await userEvent.type(grace, '1.5');
    await userEvent.click(screen.getByRole('button', { name: 'Roll key' }));
    expect(screen.getByText('Enter whole minutes')).toBeInTheDocument();
    expect(calls.filter((c) => c.url.endsWith('/roll'))).toHaveLength(0);

    await userEvent.clear(grace);
    await userEvent.type(grace, '30');
    await userEvent.click(screen.getByRole('button', { name: 'Roll key' }));
    const dialog = await screen.findByRole('dialog', { name: 'Your new API key' });
    expect(within(dialog).getByText(/keeps working for 30 minutes/)).toBeInTheDocument();
    expect(JSON.parse(calls.find((c) => c.url.endsWith('/roll'))!.init.body!)).toEqual({ grace_minutes: 30 });
  });

  it('says what a key is', () => {
    const now = Date.parse('2026-11-24T10:00:00Z');
    expect(keyState(active as never, now)).toBe('Active');
    expect(keyState({ ...active, status: 'revoked' } as never, now)).toBe('Revoked');
    expect(keyState({ ...active, expires_at: '2026-11-24T09:00:00Z' } as never, now)).toBe('Expired');
    expect(keyState({ ...active, expires_at: '2026-11-24T11:00:00Z' } as never, now)).toMatch(/^Active until /);
  });
});
