import { screen } from '@testing-library/react';
import { mockApi, platformSite, renderRoutes } from '@/testing/test-utils';
import { RESET_TOKEN_KEY } from '@/features/auth/api/passwords';
import ResetPasswordAdminPage from './reset-password-admin';

const routes = [
  { path: '/reset-password-admin/:token', element: <ResetPasswordAdminPage /> },
  { path: '/set-new-password/', element: <p>new password form</p> },
];

describe('ResetPasswordAdminPage', () => {
  afterEach(() => {
    sessionStorage.clear();
  });

  it('checks the token, keeps it and opens /set-new-password/', async () => {
    const calls = mockApi({ ...platformSite, 'POST /partner/reset-password/verify': { status: 200, body: { user_id: 7, user_name: 'acme' } } });
    const { router } = renderRoutes(routes, '/reset-password-admin/tok123');
    expect(await screen.findByText('new password form')).toBeInTheDocument();
    expect(calls[0].url).toBe('/api/v1/partner/reset-password/verify');
    expect(JSON.parse(String(calls[0].init.body))).toEqual({ token: 'tok123' });
    expect(sessionStorage.getItem(RESET_TOKEN_KEY)).toBe('tok123');
    expect(router.state.location.pathname).toBe('/set-new-password/');
  });

  it("says 'Session expired ! Please try again' when the server answers 400", async () => {
    mockApi({
      ...platformSite,
      'POST /partner/reset-password/verify': { status: 400, body: { error: { code: 'bad_request', message: 'Session expired ! Please try again' } } },
    });
    const { router } = renderRoutes(routes, '/reset-password-admin/old');
    expect(await screen.findByText('Session expired ! Please try again')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/reset-password-admin/old');
    expect(sessionStorage.getItem(RESET_TOKEN_KEY)).toBeNull();
  });
});
