import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderRoutes } from '@/testing/test-utils';
import { ClientsFilter } from './clients-filter';

const empty = { first_name: '', last_name: '', email: '', phone_number: '', user_id: '' };

describe('ClientsFilter', () => {
  it('Clear empties what was typed but not applied, and its messages', async () => {
    const onClear = vi.fn();
    renderRoutes([{ path: '/', element: <ClientsFilter value={empty} onApply={() => {}} onClear={onClear} /> }], '/');
    await userEvent.type(screen.getByLabelText('First name'), 'Asha');
    await userEvent.type(screen.getByLabelText('User Id'), 'abc');
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText('User ID contains only numeric values.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Clear' }));
    expect(screen.getByLabelText('First name')).toHaveValue('');
    expect(screen.getByLabelText('User Id')).toHaveValue('');
    expect(screen.queryByText('User ID contains only numeric values.')).not.toBeInTheDocument();
    expect(onClear).toHaveBeenCalledTimes(1);
  });
});
