import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setPartnerToken } from '@/lib/auth';
import { partnerJwt } from '@/testing/jwt';
import { mockApi, renderRoutes } from '@/testing/test-utils';
import { ProfileForm } from './profile-form';

const saved = { first_name: 'Asha', last_name: 'Rao', email: 'asha@acme.in', phone_number: '9876543210', user_name: 'acme' };

describe('ProfileForm', () => {
  beforeEach(() => setPartnerToken(partnerJwt()));

  it('shows the saved profile with the user name read-only', async () => {
    mockApi({ 'GET /partner/profile': { status: 200, body: saved } });
    renderRoutes([{ path: '/', element: <ProfileForm /> }], '/');
    expect(await screen.findByLabelText('Email')).toHaveValue('asha@acme.in');
    expect(screen.getByLabelText('First name')).toHaveValue('Asha');
    expect(screen.getByText('acme')).toBeInTheDocument();
    expect(screen.queryByLabelText(/User name/)).toBeNull();
  });

  it('checks every field before sending, with the messages of sign-up', async () => {
    const calls = mockApi({ 'GET /partner/profile': { status: 200, body: saved } });
    renderRoutes([{ path: '/', element: <ProfileForm /> }], '/');
    await userEvent.clear(await screen.findByLabelText('First name'));
    await userEvent.clear(screen.getByLabelText('Email'));
    await userEvent.type(screen.getByLabelText('Email'), 'nope');
    await userEvent.clear(screen.getByLabelText('Phone number'));
    await userEvent.type(screen.getByLabelText('Phone number'), '12ab');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText('First name is required')).toBeInTheDocument();
    expect(screen.getByText('Please enter a valid email')).toBeInTheDocument();
    expect(screen.getByText('Please enter a valid phone number')).toBeInTheDocument();
    expect(calls.filter((c) => c.init.method === 'PUT')).toHaveLength(0);
  });

  it("shows a taken e-mail on its field, then saves and tells the app", async () => {
    let n = 0;
    const onSaved = vi.fn();
    const calls = mockApi({
      'GET /partner/profile': { status: 200, body: saved },
      'PUT /partner/profile': ({ init }) =>
        ++n === 1
          ? { status: 409, body: { error: { code: 'conflict', message: 'This email is already registered', fields: { email: 'This email is already registered' } } } }
          : { status: 200, body: { ...JSON.parse(init.body!), email: 'asha.new@acme.in', user_name: 'acme' } },
    });
    renderRoutes([{ path: '/', element: <ProfileForm onSaved={onSaved} /> }], '/');
    const email = await screen.findByLabelText('Email');
    await userEvent.clear(email);
    await userEvent.type(email, 'beta@partner.test');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('This email is already registered')).toBeInTheDocument();
    expect(onSaved).not.toHaveBeenCalled();

    await userEvent.clear(email);
    await userEvent.type(email, ' Asha.New@acme.in ');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Profile saved')).toBeInTheDocument();
    expect(onSaved).toHaveBeenCalledTimes(1);
    expect(JSON.parse(calls.filter((c) => c.init.method === 'PUT')[1].init.body!)).toEqual({
      first_name: 'Asha',
      last_name: 'Rao',
      email: 'Asha.New@acme.in',
      phone_number: '9876543210',
    });
    await waitFor(() => expect(screen.getByLabelText('Email')).toHaveValue('asha.new@acme.in'));
  });
});
