import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { istDay } from '@/lib/format';
import { mockApi, renderRoutes } from '@/testing/test-utils';
import { isIpOrCidr, splitList } from '../api/api-keys';
import { ApiKeys, keyState } from './api-keys';

const active = {
  id: 1,
  name: 'Staging',
  prefix: 'kyc_test_AbCdEfG',
  mode: 'sandbox',
  status: 'active',
  created_at: '2026-11-20T10:00:00Z',
  last_used_at: null,
  expires_at: null,
  allowed_ips: [],
  allowed_services: [],
  usage: { calls: 0, spend_paise: 0 },
};
const live = {
  ...active,
  id: 2,
  name: 'Production',
  prefix: 'kyc_live_XyZ1234',
  mode: 'live',
  last_used_at: '2026-11-23T09:00:00Z',
  allowed_ips: ['203.0.113.7', '10.0.0.0/8'],
  allowed_services: ['pan_check'],
  usage: { calls: 1234, spend_paise: 370200 },
};
const offers = [
  { service: 'pan_check', name: 'PAN Check', category: 'Identity', price_paise: 300, required_fields: ['id_number'], sandbox: true },
  { service: 'gst_check', name: 'GST Check', category: 'Business', price_paise: 200, required_fields: ['gstin'], sandbox: false },
];

function render(routes: Parameters<typeof mockApi>[0]) {
  const calls = mockApi({ 'GET /me/api-keys': { status: 200, body: [live, active] }, 'GET /me/apis': { status: 200, body: offers }, ...routes });
  renderRoutes([{ path: '/', element: <ApiKeys fullAccess={false} /> }], '/');
  return calls;
}

const posted = (calls: ReturnType<typeof mockApi>, method = 'POST') => JSON.parse(calls.find((c) => c.init.method === method)!.init.body!);

describe('ApiKeys', () => {
  it('lists keys by prefix with their last use', async () => {
    render({});
    expect(await screen.findByText('kyc_live_XyZ1234…')).toBeInTheDocument();
    const row = screen.getByText('kyc_test_AbCdEfG…').closest('tr')!;
    expect(within(row).getByText('Never')).toBeInTheDocument();
    expect(within(row).getByText('Sandbox')).toBeInTheDocument();
  });

  it('shows each key with its name, limits and 30 days of usage', async () => {
    render({});
    const row = (await screen.findByText('kyc_live_XyZ1234…')).closest('tr')!;
    expect(within(row).getByText('Production')).toBeInTheDocument();
    expect(within(row).getByText('203.0.113.7, 10.0.0.0/8')).toBeInTheDocument();
    expect(within(row).getByText('pan_check')).toBeInTheDocument();
    expect(within(row).getByTestId('usage-2')).toHaveTextContent('1,234 calls, ₹3,702.00');
    const open = screen.getByText('kyc_test_AbCdEfG…').closest('tr')!;
    expect(within(open).getByText('Any address')).toBeInTheDocument();
    expect(within(open).getByText('All APIs')).toBeInTheDocument();
    expect(within(open).getByTestId('usage-1')).toHaveTextContent('0 calls, ₹0.00');
  });

  it('creates a named live key with a last day and IP and API lists', async () => {
    const calls = render({ 'POST /me/api-keys': { status: 201, body: { id: 3, key: 'kyc_live_SECRETSECRETSECRETSECRETSECRET12', prefix: 'kyc_live_SECRETS', mode: 'live' } } });
    await screen.findByText('kyc_live_XyZ1234…');
    await userEvent.click(screen.getByLabelText('Live'));
    await userEvent.type(screen.getByLabelText('Name'), 'CI server');
    await userEvent.type(screen.getByLabelText('Allowed IP addresses'), '203.0.113.7{enter}10.0.0.0/8, 2001:db8::/64');
    await userEvent.selectOptions(screen.getByLabelText('APIs this key may call'), ['gst_check', 'pan_check']);
    const lastDay = istDay(30);
    fireEvent.change(screen.getByLabelText('Last day (optional)'), { target: { value: lastDay } });
    await userEvent.click(screen.getByRole('button', { name: 'Create key' }));
    await screen.findByRole('dialog', { name: 'Your new API key' });
    expect(posted(calls)).toEqual({
      mode: 'live',
      name: 'CI server',
      allowed_ips: ['203.0.113.7', '10.0.0.0/8', '2001:db8::/64'],
      allowed_services: ['pan_check', 'gst_check'],
      expires_at: `${lastDay}T23:59:59+05:30`,
    });
    // The form is empty again for the next key.
    expect(screen.getByLabelText('Name')).toHaveValue('');
  });

  it('offers a sandbox key only the sandbox list', async () => {
    render({});
    const select = await screen.findByLabelText('APIs this key may call');
    await waitFor(() => expect(within(select).getAllByRole('option')).toHaveLength(1));
    expect(within(select).getByRole('option', { name: 'PAN Check (pan_check)' })).toBeInTheDocument();
  });

  it('checks the name, the addresses and the last day before any request', async () => {
    const calls = render({});
    await screen.findByText('kyc_live_XyZ1234…');
    await userEvent.type(screen.getByLabelText('Allowed IP addresses'), '10.0.0.300');
    fireEvent.change(screen.getByLabelText('Last day (optional)'), { target: { value: istDay(-1) } });
    await userEvent.click(screen.getByRole('button', { name: 'Create key' }));
    expect(screen.getByText('Give the key a name')).toBeInTheDocument();
    expect(screen.getByText(/10\.0\.0\.300 is not an IP address/)).toBeInTheDocument();
    expect(screen.getByText('The last day cannot be in the past')).toBeInTheDocument();
    expect(calls.filter((c) => c.init.method === 'POST')).toHaveLength(0);
  });

  it("shows the server's message on the field it names", async () => {
    render({
      'POST /me/api-keys': {
        status: 422,
        body: { error: { code: 'validation_failed', message: 'There is no API "old_api"', fields: { allowed_services: 'There is no API "old_api"' } } },
      },
    });
    await screen.findByText('kyc_live_XyZ1234…');
    await userEvent.type(screen.getByLabelText('Name'), 'x');
    await userEvent.click(screen.getByRole('button', { name: 'Create key' }));
    expect(await screen.findByText('There is no API "old_api"')).toBeInTheDocument();
  });

  it("edits a key's name and lists; an emptied list lifts the limit", async () => {
    const calls = render({ 'PATCH /me/api-keys/2': { status: 200, body: { ...live, allowed_ips: [] } } });
    await userEvent.click(await screen.findByRole('button', { name: 'Edit kyc_live_XyZ1234' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit key' });
    const ips = within(dialog).getByLabelText('Allowed IP addresses');
    expect(ips).toHaveValue('203.0.113.7\n10.0.0.0/8');
    await userEvent.clear(ips);
    const name = within(dialog).getByLabelText('Name');
    await userEvent.clear(name);
    await userEvent.type(name, 'Prod');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit key' })).not.toBeInTheDocument());
    expect(posted(calls, 'PATCH')).toEqual({ name: 'Prod', allowed_ips: [], allowed_services: ['pan_check'] });
  });

  it('tells addresses and networks from the rest', () => {
    expect(splitList(' 203.0.113.7,10.0.0.0/8\n\n ::1 ')).toEqual(['203.0.113.7', '10.0.0.0/8', '::1']);
    for (const ok of ['203.0.113.7', '10.0.0.0/8', '0.0.0.0/0', '2001:db8::/64', '::1', '2001:db8::1/128']) expect(isIpOrCidr(ok)).toBe(true);
    for (const bad of ['10.0.0.300', '10.0.0.0/33', '2001:db8::/129', 'example.com', '10.0.0', '1.2.3.4/8/9', '::g', '10.0.0.1/']) expect(isIpOrCidr(bad)).toBe(false);
  });

  it('creates a sandbox key and shows it once with a copy button', async () => {
    const calls = render({ 'POST /me/api-keys': { status: 201, body: { id: 3, key: 'kyc_test_SECRETSECRETSECRETSECRETSECRET12', prefix: 'kyc_test_SECRETS', mode: 'sandbox' } } });
    await screen.findByText('kyc_live_XyZ1234…');
    await userEvent.type(screen.getByLabelText('Name'), 'Laptop');
    await userEvent.click(screen.getByRole('button', { name: 'Create key' }));
    const dialog = await screen.findByRole('dialog', { name: 'Your new API key' });
    expect(within(dialog).getByTestId('new-key')).toHaveTextContent('kyc_test_SECRETSECRETSECRETSECRETSECRET12');
    expect(within(dialog).getByRole('button', { name: 'Copy key' })).toBeInTheDocument();
    expect(posted(calls)).toEqual({ mode: 'sandbox', name: 'Laptop', allowed_ips: [], allowed_services: [] });
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
