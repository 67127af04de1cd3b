import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setPartnerToken } from '@/lib/auth';
import { partnerJwt } from '@/testing/jwt';
import { mockApi, renderRoutes } from '@/testing/test-utils';
import { UserCards } from './user-cards';

const user = (id: number, over: Record<string, unknown> = {}) => ({
  id, first_name: 'Meera', last_name: 'Nair', email: `m${id}@example.in`, phone_number: '9812345678', is_active: true, full_access: false, created_at: '2026-01-15T10:30:00Z', ...over,
});
const page = (items: unknown[]) => ({ status: 200, body: { items, page: 1, per_page: 50, total: items.length, pages: 1 } });

function render(routes: Parameters<typeof mockApi>[0], path = '/') {
  const calls = mockApi({ 'GET /partner/users': page([user(7), user(8, { first_name: 'Ravi', is_active: false })]), ...routes });
  const r = renderRoutes([{ path: '/', element: <UserCards addUserPath="/add-user-manually" onView={() => {}} /> }], path);
  return { calls, ...r };
}

const bodyOf = (calls: { init: { method: string; body?: string } }[], method: string) => JSON.parse(calls.find((c) => c.init.method === method)!.init.body!);

describe('User Accounts: search and actions', () => {
  beforeEach(() => setPartnerToken(partnerJwt()));
  afterEach(() => sessionStorage.clear());

  it('searches on the server with the text in the URL, from page 1, and clears it', async () => {
    const { calls, router } = render({}, '/?page=3');
    await screen.findByText('m7@example.in');
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search' }), '  Meera Nair ');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(calls.at(-1)!.url).toBe('/api/v1/partner/users?page=1&q=Meera+Nair'));
    expect(router.state.location.search).toBe('?q=Meera+Nair');
    await userEvent.click(screen.getByRole('button', { name: 'Clear' }));
    await waitFor(() => expect(calls.at(-1)!.url).toBe('/api/v1/partner/users?page=1'));
    expect(screen.getByRole('searchbox', { name: 'Search' })).toHaveValue('');
  });

  it('keeps the search box when nothing matches', async () => {
    mockApi({ 'GET /partner/users': page([]) });
    renderRoutes([{ path: '/', element: <UserCards addUserPath="/add-user-manually" onView={() => {}} /> }], '/?q=nobody');
    expect(await screen.findByText('No user found...')).toBeInTheDocument();
    expect(screen.getByRole('searchbox', { name: 'Search' })).toHaveValue('nobody');
  });

  it('deactivates only after the confirm, and offers Activate on an inactive user', async () => {
    const { calls } = render({ 'PATCH /partner/users/7': { status: 200, body: user(7, { is_active: false }) } });
    await userEvent.click(await screen.findByRole('button', { name: 'Deactivate Meera Nair' }));
    const dialog = screen.getByRole('dialog', { name: 'Deactivate user' });
    expect(dialog).toHaveTextContent('API keys and portal sign-in are refused');
    expect(calls.filter((c) => c.init.method === 'PATCH')).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Deactivate' }));
    expect(await screen.findByText('User deactivated')).toBeInTheDocument();
    expect(bodyOf(calls, 'PATCH')).toEqual({ is_active: false });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    expect(screen.getByRole('button', { name: 'Activate Ravi Nair' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send reset mail to Ravi Nair' })).toBeDisabled();
  });

  it('cancelling a confirm sends nothing', async () => {
    const { calls } = render({});
    await userEvent.click(await screen.findByRole('button', { name: 'Activate Ravi Nair' }));
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Activate user' })).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(calls.filter((c) => c.init.method !== 'GET')).toHaveLength(0);
  });

  it("sends a reset mail after the confirm and shows the server's message, or its refusal", async () => {
    let n = 0;
    render({
      'POST /partner/users/7/password-reset': () =>
        ++n === 1
          ? { status: 202, body: { job_id: '01J', message: 'A password reset link is being sent to m7@example.in' } }
          : { status: 429, body: { error: { code: 'rate_limited', message: 'Too many requests, please try again later' } } },
    });
    const send = async () => {
      await userEvent.click(await screen.findByRole('button', { name: 'Send reset mail to Meera Nair' }));
      const dialog = screen.getByRole('dialog', { name: 'Send password reset mail' });
      expect(dialog).toHaveTextContent('Send m7@example.in a link to set a new password?');
      await userEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    };
    await send();
    expect(await screen.findByText('A password reset link is being sent to m7@example.in')).toBeInTheDocument();
    await send();
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many requests, please try again later');
  });

  it("edits with Add User's rules, shows the server's answer on its field, and saves", async () => {
    let first = true;
    const { calls } = render({
      'PATCH /partner/users/7': ({ init }) => {
        if (first) {
          first = false;
          return { status: 409, body: { error: { code: 'conflict', message: 'A user with this email already exists', fields: { email: 'A user with this email already exists' } } } };
        }
        return { status: 200, body: user(7, JSON.parse(init.body!)) };
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Meera Nair' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit user' });
    expect(within(dialog).getByLabelText('E-mail')).toHaveValue('m7@example.in');
    const first_ = within(dialog).getByLabelText('First name');
    await userEvent.clear(first_);
    await userEvent.type(first_, 'Me3ra');
    await userEvent.clear(within(dialog).getByLabelText('Phone number'));
    await userEvent.type(within(dialog).getByLabelText('Phone number'), '98-12');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText('No special character & numbers allowed in first name')).toBeInTheDocument();
    expect(within(dialog).getByText('No special character & alphabets allowed in phone number.')).toBeInTheDocument();
    expect(calls.filter((c) => c.init.method === 'PATCH')).toHaveLength(0);

    await userEvent.clear(first_);
    await userEvent.type(first_, 'Meera Devi');
    await userEvent.clear(within(dialog).getByLabelText('Phone number'));
    await userEvent.type(within(dialog).getByLabelText('Phone number'), '9876543210');
    const email = within(dialog).getByLabelText('E-mail');
    await userEvent.clear(email);
    await userEvent.type(email, 'taken@example.in');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('A user with this email already exists')).toBeInTheDocument();

    await userEvent.clear(email);
    await userEvent.type(email, 'meera.devi@example.in');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByText('User updated successfully')).toBeInTheDocument();
    expect(JSON.parse(calls.filter((c) => c.init.method === 'PATCH').at(-1)!.init.body!)).toEqual({
      first_name: 'Meera Devi',
      last_name: 'Nair',
      phone_number: '9876543210',
      email: 'meera.devi@example.in',
    });
  });

  it('shows no search and no actions in the super admin view of a client', async () => {
    mockApi({ 'GET /superadmin/clients/12/users': page([user(7)]) });
    renderRoutes([{ path: '/', element: <UserCards client={{ id: 12, userName: 'acme' }} onView={() => {}} /> }], '/');
    await screen.findByText('m7@example.in');
    expect(screen.queryByRole('searchbox')).toBeNull();
    expect(screen.queryByRole('button', { name: /Edit|Deactivate|reset/ })).toBeNull();
  });
});
