import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi, renderRoutes } from '@/testing/test-utils';
import { VerifyEmailForm } from './verify-email-form';

const session = { token: 'user-token', user: { id: 9, first_name: 'Meera', last_name: 'Iyer' } };

describe('VerifyEmailForm', () => {
  it("sends the link's token with the password and hands over the session", async () => {
    const onVerified = vi.fn();
    const calls = mockApi({ 'POST /me/verify-email': { status: 200, body: session } });
    renderRoutes([{ path: '/', element: <VerifyEmailForm token="tok123" onVerified={onVerified} /> }], '/');
    await userEvent.click(screen.getByRole('button', { name: 'Verify and sign in' }));
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
    await userEvent.type(screen.getByLabelText('Password'), 'Meera@123');
    await userEvent.click(screen.getByRole('button', { name: 'Verify and sign in' }));
    await vi.waitFor(() => expect(onVerified).toHaveBeenCalledWith(session));
    expect(JSON.parse(calls[0].init.body!)).toEqual({ token: 'tok123', password: 'Meera@123' });
  });

  it('shows a wrong password on its field and an expired link as a message', async () => {
    mockApi({
      'POST /me/verify-email': {
        status: 401,
        body: { error: { code: 'unauthorized', message: 'This is not the password you signed up with', fields: { password: 'This is not the password you signed up with' } } },
      },
    });
    renderRoutes([{ path: '/', element: <VerifyEmailForm token="tok123" onVerified={() => {}} /> }], '/');
    await userEvent.type(screen.getByLabelText('Password'), 'Wrong@123');
    await userEvent.click(screen.getByRole('button', { name: 'Verify and sign in' }));
    expect(await screen.findByText('This is not the password you signed up with')).toBeInTheDocument();
  });
});
