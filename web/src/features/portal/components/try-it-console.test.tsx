import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi, renderRoutes } from '@/testing/test-utils';
import { TryItConsole } from './try-it-console';

const offers = [
  { service: 'pan_verification', name: 'PAN Verification', category: 'Identity', price_paise: 300, required_fields: ['pan_number'], sandbox: true },
  { service: 'gst_check', name: 'GST Check', category: 'Business', price_paise: 1500, required_fields: ['gstin', 'state'], sandbox: true },
  { service: 'live_only', name: 'Live Only', category: 'Bank', price_paise: 900, required_fields: ['x'], sandbox: false },
];

function render(reply: Parameters<typeof mockApi>[0][string], service?: string) {
  const calls = mockApi({ 'GET /me/apis': { status: 200, body: offers }, 'POST /me/try/:service': reply });
  renderRoutes([{ path: '/', element: <TryItConsole initialService={service} /> }], '/');
  return calls;
}

describe('TryItConsole', () => {
  it('builds the form from the required fields of the sandbox APIs only', async () => {
    render({ status: 200, body: {} }, 'gst_check');
    expect(await screen.findByLabelText('gstin')).toBeInTheDocument();
    expect(screen.getByLabelText('state')).toBeInTheDocument();
    const options = screen.getAllByRole('option').map((o) => o.textContent);
    expect(options).toEqual(['GST Check (₹15.00)', 'PAN Verification (₹3.00)']);
    await userEvent.selectOptions(screen.getByLabelText('API'), 'pan_verification');
    expect(screen.getByLabelText('pan_number')).toBeInTheDocument();
    expect(screen.queryByLabelText('gstin')).not.toBeInTheDocument();
  });

  it('asks for each blank field, then sends the call and shows status, charge, transaction and balance', async () => {
    const calls = render({
      status: 200,
      body: { status_code: 200, body: { data: { pan_status: 'VALID' } }, transaction_id: 9876, charged_paise: 300, balance_paise: 12345678, verification_id: 'VID1' },
    }, 'pan_verification');
    await userEvent.click(await screen.findByRole('button', { name: 'Send (₹3.00)' }));
    expect(screen.getByText('pan_number is required')).toBeInTheDocument();
    expect(calls.filter((c) => c.init.method === 'POST')).toHaveLength(0);

    await userEvent.type(screen.getByLabelText('pan_number'), 'ABCDE1234F');
    await userEvent.click(screen.getByRole('button', { name: 'Send (₹3.00)' }));
    expect(await screen.findByTestId('try-status')).toHaveTextContent('200');
    expect(screen.getByTestId('try-charged')).toHaveTextContent('₹3.00');
    expect(screen.getByTestId('try-transaction')).toHaveTextContent('9876');
    expect(screen.getByTestId('try-balance')).toHaveTextContent('₹1,23,456.78');
    expect(screen.getByLabelText('Response body')).toHaveTextContent('"pan_status": "VALID"');
    const post = calls.find((c) => c.init.method === 'POST')!;
    expect(post.url).toBe('/api/v1/me/try/pan_verification');
    expect(JSON.parse(post.init.body!)).toEqual({ pan_number: 'ABCDE1234F' });
  });

  it("shows the gateway's refusal: the message, and a field error on its field", async () => {
    render(
      { status: 402, body: { error: { code: 'insufficient_balance', message: 'Insufficient balance in your API wallet' } } },
      'pan_verification',
    );
    await userEvent.type(await screen.findByLabelText('pan_number'), 'X');
    await userEvent.click(screen.getByRole('button', { name: 'Send (₹3.00)' }));
    expect(await screen.findByText('Insufficient balance in your API wallet')).toBeInTheDocument();
  });

  it('says so when no API can be tried', async () => {
    mockApi({ 'GET /me/apis': { status: 200, body: [offers[2]] } });
    renderRoutes([{ path: '/', element: <TryItConsole /> }], '/');
    await waitFor(() => expect(screen.getByText(/No API can be tried from here yet/)).toBeInTheDocument());
  });
});
