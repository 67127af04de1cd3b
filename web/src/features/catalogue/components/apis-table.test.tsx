import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setSuperAdminToken } from '@/lib/auth';
import { superAdminJwt } from '@/testing/jwt';
import { mockApi, renderRoutes } from '@/testing/test-utils';
import { ApisTable } from './apis-table';

const page = (items: unknown[]) => ({ items, page: 1, per_page: 10, total: items.length, pages: 1 });
const api = { id: 7, name: 'New PAN Check', category: 'Identity', service: 'pan_new', pid: 'PID77', method: 'post', default_price_paise: 500, status: true };

describe('ApisTable', () => {
  beforeEach(() => setSuperAdminToken(superAdminJwt()));

  it('searches the catalogue by name, service or PID through the URL', async () => {
    const calls = mockApi({ 'GET /superadmin/apis': ({ url }) => ({ status: 200, body: page(url.includes('q=pan_new') ? [api] : []) }) });
    const { router } = renderRoutes([{ path: '/', element: <ApisTable /> }], '/?page=3');
    expect(await screen.findByText('No apis available')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Search'), 'pan_new');
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText('New PAN Check')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.search).toBe('?q=pan_new'));
    expect(calls.at(-1)?.url).toContain('page=1');
  });
});
