import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { getUserToken, setUserToken } from '@/lib/auth';
import { userJwt } from '@/testing/jwt';
import { portalMe, portalSite, portalUsage } from '@/testing/portal';
import { mockApi, renderRoutes } from '@/testing/test-utils';
import { portalNav } from './layouts/portal-layout';
import { portalRoutes } from './portal-router';

const captcha = { 'GET /auth/captcha': { status: 200, body: { id: 'c1', image: 'data:image/png;base64,AA==' } } };

describe('the portal on a partner site', () => {
  it("shows the partner's landing page with its APIs and prices, never the platform's offer to partners", async () => {
    mockApi({ 'GET /public/portal': { status: 200, body: portalSite } });
    renderRoutes(portalRoutes, '/');
    expect(await screen.findByRole('heading', { level: 1, name: 'Demo KYC' })).toBeInTheDocument();
    expect(screen.getByText('Verify your customers in seconds.')).toBeInTheDocument();
    const identity = screen.getByRole('region', { name: 'identity' });
    expect(within(identity).getByText('₹12,34,567.50')).toBeInTheDocument();
    expect(within(identity).getAllByRole('listitem')[0]).toHaveTextContent('Aadhaar OTP');
    expect(screen.getByText('help@demo.test')).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'Sign up' }).length).toBeGreaterThan(0);
    expect(screen.getByText('© Demo KYC Pvt Ltd')).toBeInTheDocument();
    expect(screen.queryByText(/resell/i)).not.toBeInTheDocument();

    await userEvent.type(screen.getByLabelText('Search APIs'), 'gst');
    expect(screen.queryByText('Aadhaar OTP')).not.toBeInTheDocument();
    expect(screen.getByText('GST verification')).toBeInTheDocument();
  });

  it('goes straight to sign-in when the landing page is off, without Sign up when sign-up is off', async () => {
    mockApi({
      'GET /public/portal': { status: 200, body: { ...portalSite, landing_page: false, signup: { ...portalSite.signup, create_account: false, forgot_password: false } } },
      ...captcha,
    });
    const { router } = renderRoutes(portalRoutes, '/');
    expect(await screen.findByRole('heading', { name: 'Login' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(screen.queryByRole('link', { name: /sign up|create an account/i })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Forgot password' })).not.toBeInTheDocument();
  });

  it('says so when the site is unknown or inactive', async () => {
    mockApi({ 'GET /public/portal': { status: 404, body: { error: { code: 'not_found', message: 'Not found' } } } });
    renderRoutes(portalRoutes, '/login');
    expect(await screen.findByRole('heading', { name: 'This site is not available' })).toBeInTheDocument();
  });

  it('signs in and shows the dashboard with both wallets, the usage and the low-balance notice', async () => {
    const token = userJwt();
    const calls = mockApi({
      'GET /public/portal': { status: 200, body: portalSite },
      ...captcha,
      'POST /me/login': { status: 200, body: { token, user: { id: 7, first_name: 'Aarav', last_name: 'Sharma' } } },
      'GET /me': { status: 200, body: { ...portalMe, low_balance: true } },
      'GET /me/usage': { status: 200, body: portalUsage },
    });
    const { router } = renderRoutes(portalRoutes, '/login');
    await screen.findByAltText('Captcha');
    await userEvent.type(screen.getByLabelText('Email'), 'aarav@example.in');
    await userEvent.type(screen.getByLabelText('Password'), 'User@12345');
    await userEvent.type(screen.getByLabelText('Captcha'), 'ABCDE');
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));

    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboard');
    expect(getUserToken()).toBe(token);
    const login = calls.find((c) => c.url === '/api/v1/me/login')!;
    expect(JSON.parse(login.init.body!)).toEqual({ email: 'aarav@example.in', password: 'User@12345', captcha: { id: 'c1', answer: 'ABCDE' } });
    const me = calls.find((c) => c.url === '/api/v1/me')!;
    expect(me.init.headers.authorization).toBe(`Bearer ${token}`);

    expect((await screen.findAllByText('₹1,23,456.78')).length).toBeGreaterThan(0);
    expect(screen.getByRole('alert')).toHaveTextContent(/below its minimum balance/);
    expect(await screen.findByText('66.7%')).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: 'GST verification' })).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: '₹30.00' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'API documentation' })).toHaveAttribute('href', 'https://docs.demo.test');
    expect(screen.queryByRole('link', { name: 'Batch' })).not.toBeInTheDocument();
  });

  it('sends a signed-out visitor of a signed-in page to sign-in, and a 401 to /logout', async () => {
    mockApi({ 'GET /public/portal': { status: 200, body: portalSite }, ...captcha });
    const { router } = renderRoutes(portalRoutes, '/dashboard');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });

  it('offers Batch only while the partner has batch processing on', () => {
    expect(portalNav({ batch: false }).map((i) => i.label)).not.toContain('Batch');
    expect(portalNav({ batch: true }).map((i) => i.label)).toContain('Batch');
  });

  it('logs out: the token is gone and sign-in shows', async () => {
    setUserToken(userJwt());
    mockApi({ 'GET /public/portal': { status: 200, body: portalSite }, ...captcha, 'POST /me/logout': { status: 204 } });
    const { router } = renderRoutes(portalRoutes, '/logout');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(getUserToken()).toBeNull();
  });
});
