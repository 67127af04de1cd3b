import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi, renderRoutes } from '@/testing/test-utils';
import { partnerJwt } from '@/testing/jwt';
import { getPartnerToken } from '@/lib/auth';
import { LoginForm, afterLoginPath } from './login-form';

const captcha = { id: 'c1', image: 'data:image/png;base64,AA==' };

function setup(loginStatus: number, loginBody: unknown) {
  let captchas = 0;
  const calls = mockApi({
    'GET /auth/captcha': () => {
      captchas++;
      return { status: 200, body: { ...captcha, id: `c${captchas}` } };
    },
    'POST /partner/login': { status: loginStatus, body: loginBody },
  });
  const checkStatus = vi.fn().mockResolvedValue({ onboarding_step: 6 });
  const utils = renderRoutes(
    [
      { path: '/auth', element: <LoginForm checkStatus={checkStatus} /> },
      { path: '/dashboard', element: <p>dashboard page</p> },
      { path: '/complete-details', element: <p>wizard page</p> },
    ],
    '/auth',
  );
  return { ...utils, calls, checkStatus, captchaCount: () => captchas };
}

describe('LoginForm', () => {

  it('requires email, password and the terms checkbox', async () => {
    setup(200, {});
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(screen.getByText('Please accept the terms and conditions')).toBeInTheDocument();
  });

  it('shows the server message and resets the captcha after a failed login', async () => {
    const { calls, captchaCount } = setup(401, { error: { code: 'unauthorized', message: 'Invalid email or password' } });
    await screen.findByAltText('Captcha');
    await userEvent.type(screen.getByLabelText('Email'), 'a@b.c');
    await userEvent.type(screen.getByLabelText('Password'), 'nope');
    await userEvent.type(screen.getByLabelText('Captcha'), 'X7K2P');
    await userEvent.click(screen.getByRole('checkbox'));
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText('Invalid email or password')).toBeInTheDocument();
    expect(screen.getByText('Error!')).toBeInTheDocument();
    const login = calls.find((c) => c.url === '/api/v1/partner/login')!;
    expect(JSON.parse(String(login.init.body))).toEqual({ email: 'a@b.c', password: 'nope', captcha: { id: 'c1', answer: 'X7K2P' } });
    await waitFor(() => expect(captchaCount()).toBe(2));
    expect(screen.getByLabelText('Captcha')).toHaveValue('');
  });

  it('stores the token and goes to the dashboard when onboarding is done', async () => {
    const token = partnerJwt();
    const { router, checkStatus } = setup(200, { token, partner: { id: 'p1', user_name: 'acme', subdomain: 'acme', onboarding_step: 6 } });
    await userEvent.type(screen.getByLabelText('Email'), 'a@b.c');
    await userEvent.type(screen.getByLabelText('Password'), 'secret');
    await userEvent.click(screen.getByRole('checkbox'));
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText('dashboard page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboard');
    expect(getPartnerToken()).toBe(token);
    expect(checkStatus).toHaveBeenCalled();
  });
});

describe('afterLoginPath', () => {
  it('goes straight to the wizard without a sub-domain in the token', async () => {
    const check = vi.fn();
    expect(await afterLoginPath(partnerJwt({ subdomain: null }), check)).toBe('/complete-details');
    expect(check).not.toHaveBeenCalled();
  });
  it('goes to the wizard when the status check says onboarding is unfinished', async () => {
    expect(await afterLoginPath(partnerJwt(), async () => ({ onboarding_step: 4 }))).toBe('/complete-details');
  });
});
