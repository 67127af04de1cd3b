import { screen } from '@testing-library/react';
import { setPartnerToken } from '@/lib/auth';
import { partnerJwt } from '@/testing/jwt';
import { mockApi, renderRoutes } from '@/testing/test-utils';
import { MyPlanView } from './my-plan-view';

describe('MyPlanView', () => {
  beforeEach(() => setPartnerToken(partnerJwt()));

  it("says 'No plan selected yet' without a plan", async () => {
    mockApi({ 'GET /partner/plan': { status: 200, body: { plan: null, customised: false, updated_at: null, items: [] } } });
    renderRoutes([{ path: '/', element: <MyPlanView /> }], '/');
    expect(await screen.findByText('No plan selected yet')).toBeInTheDocument();
  });

  it('shows the plan type, last-modified time and the read-only price list in rupees', async () => {
    mockApi({ 'GET /partner/plan': {
      status: 200,
      body: {
        plan: 'premium',
        updated_at: '2026-01-15T10:30:00Z',
        items: [{ api_id: 1, service: 'pan', category: 'Identity', name: 'PAN Verification', pid: 'PID1001', price_paise: 123450, sells_at_paise: 148140 }],
      },
    } });
    renderRoutes([{ path: '/', element: <MyPlanView /> }], '/');
    expect(await screen.findByText('Premium')).toBeInTheDocument();
    expect(screen.getByText('Last modified')).toBeInTheDocument();
    for (const h of ['Category', 'API Name', 'PID', 'Price']) expect(screen.getByRole('columnheader', { name: h })).toBeInTheDocument();
    expect(screen.getByText('₹1,234.50')).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Selling price' })).toBeInTheDocument();
    expect(screen.getByText('₹1,481.40')).toBeInTheDocument();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /edit|save/i })).not.toBeInTheDocument();
  });
});
