import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { portalMe } from '@/testing/portal';
import { mockApi, renderRoutes } from '@/testing/test-utils';
import { PasswordForm, ProfileForm } from './profile-forms';

describe('ProfileForm', () => {
  it('checks the fields, sends the change and says so', async () => {
    const calls = mockApi({ 'PATCH /me/profile': { status: 200, body: { ...portalMe, first_name: 'Aaru' } } });
    renderRoutes([{ path: '/', element: <ProfileForm me={portalMe} /> }], '/');
    expect(screen.getByLabelText('Email')).toHaveAttribute('readonly');
    const first = screen.getByLabelText('First name');
    await userEvent.clear(first);
    await userEvent.type(first, 'Aaru1');
    const phone = screen.getByLabelText('Phone number');
    await userEvent.clear(phone);
    await userEvent.type(phone, '12ab');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText('No special character & numbers allowed in first name')).toBeInTheDocument();
    expect(screen.getByText('No special character & alphabets allowed in phone number.')).toBeInTheDocument();
    expect(calls).toHaveLength(0);

    await userEvent.clear(first);
    await userEvent.type(first, 'Aaru');
    await userEvent.clear(phone);
    await userEvent.type(phone, '9876543210');
    await userEvent.type(screen.getByLabelText('Address line 2'), 'MG Road');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Profile updated successfully')).toBeInTheDocument();
    expect(JSON.parse(calls[0].init.body!)).toEqual({
      first_name: 'Aaru',
      last_name: 'Sharma',
      phone_number: '9876543210',
      address_line1: '1 Park Street',
      address_line2: 'MG Road',
    });
  });

  it("shows the server's field error on its field", async () => {
    mockApi({
      'PATCH /me/profile': { status: 422, body: { error: { code: 'validation_failed', message: 'Invalid', fields: { address_line1: 'Address line contains characters that are not allowed' } } } },
    });
    renderRoutes([{ path: '/', element: <ProfileForm me={portalMe} /> }], '/');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Address line contains characters that are not allowed')).toBeInTheDocument();
  });
});

describe('PasswordForm', () => {
  it('checks the new password and the confirmation before sending', async () => {
    const calls = mockApi({ 'POST /me/password': { status: 200, body: { message: 'Password changed successfully' } } });
    renderRoutes([{ path: '/', element: <PasswordForm /> }], '/');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(screen.getByText('Current password is required')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Current password'), 'User@12345');
    await userEvent.type(screen.getByLabelText('New password'), 'short');
    await userEvent.type(screen.getByLabelText('Confirm password'), 'other');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(screen.getAllByText(/at least 8 characters/).length).toBeGreaterThan(1);
    expect(calls).toHaveLength(0);

    await userEvent.clear(screen.getByLabelText('New password'));
    await userEvent.type(screen.getByLabelText('New password'), 'Better@123');
    await userEvent.clear(screen.getByLabelText('Confirm password'));
    await userEvent.type(screen.getByLabelText('Confirm password'), 'Better@124');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(screen.getByText('New Password and Confirm Password didnot match!')).toBeInTheDocument();

    await userEvent.clear(screen.getByLabelText('Confirm password'));
    await userEvent.type(screen.getByLabelText('Confirm password'), 'Better@123');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Password changed successfully')).toBeInTheDocument();
    expect(JSON.parse(calls[0].init.body!)).toEqual({ current_password: 'User@12345', new_password: 'Better@123', confirm_new_password: 'Better@123' });
    await waitFor(() => expect(screen.getByLabelText('Current password')).toHaveValue(''));
  });

  it('shows a wrong current password on its field', async () => {
    mockApi({
      'POST /me/password': { status: 422, body: { error: { code: 'validation_failed', message: 'Current password is incorrect', fields: { current_password: 'Current password is incorrect' } } } },
    });
    renderRoutes([{ path: '/', element: <PasswordForm /> }], '/');
    await userEvent.type(screen.getByLabelText('Current password'), 'nope');
    await userEvent.type(screen.getByLabelText('New password'), 'Better@123');
    await userEvent.type(screen.getByLabelText('Confirm password'), 'Better@123');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Current password is incorrect')).toBeInTheDocument();
  });
});
