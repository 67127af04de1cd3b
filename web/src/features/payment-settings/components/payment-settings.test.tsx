import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi, renderRoutes } from '@/testing/test-utils';
import { PaymentSettings } from './payment-settings';

const DEFAULT = 'Scan the QR code to pay, including GST, and share a screenshot.';
const none = {
  card: { configured: false, key_id: '', key_secret: '', name: '', description: '', logo_key: null, logo_url: null, minimum_api_amount_paise: null, minimum_product_amount_paise: null, theme_color: '', currency: 'INR' },
  qr: { qr_key: null, image_url: null, description: '', default_description: DEFAULT },
};
const saved = {
  ...none,
  card: { ...none.card, configured: true, key_id: '********3456', key_secret: '********', name: 'Razorpay', description: 'Cards and UPI', logo_key: 'partners/1/logo/ABCDE_l.png', logo_url: '/files/l.png', minimum_api_amount_paise: 50000, minimum_product_amount_paise: 100050, theme_color: '#3399CC' },
};

describe('PaymentSettings', () => {
  it('edits the card provider in a modal, every field required, and shows the keys masked', async () => {
    let current: unknown = none;
    const calls = mockApi({
      'GET /partner/payment-settings': () => ({ status: 200, body: current }),
      'PUT /partner/payment-settings/card': () => {
        current = saved;
        return { status: 200, body: saved };
      },
    });
    renderRoutes([{ path: '/', element: <PaymentSettings /> }], '/');
    await userEvent.click(await screen.findByRole('button', { name: 'Add new' }));
    const dialog = screen.getByRole('dialog', { name: 'Card payment provider' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    for (const m of ['Key id is required', 'Key secret is required', 'Name is required', 'Description is required', 'Please select a file', 'Minimum API amount is required', 'Minimum product amount is required']) {
      expect(within(dialog).getByText(m)).toBeInTheDocument();
    }
    await userEvent.type(within(dialog).getByLabelText('Minimum API amount (₹)'), 'abc');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText('Minimum API amount must be a number')).toBeInTheDocument();
    expect(calls.filter((c) => c.init.method === 'PUT')).toHaveLength(0);
  });

  it('keeps the saved keys when left empty and never shows them in clear', async () => {
    const calls = mockApi({
      'GET /partner/payment-settings': { status: 200, body: saved },
      'PUT /partner/payment-settings/card': { status: 200, body: saved },
    });
    renderRoutes([{ path: '/', element: <PaymentSettings /> }], '/');
    expect(await screen.findByText('********3456')).toBeInTheDocument();
    expect(screen.getByText('₹1,000.50')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Edit' }));
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByLabelText('Key Id')).toHaveValue('');
    expect(within(dialog).getByLabelText('Minimum product amount (₹)')).toHaveValue('1000.50');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Payment settings saved')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const put = calls.find((c) => c.init.method === 'PUT')!;
    expect(JSON.parse(put.init.body!)).toEqual({
      key_id: '', key_secret: '', name: 'Razorpay', description: 'Cards and UPI', logo_key: 'partners/1/logo/ABCDE_l.png',
      minimum_api_amount_paise: 50000, minimum_product_amount_paise: 100050, theme_color: '#3399CC', currency: 'INR',
    });
  });

  it('Qr Code: shows the default instruction while none is set and refuses a file over 1 MB', async () => {
    mockApi({ 'GET /partner/payment-settings': { status: 200, body: none } });
    renderRoutes([{ path: '/', element: <PaymentSettings /> }], '/?sub=qr');
    expect(await screen.findByText(DEFAULT, { exact: false })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText('Please select a file')).toBeInTheDocument();
    const big = new File([new Uint8Array(1024 * 1024 + 1)], 'qr.png', { type: 'image/png' });
    await userEvent.upload(screen.getByLabelText('QR code'), big);
    expect(screen.getByText('File size is too large. Please select a file smaller than 1MB.')).toBeInTheDocument();
  });
});
