import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setPartnerToken } from '@/lib/auth';
import { partnerJwt } from '@/testing/jwt';
import { mockApi, renderRoutes } from '@/testing/test-utils';
import { marginError } from '../api/selling-prices';
import { SellingPrices } from './selling-prices';

const item = (service: string, name: string, selling: number | null, sells_at: number) => ({
  api_id: 1, service, name, category: 'Identity', pid: 'PID1', amount_paise: 500, selling_price_paise: selling, sells_at_paise: sells_at,
});
const body = { default_margin_percent: 20, default_margin_bps: 2000, items: [item('pan', 'PAN Verification', null, 600), item('gst', 'GSTIN Verification', 900, 900)] };

describe('SellingPrices', () => {
  beforeEach(() => setPartnerToken(partnerJwt()));

  it('shows the cost beside what users pay, and saves a margin', async () => {
    const calls = mockApi({
      'GET /partner/selling-prices': { status: 200, body },
      'PUT /partner/selling-prices/margin': { status: 200, body: { ...body, default_margin_percent: 12.5, default_margin_bps: 1250 } },
    });
    renderRoutes([{ path: '/', element: <SellingPrices /> }], '/');
    const margin = await screen.findByLabelText('Default margin (%)');
    expect(margin).toHaveValue('20');
    for (const h of ['Your cost', 'Selling price']) expect(screen.getByRole('columnheader', { name: h })).toBeInTheDocument();
    expect(screen.getByText('₹6.00')).toBeInTheDocument();
    await userEvent.clear(margin);
    await userEvent.type(margin, '12.345');
    await userEvent.click(screen.getByRole('button', { name: 'Save margin' }));
    expect(screen.getByText('Margin can have at most two decimals')).toBeInTheDocument();
    await userEvent.clear(margin);
    await userEvent.type(margin, '12.5');
    await userEvent.click(screen.getByRole('button', { name: 'Save margin' }));
    expect(await screen.findByText('Margin updated successfully')).toBeInTheDocument();
    const put = calls.filter((c) => c.init.method === 'PUT');
    expect(JSON.parse(String(put[0].init.body))).toEqual({ default_margin_percent: 12.5 });
  });

  it("saves only changed selling prices, and 'Use margin' removes one", async () => {
    const calls = mockApi({
      'GET /partner/selling-prices': { status: 200, body },
      'PUT /partner/selling-prices': { status: 200, body: { changed: 1 } },
    });
    renderRoutes([{ path: '/', element: <SellingPrices /> }], '/');
    const pan = await screen.findByRole('spinbutton', { name: 'Selling price of PAN Verification' });
    await userEvent.type(pan, '7');
    await userEvent.type(screen.getByRole('spinbutton', { name: 'Selling price of GSTIN Verification' }), '9');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Price updated successfully')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Use margin' }));
    const puts = calls.filter((c) => c.init.method === 'PUT').map((c) => JSON.parse(String(c.init.body)));
    expect(puts[0]).toEqual({ prices: [{ service: 'pan', price_paise: 700 }] });
    await screen.findByText('Price updated successfully');
    expect(calls.filter((c) => c.init.method === 'PUT').map((c) => JSON.parse(String(c.init.body)))[1]).toEqual({ prices: [{ service: 'gst', price_paise: null }] });
  });

  it('words a bad margin as the API does', () => {
    expect(marginError('')).toBe('Margin is required');
    expect(marginError('abc')).toBe('Margin must be a number');
    expect(marginError('-3')).toBe('Margin cannot be negative');
    expect(marginError('1000.5')).toBe('Margin cannot be above 1000%');
    expect(marginError('33.33')).toBeNull();
  });
});
