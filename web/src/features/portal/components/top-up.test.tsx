import { screen } from '@testing-library/react';
import { portalMe, portalSite } from '@/testing/portal';
import { mockApi, renderRoutes } from '@/testing/test-utils';
import { TopUp } from './top-up';

describe('TopUp', () => {
  it('shows the QR code with its instruction and the card provider', async () => {
    mockApi({
      'GET /me/top-up': {
        status: 200,
        body: {
          qr: { image_url: '/files/qr.png?sig=1', description: 'Scan and pay' },
          card: { name: 'Razorpay', description: 'Cards and UPI', logo_url: '/files/logo.png?sig=2', minimum_api_amount_paise: 50000, currency: 'INR' },
        },
      },
    });
    renderRoutes([{ path: '/', element: <TopUp me={portalMe} site={portalSite} /> }], '/');
    expect(await screen.findByRole('img', { name: 'QR code for payment' })).toHaveAttribute('src', '/files/qr.png?sig=1');
    expect(screen.getByTestId('qr-description')).toHaveTextContent('Scan and pay');
    expect(screen.getByRole('img', { name: 'Razorpay logo' })).toBeInTheDocument();
    expect(screen.getByText('Cards and UPI')).toBeInTheDocument();
    expect(screen.getByText('Minimum top-up: ₹500.00')).toBeInTheDocument();
    expect(screen.getByText('₹1,23,456.78')).toBeInTheDocument();
  });

  it('says there is no QR code yet without asking to scan one, and no card section without a provider', async () => {
    mockApi({ 'GET /me/top-up': { status: 200, body: { qr: { image_url: null, description: 'Scan the QR code to pay' }, card: null } } });
    renderRoutes([{ path: '/', element: <TopUp me={portalMe} site={portalSite} /> }], '/');
    expect(await screen.findByText('No QR code has been set up yet. Contact your provider below to pay.')).toBeInTheDocument();
    expect(screen.queryByTestId('qr-description')).not.toBeInTheDocument();
    expect(screen.queryByText(/Scan the QR code/)).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Pay by card' })).not.toBeInTheDocument();
  });
});
