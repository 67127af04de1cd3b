import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setPartnerToken } from '@/lib/auth';
import { partnerJwt } from '@/testing/jwt';
import { mockApi, renderRoutes } from '@/testing/test-utils';
import { keyState, UserApiKeys } from './user-api-keys';

const active = { id: 1, prefix: 'kyc_test_AbCdEfG', mode: 'sandbox', status: 'active', created_at: '2026-11-20T10:00:00Z', last_used_at: null };
const revoked = { ...active, id: 2, prefix: 'kyc_live_XyZ1234', mode: 'live', status: 'revoked', last_used_at: '2026-11-23T09:00:00Z' };

function render(routes: Parameters<typeof mockApi>[0], fullAccess = false) {
  const calls = mockApi({ 'GET /partner/users/7/api-keys': { status: 200, body: [revoked, active] }, ...routes });
  renderRoutes([{ path: '/', element: <UserApiKeys userId={7} fullAccess={fullAccess} /> }], '/');
  return calls;
}

describe('UserApiKeys', () => {
  beforeEach(() => setPartnerToken(partnerJwt()));

  it("lists the user's keys by prefix, with Revoke on active keys only", async () => {
    render({});
    const row = (await screen.findByText('kyc_test_AbCdEfG…')).closest('tr')!;
    expect(within(row).getByText('Never')).toBeInTheDocument();
    expect(within(row).getByText('Active')).toBeInTheDocument();
    const old = screen.getByText('kyc_live_XyZ1234…').closest('tr')!;
    expect(within(old).getByText('Revoked')).toBeInTheDocument();
    expect(within(old).queryByRole('button')).toBeNull();
  });

  it('says when the user has no key', async () => {
    mockApi({ 'GET /partner/users/7/api-keys': { status: 200, body: [] } });
    renderRoutes([{ path: '/', element: <UserApiKeys userId={7} fullAccess /> }], '/');
    expect(await screen.findByText('This user has no API keys yet.')).toBeInTheDocument();
  });

  it('creates a key in the mode chosen and shows it once', async () => {
    const calls = render({
      'POST /partner/users/7/api-keys': { status: 201, body: { id: 3, key: 'kyc_live_SECRETSECRETSECRETSECRETSECRET12', prefix: 'kyc_live_SECRETS', mode: 'live' } },
    });
    await screen.findByText('kyc_test_AbCdEfG…');
    await userEvent.click(screen.getByLabelText('Live'));
    expect(screen.getByText(/partial access/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Create key' }));
    const dialog = await screen.findByRole('dialog', { name: 'New API key' });
    expect(within(dialog).getByTestId('new-key')).toHaveTextContent('kyc_live_SECRETSECRETSECRETSECRETSECRET12');
    expect(within(dialog).getByRole('button', { name: 'Copy key' })).toBeInTheDocument();
    expect(JSON.parse(calls.find((c) => c.init.method === 'POST')!.init.body!)).toEqual({ mode: 'live' });
    await waitFor(() => expect(calls.filter((c) => c.init.method === 'GET')).toHaveLength(2));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByText(/SECRETSECRET/)).not.toBeInTheDocument();
  });

  it("shows the server's refusal of a new key", async () => {
    render({
      'POST /partner/users/7/api-keys': { status: 409, body: { error: { code: 'conflict', message: 'A user can have at most 20 active API keys. Revoke one first.' } } },
    });
    await screen.findByText('kyc_test_AbCdEfG…');
    await userEvent.click(screen.getByRole('button', { name: 'Create key' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('at most 20 active API keys');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('revokes only after the confirm', async () => {
    const calls = render({ 'DELETE /partner/users/7/api-keys/1': { status: 204 } });
    await userEvent.click(await screen.findByRole('button', { name: 'Revoke kyc_test_AbCdEfG' }));
    expect(screen.getByRole('dialog', { name: 'Revoke key' })).toHaveTextContent('refused at once');
    expect(calls.filter((c) => c.init.method === 'DELETE')).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(calls.filter((c) => c.init.method === 'DELETE')).toHaveLength(1));
    expect(await screen.findByText('Key revoked')).toBeInTheDocument();
  });

  it('says what a key is', () => {
    const now = Date.parse('2026-11-24T10:00:00Z');
    expect(keyState(active as never, now)).toBe('Active');
    expect(keyState(revoked as never, now)).toBe('Revoked');
    expect(keyState({ ...active, expires_at: '2026-11-24T09:00:00Z' } as never, now)).toBe('Expired');
  });
});
