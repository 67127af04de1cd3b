import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi, renderRoutes } from '@/testing/test-utils';
import { EarningsPanel } from './earnings-panel';

const day = (d: string, r: number, c: number) => ({ day: d, calls: r ? 1 : 0, revenue_paise: r, cost_paise: c, margin_paise: r - c });
const body = (from: string, to: string) => ({
  from, to, calls: 3, revenue_paise: 360000, cost_paise: 300050, margin_paise: 59950,
  days: [day(from, 120000, 100000), day(to, 240000, 200050)],
  apis: [
    { service: 'pan_comprehensive', name: 'PAN Comprehensive', calls: 2, revenue_paise: 340000, cost_paise: 280000, margin_paise: 60000 },
    { service: 'aml_search', name: 'AML Search', calls: 1, revenue_paise: 20000, cost_paise: 20050, margin_paise: -50 },
  ],
});

describe('EarningsPanel', () => {
  it('shows the period totals and the per-API table, and asks for a chosen period', async () => {
    const calls = mockApi({
      'GET /partner/earnings': (call) => {
        const q = new URL(call.url, 'http://x').searchParams;
        return { status: 200, body: body(q.get('from') ?? '2026-11-23', q.get('to') ?? '2026-11-24') };
      },
    });
    renderRoutes([{ path: '/', element: <EarningsPanel /> }], '/');
    expect(await screen.findByText('₹3,600.00')).toBeInTheDocument();
    const revenue = screen.getByText('Revenue', { selector: '.tile-label' }).parentElement!;
    expect(within(revenue).getByText('₹3,600.00')).toBeInTheDocument();
    expect(screen.getByText('₹599.50', { selector: '.tile span' })).toBeInTheDocument();
    const row = screen.getByRole('row', { name: /AML Search/ });
    expect(within(row).getByText('-₹0.50')).toHaveClass('amount-negative');
    expect(calls[0].url).toBe('/api/v1/partner/earnings');

    const from = screen.getByLabelText('From');
    await userEvent.clear(from);
    await userEvent.type(from, '2026-12-01');
    expect(screen.getByText('From must not be after To')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Apply' })).toBeDisabled();
    await userEvent.clear(from);
    await userEvent.type(from, '2026-11-01');
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText(/1 Nov to 24 Nov/)).toBeInTheDocument();
    expect(calls.at(-1)!.url).toBe('/api/v1/partner/earnings?from=2026-11-01&to=2026-11-24');
  });
});
