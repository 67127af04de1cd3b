import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi, renderRoutes } from '@/testing/test-utils';
import { RESET_TOKEN_KEY } from '../api/passwords';
import { SetNewPasswordForm } from './set-new-password-form';

const routes = [
  { path: '/set-new-password/', element: <SetNewPasswordForm /> },
  { path: '/auth', element: <p>login page</p> },
];

describe('SetNewPasswordForm', () => {

  it('says the session expired when there is no token', () => {
    renderRoutes(routes, '/set-new-password/');
    expect(screen.getByText('Session expired ! Please try again')).toBeInTheDocument();
  });

  it('says the session expired when the server answers 400', async () => {
    sessionStorage.setItem(RESET_TOKEN_KEY, 'tok');
    const calls = mockApi({ 'POST /partner/reset-password': { status: 400, body: { error: { code: 'expired', message: 'expired' } } } });
    renderRoutes(routes, '/set-new-password/');
    await userEvent.type(screen.getByLabelText('New Password'), 'abcdefgh1');
    await userEvent.type(screen.getByLabelText('Confirm Password'), 'abcdefgh1');
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Session expired ! Please try again')).toBeInTheDocument();
    expect(JSON.parse(String(calls[0].init.body))).toEqual({ token: 'tok', new_password: 'abcdefgh1', confirm_new_password: 'abcdefgh1' });
  });

  it('goes to /auth once the password is set', async () => {
    sessionStorage.setItem(RESET_TOKEN_KEY, 'tok');
    mockApi({ 'POST /partner/reset-password': { status: 200, body: {} } });
    const { router } = renderRoutes(routes, '/set-new-password/');
    await userEvent.type(screen.getByLabelText('New Password'), 'abcdefgh1');
    await userEvent.type(screen.getByLabelText('Confirm Password'), 'abcdefgh1');
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('login page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auth');
  });
});
