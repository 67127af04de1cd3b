import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setPartnerToken } from '@/lib/auth';
import { partnerJwt } from '@/testing/jwt';
import { mockApi, renderRoutes } from '@/testing/test-utils';
import { UserCards } from './user-cards';

const user = (id: number, over: Record<string, unknown> = {}) => ({
  id, first_name: 'Asha', last_name: 'Rao', email: `a${id}@example.in`, phone_number: '9812345678', is_active: true, full_access: false, created_at: '2026-01-15T10:30:00Z', ...over,
});

describe('UserCards', () => {
  beforeEach(() => setPartnerToken(partnerJwt()));

  it("says 'No user found...' with a link to add a user", async () => {
    mockApi({ 'GET /partner/users': { status: 200, body: { items: [], page: 1, per_page: 50, total: 0, pages: 0 } } });
    renderRoutes([{ path: '/', element: <UserCards addUserPath="/add-user-manually" onView={() => {}} /> }], '/');
    expect(await screen.findByText('No user found...')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add User Manually' })).toHaveAttribute('href', '/add-user-manually');
  });

  it('numbers the cards across pages, shows _ for no phone and Inactive, and hands the user to View details', async () => {
    const calls = mockApi({ 'GET /partner/users': {
      status: 200,
      body: { items: [user(7), user(8, { phone_number: '', is_active: false })], page: 2, per_page: 2, total: 4, pages: 2 },
    } });
    const onView = vi.fn();
    renderRoutes([{ path: '/', element: <UserCards addUserPath="/add-user-manually" onView={onView} /> }], '/?page=2');
    expect(await screen.findByText('3')).toBeInTheDocument();
    expect(screen.getByText('4')).toBeInTheDocument();
    expect(calls[0].url).toBe('/api/v1/partner/users?page=2');
    expect(screen.getByText('Active')).toBeInTheDocument();
    expect(screen.getByText('Inactive')).toBeInTheDocument();
    expect(screen.getByText('_')).toBeInTheDocument();
    await userEvent.click(screen.getAllByRole('button', { name: 'View details' })[1]);
    expect(onView).toHaveBeenCalledWith(expect.objectContaining({ id: 8 }));
  });

  it("lists a client's users for the super admin with the client's user name and no Add link", async () => {
    const calls = mockApi({ 'GET /superadmin/clients/12/users': {
      status: 200,
      body: { items: [user(7)], page: 1, per_page: 8, total: 1, pages: 1 },
    } });
    const onView = vi.fn();
    renderRoutes([{ path: '/', element: <UserCards client={{ id: 12, userName: 'acme' }} onView={onView} /> }], '/');
    expect(await screen.findByText('acme')).toBeInTheDocument();
    expect(calls[0].url).toBe('/api/v1/superadmin/clients/12/users?page=1');
    expect(screen.getByText('User Name')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'View Details' }));
    expect(onView).toHaveBeenCalledWith(expect.objectContaining({ id: 7 }));
  });

  it("says 'No user found...' without Add User Manually for a client without users", async () => {
    mockApi({ 'GET /superadmin/clients/12/users': { status: 200, body: { items: [], page: 1, per_page: 8, total: 0, pages: 0 } } });
    renderRoutes([{ path: '/', element: <UserCards client={{ id: 12, userName: 'acme' }} onView={() => {}} /> }], '/');
    expect(await screen.findByText('No user found...')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Add User Manually' })).toBeNull();
  });
});
