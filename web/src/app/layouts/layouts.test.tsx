import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi, renderRoutes } from '@/testing/test-utils';
import { partnerJwt, superAdminJwt } from '@/testing/jwt';
import { setPartnerToken, setSuperAdminToken } from '@/lib/auth';
import { AdminLayout } from './admin-layout';
import { SuperAdminLayout } from './superadmin-layout';

const me = {
  id: 1,
  user_name: 'acme',
  title: 'Acme KYC',
  logo_url: '/files/logo.png',
  favicon_url: null,
  onboarding_step: 6,
  theme: { primary: '#112233', secondary: '#445566', tertiary: '#778899' },
};

function partnerApi() {
  return mockApi({
    'GET /partner/me': { status: 200, body: me },
    'GET /partner/wallets': { status: 200, body: { api: { balance_paise: 123456789 }, product: { balance_paise: 5000050 } } },
  });
}

const adminRoutes = [
  {
    element: <AdminLayout />,
    children: ['/dashboard', '/user-accounts', '/user-detail'].map((path) => ({ path, element: <p>screen {path}</p> })),
  },
  { path: '/logout', element: <p>logged out</p> },
];

describe('AdminLayout', () => {
  beforeEach(() => setPartnerToken(partnerJwt()));

  it('shows the spec menu (with Webhooks, issue 24), the logo, both wallets in rupees and the theme', async () => {
    partnerApi();
    renderRoutes(adminRoutes, '/dashboard');
    const menu = screen.getByRole('complementary', { name: 'Main menu' });
    const labels = within(menu).getAllByRole('listitem').map((li) => li.textContent);
    expect(labels).toEqual([
      'Dashboard', 'User Accounts', 'Add User Manually', 'User Transactions', 'My Transactions', 'My Plan', 'My APIs',
      'TruBank', 'My Account', 'Whitelist IP', 'IP Hits', 'Webhooks', 'Reset Password', 'Logout',
    ]);
    expect(await screen.findByText('₹12,34,567.89')).toBeInTheDocument();
    expect(screen.getByText('₹50,000.50')).toBeInTheDocument();
    expect(await screen.findByAltText('Acme KYC')).toHaveAttribute('src', '/files/logo.png');
    await waitFor(() => expect(document.documentElement.style.getPropertyValue('--primary')).toBe('#112233'));
  });

  it('highlights User Accounts on /user-detail', async () => {
    partnerApi();
    renderRoutes(adminRoutes, '/user-detail');
    expect(await screen.findByText('screen /user-detail')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'User Accounts' })).toHaveClass('active');
    expect(screen.getByRole('link', { name: 'Dashboard' })).not.toHaveClass('active');
  });

  it('says which wallet was refreshed', async () => {
    partnerApi();
    renderRoutes(adminRoutes, '/dashboard');
    await screen.findByText('₹12,34,567.89');
    await userEvent.click(screen.getByRole('button', { name: 'Refresh API Wallet' }));
    expect(await screen.findByText('API wallet refreshed')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Refresh Product Wallet' }));
    expect(await screen.findByText('Product wallet refreshed')).toBeInTheDocument();
  });

  it('asks before logging out', async () => {
    partnerApi();
    const { router } = renderRoutes(adminRoutes, '/dashboard');
    await userEvent.click(screen.getByRole('button', { name: 'Logout' }));
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByText('Are you sure you want to logout?')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Logout' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Logout' }));
    expect(await screen.findByText('logged out')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/logout');
  });
});

describe('SuperAdminLayout', () => {

  it('shows the menu, the page title and the e-mail', async () => {
    setSuperAdminToken(superAdminJwt());
    mockApi({ 'GET /superadmin/me': { status: 200, body: { email: 'root@platform.test' } } });
    renderRoutes(
      [{ element: <SuperAdminLayout />, children: [{ path: '/superadmin/wallet-transactions', element: <p>list</p> }] }],
      '/superadmin/wallet-transactions',
    );
    const menu = screen.getByRole('complementary', { name: 'Super admin menu' });
    expect(within(menu).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'Dashboard', 'Clients', "Test API's", "API's", 'Plans', 'Wallet Transactions', 'Jobs', 'Mail', 'Logout',
    ]);
    expect(screen.getByRole('heading', { name: 'Wallet Transactions' })).toBeInTheDocument();
    expect(await screen.findByText('root@platform.test')).toBeInTheDocument();
  });
});
