import { act, screen } from '@testing-library/react';
import { mockApi, platformSite, renderRoutes } from '@/testing/test-utils';
import { setPartnerToken } from '@/lib/auth';
import { partnerJwt } from '@/testing/jwt';
import VerifyEmailPage from './verify-email';

const routes = [
  { path: '/verify-email/:id', element: <VerifyEmailPage /> },
  { path: '/complete-details', element: <p>wizard page</p> },
  { path: '/auth', element: <p>sign-in page</p> },
];

describe('VerifyEmailPage', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows the success sentence and moves on to the wizard after 2 seconds when signed in', async () => {
    setPartnerToken(partnerJwt());
    const calls = mockApi({ ...platformSite, 'POST /partner/verify-email': { status: 200, body: {} } });
    const { router } = renderRoutes(routes, '/verify-email/tok123');
    expect(screen.getByText('Updating Status')).toBeInTheDocument();
    expect(
      await screen.findByText('Your email is verified successfully, You can login to your dashboard.'),
    ).toBeInTheDocument();
    const verify = calls.find((c) => c.url.endsWith('/partner/verify-email'));
    expect(JSON.parse(String(verify?.init.body))).toEqual({ token: 'tok123' });
    expect(router.state.location.pathname).toBe('/verify-email/tok123');
    await act(() => new Promise((r) => setTimeout(r, 2100)));
    expect(router.state.location.pathname).toBe('/complete-details');
  });

  it('goes to sign-in, not a blank sign-up form, when this browser has no session', async () => {
    mockApi({ ...platformSite, 'POST /partner/verify-email': { status: 200, body: {} } });
    const { router } = renderRoutes(routes, '/verify-email/tok456');
    expect(await screen.findByText('Your email is verified successfully, You can login to your dashboard.')).toBeInTheDocument();
    await act(() => new Promise((r) => setTimeout(r, 2100)));
    expect(router.state.location.pathname).toBe('/auth');
  });

  it("shows 'Error Updating Status' when the link is bad", async () => {
    mockApi({ ...platformSite, 'POST /partner/verify-email': { status: 400, body: { error: { code: 'bad', message: 'expired' } } } });
    renderRoutes(routes, '/verify-email/bad');
    expect(await screen.findByText('Error Updating Status')).toBeInTheDocument();
  });
});
