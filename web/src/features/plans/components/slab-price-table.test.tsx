import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setSuperAdminToken } from '@/lib/auth';
import { superAdminJwt } from '@/testing/jwt';
import { mockApi, renderRoutes } from '@/testing/test-utils';
import { SlabPriceTable } from './slab-price-table';

const row = (service: string, name: string, price_paise: number) => ({
  api_id: 1, service, name, category: 'Identity', pid: 'PID1', price_paise, default_price_paise: price_paise, updated_at: '2026-01-01T00:00:00Z',
});
const page = { items: [row('pan', 'PAN Verification', 300), row('gst', 'GSTIN Verification', 500)], page: 1, per_page: 50, total: 2, pages: 1 };

describe('SlabPriceTable', () => {
  beforeEach(() => setSuperAdminToken(superAdminJwt()));

  it('edits one row at a time; Save is disabled while the input is empty; cancel drops the edit', async () => {
    mockApi({ 'GET /superadmin/plans/premium/prices': { status: 200, body: page } });
    renderRoutes([{ path: '/', element: <SlabPriceTable plan="premium" /> }], '/');
    await userEvent.click(await screen.findByRole('button', { name: 'Edit price of PAN Verification' }));
    expect(screen.getByRole('button', { name: 'Edit price of GSTIN Verification' })).toBeDisabled();
    const input = screen.getByRole('spinbutton', { name: 'New price of PAN Verification' });
    expect(input).toHaveValue(3);
    await userEvent.clear(input);
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    await userEvent.type(input, '4');
    expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled();
    await userEvent.click(screen.getByRole('button', { name: 'cancel' }));
    expect(screen.queryByRole('spinbutton')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Edit price of GSTIN Verification' })).toBeEnabled();
  });

  it('saves the one edited row in paise and shows the new price', async () => {
    let price = 300;
    const calls = mockApi({
      'PUT /superadmin/plans/premium/prices': ({ init }) => {
        price = JSON.parse(String(init.body)).prices[0].price_paise;
        return { status: 200, body: { changed: 1 } };
      },
      'GET /superadmin/plans/premium/prices': () => ({
        status: 200,
        body: { ...page, items: [row('pan', 'PAN Verification', price), page.items[1]] },
      }),
    });
    renderRoutes([{ path: '/', element: <SlabPriceTable plan="premium" /> }], '/');
    await userEvent.click(await screen.findByRole('button', { name: 'Edit price of PAN Verification' }));
    const input = screen.getByRole('spinbutton');
    await userEvent.clear(input);
    // jsdom drops the intermediate "4." of a number input typed key by key; paste it whole.
    await userEvent.paste('4.25');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Price updated successfully')).toBeInTheDocument();
    const put = calls.find((c) => c.init.method === 'PUT')!;
    expect(put.url).toBe('/api/v1/superadmin/plans/premium/prices');
    expect(JSON.parse(String(put.init.body))).toEqual({ prices: [{ service: 'pan', price_paise: 425 }] });
    const first = screen.getAllByRole('row')[1];
    await waitFor(() => expect(within(first).getByText('₹4.25')).toBeInTheDocument());
    expect(screen.queryByRole('spinbutton')).not.toBeInTheDocument();
  });

  it('polls the job when the server queues the prices (202)', async () => {
    let polls = 0;
    mockApi({
      'PUT /superadmin/plans/pro/prices': { status: 202, body: { job_id: 'j1' } },
      'GET /jobs/j1': () => {
        polls += 1;
        return { status: 200, body: { id: 'j1', kind: 'bulk_update_prices', status: polls > 1 ? 'done' : 'running', attempts: 1, last_error: null, created_at: '', finished_at: null } };
      },
      'GET /superadmin/plans/pro/prices': { status: 200, body: page },
    });
    renderRoutes([{ path: '/', element: <SlabPriceTable plan="pro" /> }], '/');
    await userEvent.click(await screen.findByRole('button', { name: 'Edit price of PAN Verification' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Prices updated successfully', {}, { timeout: 4000 })).toBeInTheDocument();
    expect(polls).toBeGreaterThanOrEqual(2);
  });
});
