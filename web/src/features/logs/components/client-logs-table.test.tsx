import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi, renderRoutes } from '@/testing/test-utils';
import { ClientLogsTable } from './client-logs-table';

const log = { id: 1, created_at: '2026-11-23T10:00:00Z', user_id: 42, service: 'pan_verification', pid: 'PID9', vid: 'v-1', vpid: 'up-1', status_code: 200, amount_paise: 100 };

describe('ClientLogsTable', () => {
  it('sends the filters and shows the logs', async () => {
    const calls = mockApi({
      'GET /superadmin/clients/7/api-logs': { status: 200, body: { items: [log], page: 1, per_page: 50, total: 1, pages: 1 } },
    });
    renderRoutes([{ path: '/', element: <ClientLogsTable clientId={7} services={[{ service: 'pan_verification', name: 'PAN' }]} /> }], '/');
    expect(await screen.findByText('PID9')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('User Id'), '4x');
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(screen.getByText('User ID contains only numeric values.')).toBeInTheDocument();
    await userEvent.clear(screen.getByLabelText('User Id'));
    await userEvent.type(screen.getByLabelText('User Id'), '42');
    await userEvent.type(screen.getByLabelText('VPID'), 'up-1');
    await userEvent.selectOptions(screen.getByLabelText('Services'), 'pan_verification');
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    await vi.waitFor(() => expect(calls.at(-1)!.url).toContain('user_id=42'));
    expect(calls.at(-1)!.url).toContain('vpid=up-1');
    expect(calls.at(-1)!.url).toContain('service=pan_verification');
    expect(calls.at(-1)!.url).toContain('per_page=50');
    await userEvent.click(screen.getByRole('button', { name: 'Clear' }));
    await vi.waitFor(() => expect(calls.at(-1)!.url).not.toContain('user_id'));
    expect(screen.getByLabelText('VPID')).toHaveValue('');
  });
});
