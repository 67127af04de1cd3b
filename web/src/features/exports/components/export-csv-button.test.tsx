import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi, renderRoutes } from '@/testing/test-utils';
import { isoDay } from '../api/request-export';
import { ExportCsvButton } from './export-csv-button';

const base = { id: 9, kind: 'api_transactions', created_at: '2026-11-23T10:00:00Z', from: '2026-11-01', to: '2026-11-23', user_id: 7, job_id: 'J1', error: null };

describe('ExportCsvButton', () => {
  it('requests the export, shows progress while it runs, then the links, and stops polling', async () => {
    const states = [
      { ...base, status: 'running', total_records: null, rows_written: 12000, urls: [] },
      { ...base, status: 'completed', total_records: 150000, rows_written: 150000, urls: ['/files/exports/9/a_part1.csv', '/files/exports/9/a_part2.csv'] },
    ];
    let reads = 0;
    const calls = mockApi({
      'POST /exports': { status: 202, body: { export_id: 9, job_id: 'J1' } },
      'GET /exports/9': () => ({ status: 200, body: states[Math.min(reads++, states.length - 1)] }),
    });
    renderRoutes([{ path: '/', element: <ExportCsvButton kind="api_transactions" userId={7} from="2026-11-01" to="2026-11-23" /> }], '/');
    await userEvent.click(screen.getByRole('button', { name: 'Export to CSV' }));
    expect(screen.getByRole('dialog', { name: 'Export to CSV' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Export' }));

    expect(await screen.findByText('In process')).toBeInTheDocument();
    expect(screen.getByText(/12,000 rows written/)).toBeInTheDocument();
    expect(screen.getByText('Link will be available soon')).toBeInTheDocument();
    expect(await screen.findByText('CSV is ready to download', {}, { timeout: 4000 })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Download part 2 of 2' })).toHaveAttribute('href', '/files/exports/9/a_part2.csv');
    expect(screen.getByText('150000')).toBeInTheDocument();
    expect(JSON.parse(calls[0].init.body!)).toEqual({ kind: 'api_transactions', user_id: 7, from: '2026-11-01', to: '2026-11-23' });

    // Completed: no more reads.
    const after = reads;
    await new Promise((r) => setTimeout(r, 2000));
    expect(reads).toBe(after);
  }, 10000);

  it("says 'No records' for an empty range", async () => {
    mockApi({
      'POST /exports': { status: 202, body: { export_id: 9, job_id: 'J1' } },
      'GET /exports/9': { status: 200, body: { ...base, status: 'completed', total_records: 0, rows_written: 0, urls: [] } },
    });
    renderRoutes([{ path: '/', element: <ExportCsvButton kind="wallet_entries" /> }], '/');
    await userEvent.click(screen.getByRole('button', { name: 'Export to CSV' }));
    await userEvent.click(screen.getByRole('button', { name: 'Export' }));
    expect(await screen.findByText('No records')).toBeInTheDocument();
    expect(screen.queryByText('CSV is ready to download')).not.toBeInTheDocument();
  });

  it('checks the date rules before sending, and shows the server’s field errors', async () => {
    const calls = mockApi({
      'POST /exports': {
        status: 422,
        body: { error: { code: 'validation_failed', message: 'From date cannot be later than today', fields: { from: 'From date cannot be later than today' } } },
      },
    });
    renderRoutes([{ path: '/', element: <ExportCsvButton kind="api_transactions" userId={7} from={isoDay(-1)} to={isoDay(2)} /> }], '/');
    await userEvent.click(screen.getByRole('button', { name: 'Export to CSV' }));
    await userEvent.click(screen.getByRole('button', { name: 'Export' }));
    expect(screen.getByText('To date cannot be later than tomorrow')).toBeInTheDocument();
    expect(calls).toHaveLength(0);

    const to = screen.getByLabelText('To');
    await userEvent.clear(to);
    await userEvent.type(to, isoDay(-2));
    await userEvent.click(screen.getByRole('button', { name: 'Export' }));
    expect(screen.getByText('From date cannot be after To date')).toBeInTheDocument();
    expect(calls).toHaveLength(0);

    await userEvent.clear(to);
    await userEvent.type(to, isoDay(0));
    await userEvent.click(screen.getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(await screen.findByText('From date cannot be later than today')).toBeInTheDocument();
  });
});
