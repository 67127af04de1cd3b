import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi, renderRoutes } from '@/testing/test-utils';
import { ForgotPasswordForm, ResetPasswordForm } from './password-reset';

describe('ForgotPasswordForm', () => {
  it('asks for a valid e-mail, then says a link is on its way', async () => {
    const calls = mockApi({ 'POST /me/forgot-password': { status: 202, body: { message: 'If the email matches an account, a link to reset the password will be sent to it.' } } });
    renderRoutes([{ path: '/', element: <ForgotPasswordForm /> }], '/');
    await userEvent.type(screen.getByLabelText('Email'), 'nope');
    await userEvent.click(screen.getByRole('button', { name: 'Send link' }));
    expect(screen.getByText('Please enter a valid email')).toBeInTheDocument();
    await userEvent.clear(screen.getByLabelText('Email'));
    await userEvent.type(screen.getByLabelText('Email'), 'aarav@example.in');
    await userEvent.click(screen.getByRole('button', { name: 'Send link' }));
    expect(await screen.findByText(/a link to reset the password will be sent/)).toBeInTheDocument();
    expect(JSON.parse(calls[0].init.body!)).toEqual({ email: 'aarav@example.in' });
  });
});

describe('ResetPasswordForm', () => {
  it('says when the link has expired', async () => {
    mockApi({ 'POST /me/reset-password/verify': { status: 400, body: { error: { code: 'bad_request', message: 'Session expired ! Please try again' } } } });
    renderRoutes([{ path: '/', element: <ResetPasswordForm token="old" /> }], '/');
    expect(await screen.findByText('Session expired ! Please try again')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Send a new link' })).toBeInTheDocument();
  });

  it('sets the new password with the link', async () => {
    const calls = mockApi({
      'POST /me/reset-password/verify': { status: 200, body: { first_name: 'Aarav' } },
      'POST /me/reset-password': { status: 200, body: { message: 'Your password has been reset. Please log in with your new password.' } },
    });
    renderRoutes([{ path: '/', element: <ResetPasswordForm token="tok" /> }], '/');
    expect(await screen.findByText('Hello Aarav, choose a new password.')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('New password'), 'Better@123');
    await userEvent.type(screen.getByLabelText('Confirm password'), 'Better@12');
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(screen.getByText('New Password and Confirm Password didnot match!')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Confirm password'), '3');
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText(/Your password has been reset/)).toBeInTheDocument();
    expect(JSON.parse(calls[1].init.body!)).toEqual({ token: 'tok', new_password: 'Better@123', confirm_new_password: 'Better@123' });
  });
});
