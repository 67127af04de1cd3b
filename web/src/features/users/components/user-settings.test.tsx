import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi, renderRoutes } from '@/testing/test-utils';
import { readSelectedUser } from '../api/selected-user';
import type { User } from '../api/types';
import { UserSettings } from './user-settings';

const user: User = {
  id: 5,
  first_name: 'Asha',
  last_name: 'Rao',
  email: 'asha@example.com',
  phone_number: null,
  is_active: true,
  full_access: false,
  created_at: '2024-01-15T10:30:00Z',
};

describe('UserSettings', () => {
  afterEach(() => {
    sessionStorage.clear();
  });

  it('posts a Plan Status or Access Control choice at once and keeps the stored user in step', async () => {
    const calls = mockApi({ 'PATCH /partner/users/5': ({ init }) => ({ status: 200, body: { ...user, ...JSON.parse(String(init.body)) } }) });
    renderRoutes([{ path: '/', element: <UserSettings user={user} /> }], '/');
    expect(screen.getByRole('radio', { name: 'Active' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'Partial Access' })).toBeChecked();

    await userEvent.click(screen.getByRole('radio', { name: 'Full Access' }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0].url).toBe('/api/v1/partner/users/5');
    expect(calls[0].init.method).toBe('PATCH');
    expect(JSON.parse(String(calls[0].init.body))).toEqual({ full_access: true });
    await waitFor(() => expect(readSelectedUser()?.full_access).toBe(true));

    await userEvent.click(screen.getByRole('radio', { name: 'Inactive' }));
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(JSON.parse(String(calls[1].init.body))).toEqual({ is_active: false });
  });
});
