import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi, renderRoutes } from '@/testing/test-utils';
import IpHitsPage from './ip-hits';
import MyAccountPage from './my-account';

const page = (items: unknown[]) => ({ items, page: 1, per_page: 50, total: items.length, pages: items.length ? 1 : 0 });

describe('IP Hits', () => {
  it('needs a User ID to filter, shows Active or Blocked, and Unblock asks first', async () => {
    const calls = mockApi({
      'GET /partner/ip-hits': {
        status: 200,
        body: page([
          { user_id: 7, ip: '203.0.113.9', hits: 1234, first_seen: '2026-11-01T10:00:00Z', last_seen: '2026-11-02T10:00:00Z', status: 'blocked', blocked_id: 44 },
          { user_id: 7, ip: '203.0.113.10', hits: 3, first_seen: '2026-11-01T10:00:00Z', last_seen: '2026-11-02T10:00:00Z', status: 'active', blocked_id: null },
        ]),
      },
      'DELETE /partner/blocked-ips/44': { status: 204 },
    });
    const { router } = renderRoutes([{ path: '/ip-hits', element: <IpHitsPage /> }], '/ip-hits');
    expect(await screen.findByText('1,234')).toBeInTheDocument();
    expect(screen.getByText('Blocked', { selector: 'span' })).toBeInTheDocument();
    expect(screen.getByText('Active')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(screen.getByText('User ID is required')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('User ID'), '7');
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(router.state.location.search).toBe('?user_id=7'));

    await userEvent.click(screen.getByRole('button', { name: 'Unblock' }));
    expect(screen.getByText('Are you sure, you want to Unblock the IP?')).toBeInTheDocument();
    await userEvent.click(screen.getAllByRole('button', { name: 'Unblock' }).at(-1)!);
    await waitFor(() => expect(calls.some((c) => c.init.method === 'DELETE')).toBe(true));
  });
});

describe('My Account, Contact details', () => {
  it('takes a 404 on first load as an empty form, not an error', async () => {
    mockApi({ 'GET /partner/contact-details': { status: 404, body: { error: { code: 'not_found', message: 'Not found' } } } });
    renderRoutes([{ path: '/my-account', element: <MyAccountPage /> }], '/my-account?tab=contact');
    expect(await screen.findByLabelText('Phone number')).toHaveValue('');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
