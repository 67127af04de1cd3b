import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setPartnerToken } from '@/lib/auth';
import { partnerJwt } from '@/testing/jwt';
import { mockApi, renderRoutes } from '@/testing/test-utils';
import { UserPriceTable } from './user-price-table';

const item = (service: string, name: string, user_amount_paise: number) => ({
  api_id: 1, service, name, category: 'Identity', pid: 'PID1', amount_paise: 200, user_price_paise: null, user_amount_paise,
});
const list = { items: [item('pan', 'PAN Verification', 300), item('gst', 'GSTIN Verification', 500), item('dl', 'DL Verification', 700)] };

describe('UserPriceTable', () => {
  beforeEach(() => setPartnerToken(partnerJwt()));

  it('Save sends only the rows that changed', async () => {
    const calls = mockApi({
      'GET /partner/users/42/prices': { status: 200, body: list },
      'PUT /partner/users/42/prices': { status: 200, body: { changed: 1 } },
    });
    renderRoutes([{ path: '/', element: <UserPriceTable userId={42} /> }], '/');
    const pan = await screen.findByRole('spinbutton', { name: 'Change price of PAN Verification' });
    // jsdom drops the intermediate "4." of a number input typed key by key; paste it whole.
    await userEvent.click(pan);
    await userEvent.paste('4.5');
    // Same as the current price: not a change.
    await userEvent.type(screen.getByRole('spinbutton', { name: 'Change price of GSTIN Verification' }), '5');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Price updated successfully')).toBeInTheDocument();
    const put = calls.filter((c) => c.init.method === 'PUT');
    expect(put).toHaveLength(1);
    expect(put[0].url).toBe('/api/v1/partner/users/42/prices');
    expect(JSON.parse(String(put[0].init.body))).toEqual({ prices: [{ service: 'pan', price_paise: 450 }] });
    await waitFor(() => expect(pan).toHaveValue(null));
  });

  it('keeps the field (and its focus) while typing', async () => {
    mockApi({ 'GET /partner/users/42/prices': { status: 200, body: list } });
    renderRoutes([{ path: '/', element: <UserPriceTable userId={42} /> }], '/');
    const input = await screen.findByRole('spinbutton', { name: 'Change price of GSTIN Verification' });
    await userEvent.type(input, '125');
    expect(screen.getByRole('spinbutton', { name: 'Change price of GSTIN Verification' })).toBe(input);
    expect(input).toHaveFocus();
    expect(input).toHaveValue(125);
  });

  it('sends nothing when nothing changed, and refuses a negative price', async () => {
    const calls = mockApi({ 'GET /partner/users/42/prices': { status: 200, body: list } });
    renderRoutes([{ path: '/', element: <UserPriceTable userId={42} /> }], '/');
    await screen.findByText('PAN Verification');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('No price was changed')).toBeInTheDocument();
    await userEvent.type(screen.getByRole('spinbutton', { name: 'Change price of DL Verification' }), '-2');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText('Price cannot be negative')).toBeInTheDocument();
    expect(calls.filter((c) => c.init.method === 'PUT')).toHaveLength(0);
  });

  it('shows the partner’s cost beside each price, warns below it, and searches the list', async () => {
    mockApi({ 'GET /partner/users/42/prices': { status: 200, body: { items: [...list.items, item('cheap', 'Cheap Check', 150)] } } });
    renderRoutes([{ path: '/', element: <UserPriceTable userId={42} /> }], '/');
    expect(await screen.findByRole('columnheader', { name: 'Your cost' })).toBeInTheDocument();
    expect(await screen.findAllByText('₹2.00')).toHaveLength(4);
    expect(screen.getByText('Below cost')).toBeInTheDocument();
    const pan = screen.getByRole('spinbutton', { name: 'Change price of PAN Verification' });
    await userEvent.click(pan);
    await userEvent.paste('1.99');
    expect(screen.getByText('Below your cost of ₹2.00')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Search'), 'gstin');
    expect(screen.getByText('GSTIN Verification')).toBeInTheDocument();
    expect(screen.queryByText('DL Verification')).not.toBeInTheDocument();
  });
});
