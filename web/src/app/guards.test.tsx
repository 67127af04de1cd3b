import { screen } from '@testing-library/react';
import type { RouteObject } from 'react-router';
import { mockApi, renderRoutes } from '@/testing/test-utils';
import { partnerJwt, superAdminJwt } from '@/testing/jwt';
import { setPartnerToken, setSuperAdminToken } from '@/lib/auth';
import { PartnerGuard, PartnerGuestOnly, SuperAdminGuard, SuperAdminGuestOnly } from './guards';

const page = (text: string) => <p>{text}</p>;
const routes: RouteObject[] = [
  { element: <PartnerGuestOnly />, children: [{ path: '/auth', element: page('login page') }] },
  { path: '/complete-details', element: page('wizard page') },
  { element: <PartnerGuard />, children: [{ path: '/dashboard', element: page('dashboard page') }] },
  { element: <SuperAdminGuestOnly />, children: [{ path: '/superadmin/auth', element: page('sa login page') }] },
  { element: <SuperAdminGuard />, children: [{ path: '/superadmin/dashboard', element: page('sa dashboard page') }] },
];

const me = (step: number) => mockApi({ 'GET /partner/me': { status: 200, body: { id: 'p1', user_name: 'acme', onboarding_step: step } } });

describe('partner guard', () => {

  it('sends a signed-out visitor to /auth', async () => {
    const { router } = renderRoutes(routes, '/dashboard');
    expect(await screen.findByText('login page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auth');
  });

  it('sends a partner with unfinished onboarding to /complete-details', async () => {
    setPartnerToken(partnerJwt());
    me(4);
    const { router } = renderRoutes(routes, '/dashboard');
    expect(await screen.findByText('wizard page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/complete-details');
  });

  it('lets an onboarded partner in', async () => {
    setPartnerToken(partnerJwt());
    me(6);
    renderRoutes(routes, '/dashboard');
    expect(await screen.findByText('dashboard page')).toBeInTheDocument();
  });

  it('sends a signed-in partner from /auth to /dashboard', async () => {
    setPartnerToken(partnerJwt());
    me(6);
    const { router } = renderRoutes(routes, '/auth');
    expect(await screen.findByText('dashboard page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboard');
  });
});

describe('super-admin guard', () => {
  it('sends a signed-out visitor to /superadmin/auth', async () => {
    renderRoutes(routes, '/superadmin/dashboard');
    expect(await screen.findByText('sa login page')).toBeInTheDocument();
  });

  it('sends a signed-in super admin from /superadmin/auth to the dashboard', async () => {
    setSuperAdminToken(superAdminJwt());
    renderRoutes(routes, '/superadmin/auth');
    expect(await screen.findByText('sa dashboard page')).toBeInTheDocument();
  });

  it('does not let a partner token into the super-admin area', async () => {
    setPartnerToken(partnerJwt());
    renderRoutes(routes, '/superadmin/dashboard');
    expect(await screen.findByText('sa login page')).toBeInTheDocument();
  });
});
