import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi, renderRoutes } from '@/testing/test-utils';
import { ClientPriceModal } from './client-price-modal';

const pan = {
  id: 3, name: 'PAN Check', category: 'identity', service: 'pan_check', method: 'post', endpoint: '/v1/pan',
  documentation_link: 'https://docs.example/pan', curl_code: 'curl -X POST …', response_code: { status: 'ok' },
  param_name: 'pan', header_param_name: '', description: 'Checks a PAN',
};

describe('ClientPriceModal', () => {
  it("shows the chosen API's catalogue fields beside its price and status", async () => {
    mockApi({ 'GET /superadmin/apis/3': { status: 200, body: pan } });
    renderRoutes(
      [{
        path: '/',
        element: (
          <ClientPriceModal clientId={9} entry={null} services={[{ api_id: 3, service: 'pan_check', name: 'PAN Check', category: 'identity' }]} onClose={() => {}} onDone={() => {}} />
        ),
      }],
      '/',
    );
    expect(screen.queryByText('End Point')).toBeNull();
    await userEvent.selectOptions(screen.getByLabelText('Service'), 'pan_check');
    expect(await screen.findByText('End Point')).toBeInTheDocument();
    for (const label of ['Name', 'Category', 'Services', 'Method', 'Documentation Link', 'Param Name', 'Header Param Name', 'Description', 'Curl Code', 'Response Code']) {
      expect(screen.getByText(label, { selector: 'dt' })).toBeInTheDocument();
    }
    expect(screen.getByText('/v1/pan')).toBeInTheDocument();
    expect(screen.getByText('POST')).toBeInTheDocument();
    expect(screen.getByText(/"status": "ok"/)).toBeInTheDocument();
    expect(screen.getByLabelText('Price (₹)')).toBeInTheDocument();
    expect(screen.getByRole('radiogroup', { name: 'Status' })).toBeInTheDocument();
  });
});
