import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi, renderRoutes } from '@/testing/test-utils';
import { AddServiceModal } from './add-service-modal';

const services = [
  { service: 'pan_verification', name: 'PAN Verification' },
  { service: 'gstin_verification', name: 'GSTIN Verification' },
];

function renderModal(onAdded = vi.fn()) {
  renderRoutes([{ path: '/', element: <AddServiceModal open services={services} onClose={() => {}} onAdded={onAdded} /> }], '/');
  return onAdded;
}

describe('AddServiceModal', () => {

  it('shows the three required messages without calling the server', async () => {
    const calls = mockApi({ 'POST /superadmin/plans/prices': { status: 500 } });
    renderModal();
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(screen.getByText('Plan Type is required')).toBeInTheDocument();
    expect(screen.getByText('Service Name is required')).toBeInTheDocument();
    expect(screen.getByText('Price is required')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('refuses a negative price and a price that is not a number', async () => {
    const calls = mockApi({ 'POST /superadmin/plans/prices': { status: 500 } });
    renderModal();
    await userEvent.selectOptions(screen.getByLabelText('Plan Type'), 'premium');
    await userEvent.selectOptions(screen.getByLabelText('Service Name'), 'pan_verification');
    const price = screen.getByLabelText('Price (₹)');
    await userEvent.type(price, '-5');
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(screen.getByText('Price cannot be negative')).toBeInTheDocument();
    await userEvent.clear(price);
    await userEvent.type(price, 'ten');
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(screen.getByText('Price must be a number')).toBeInTheDocument();
    expect(screen.queryByText('Plan Type is required')).not.toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('sends the price in paise and reports the plan it went to', async () => {
    const calls = mockApi({ 'POST /superadmin/plans/prices': { status: 201, body: { plan: 'pro', service: 'gstin_verification', price_paise: 1250 } } });
    const onAdded = renderModal();
    await userEvent.selectOptions(screen.getByLabelText('Plan Type'), 'pro');
    await userEvent.selectOptions(screen.getByLabelText('Service Name'), 'gstin_verification');
    await userEvent.type(screen.getByLabelText('Price (₹)'), '12.50');
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(onAdded).toHaveBeenCalledWith('pro'));
    expect(calls[0].url).toBe('/api/v1/superadmin/plans/prices');
    expect(JSON.parse(String(calls[0].init.body))).toEqual({ plan_type: 'pro', service: 'gstin_verification', price_paise: 1250 });
  });

  it("shows the server's message and field errors", async () => {
    mockApi({ 'POST /superadmin/plans/prices': {
      status: 422,
      body: { error: { code: 'validation_failed', message: 'Service Name is required', fields: { service: 'Unknown service: x' } } },
    } });
    renderModal();
    await userEvent.selectOptions(screen.getByLabelText('Plan Type'), 'default');
    await userEvent.selectOptions(screen.getByLabelText('Service Name'), 'pan_verification');
    await userEvent.type(screen.getByLabelText('Price (₹)'), '3');
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Error! Service Name is required');
    expect(screen.getByText('Unknown service: x')).toBeInTheDocument();
  });
});
