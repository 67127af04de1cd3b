import { screen } from '@testing-library/react';
import { mockApi, renderRoutes } from '@/testing/test-utils';
import SuperAdminDashboardPage from './dashboard';

describe('SuperAdminDashboardPage', () => {

  it('shows the four counts with Indian grouping', async () => {
    mockApi({
      'GET /superadmin/dashboard': {
        status: 200,
        body: { total_users: 1234567, total_transactions: 89, accessed_products: 12, current_credits_paise: 12345678 },
      },
    });
    renderRoutes([{ path: '/superadmin/dashboard', element: <SuperAdminDashboardPage /> }], '/superadmin/dashboard');
    expect(screen.getByText('Total Users')).toBeInTheDocument();
    expect(screen.getByText('Total Transactions')).toBeInTheDocument();
    expect(screen.getByText('Accessed products')).toBeInTheDocument();
    expect(screen.getByText('Current credits')).toBeInTheDocument();
    expect(await screen.findByText('12,34,567')).toBeInTheDocument();
    expect(screen.getByText('89')).toBeInTheDocument();
    expect(screen.getByText('₹1,23,456.78')).toBeInTheDocument();
  });
});
