import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setPartnerToken } from '@/lib/auth';
import { partnerJwt } from '@/testing/jwt';
import { mockApi, renderRoutes } from '@/testing/test-utils';
import MyApisPage from './my-apis';

const catalogue = {
  items: [
    { api_id: 1, service: 'pan_check', name: 'PAN Check', category: 'Identity', pid: 'PID1', is_sandbox: false },
    { api_id: 2, service: 'gst_check', name: 'GST Check', category: 'Business', pid: 'PID2', is_sandbox: false },
  ],
  categories: ['Business', 'Identity'],
};

describe('My APIs', () => {
  beforeEach(() => setPartnerToken(partnerJwt()));

  it('lists every API shown unless explicitly hidden, and applies a choice at once', async () => {
    const calls = mockApi({
      'GET /catalogue': { status: 200, body: catalogue },
      'GET /partner/visibility': { status: 200, body: { apis: { gst_check: false }, categories: {} } },
      'PATCH /partner/visibility': { status: 200, body: { apis: { gst_check: false, pan_check: false }, categories: {} } },
    });
    renderRoutes([{ path: '/', element: <MyApisPage /> }], '/');
    const pan = await screen.findByRole('radiogroup', { name: 'PAN Check' });
    const gst = screen.getByRole('radiogroup', { name: 'GST Check' });
    await waitFor(() => expect(within(pan).getByRole('radio', { name: 'Show' })).toBeChecked());
    expect(within(gst).getByRole('radio', { name: 'Hide' })).toBeChecked();

    await userEvent.click(within(pan).getByRole('radio', { name: 'Hide' }));
    expect(await screen.findByText('PAN Check is hidden')).toBeInTheDocument();
    const patch = calls.find((c) => c.init.method === 'PATCH');
    expect(JSON.parse(String(patch?.init.body))).toEqual({ apis: { pan_check: false }, categories: {} });
    expect(within(screen.getByRole('radiogroup', { name: 'PAN Check' })).getByRole('radio', { name: 'Hide' })).toBeChecked();
  });

  it("says 'No apis available' for an empty catalogue", async () => {
    mockApi({ 'GET /catalogue': { status: 200, body: { items: [], categories: [] } }, 'GET /partner/visibility': { status: 200, body: { apis: {}, categories: {} } } });
    renderRoutes([{ path: '/', element: <MyApisPage /> }], '/');
    expect(await screen.findByText('No apis available')).toBeInTheDocument();
  });

  it('shows an API the super admin hid as hidden by the platform, not to be changed, and searches the list', async () => {
    mockApi({
      'GET /catalogue': { status: 200, body: catalogue },
      'GET /partner/visibility': { status: 200, body: { apis: {}, categories: {}, hidden_by_platform: ['gst_check'] } },
    });
    renderRoutes([{ path: '/', element: <MyApisPage /> }], '/');
    const gst = await screen.findByRole('radiogroup', { name: 'GST Check' });
    await waitFor(() => expect(within(gst).getByRole('radio', { name: 'Hide' })).toBeChecked());
    expect(within(gst).getByRole('radio', { name: 'Show' })).toBeDisabled();
    expect(screen.getByText('Hidden by the platform')).toBeInTheDocument();
    expect(within(screen.getByRole('radiogroup', { name: 'PAN Check' })).getByRole('radio', { name: 'Show' })).toBeEnabled();

    await userEvent.type(screen.getByLabelText('Search'), 'identity');
    expect(screen.getByRole('radiogroup', { name: 'PAN Check' })).toBeInTheDocument();
    expect(screen.queryByRole('radiogroup', { name: 'GST Check' })).not.toBeInTheDocument();
  });
});
