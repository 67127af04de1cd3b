import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi, renderRoutes } from '@/testing/test-utils';
import { VisibilityAccordion } from './visibility-accordion';

const apis = [
  { service: 'pan_check', name: 'PAN Check', category: 'identity' },
  { service: 'aadhaar_check', name: 'Aadhaar Check', category: 'identity' },
  { service: 'gst_check', name: 'GST Check', category: 'business' },
];

describe('VisibilityAccordion', () => {
  it('opens a category, and shows or hides the category and each API for the client', async () => {
    const calls = mockApi({
      'GET /superadmin/clients/9/visibility': { status: 200, body: { apis: { gst_check: false }, categories: { identity: false } } },
      'PATCH /superadmin/clients/9/visibility': ({ init }) => {
        const b = JSON.parse(String(init.body));
        return { status: 200, body: { apis: { gst_check: false, ...b.apis }, categories: { identity: false, ...b.categories } } };
      },
    });
    renderRoutes([{ path: '/', element: <VisibilityAccordion scope={{ scope: 'client', id: 9 }} apis={apis} /> }], '/');

    const identity = await screen.findByRole('radiogroup', { name: 'Category identity' });
    expect(within(identity).getByRole('radio', { name: 'Hide' })).toBeChecked();
    expect(within(screen.getByRole('radiogroup', { name: 'Category business' })).getByRole('radio', { name: 'Show' })).toBeChecked();
    expect(screen.queryByRole('radiogroup', { name: 'PAN Check' })).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: /identity/ }));
    expect(screen.getByRole('button', { name: /identity/ })).toHaveAttribute('aria-expanded', 'true');
    expect(within(screen.getByRole('radiogroup', { name: 'PAN Check' })).getByRole('radio', { name: 'Show' })).toBeChecked();
    expect(screen.getAllByText('· hidden with its category')).toHaveLength(2);

    await userEvent.click(within(identity).getByRole('radio', { name: 'Show' }));
    expect(await screen.findByText('identity is shown')).toBeInTheDocument();
    await userEvent.click(within(screen.getByRole('radiogroup', { name: 'PAN Check' })).getByRole('radio', { name: 'Hide' }));
    expect(await screen.findByText('PAN Check is hidden')).toBeInTheDocument();
    await waitFor(() => expect(calls.filter((c) => c.init.method === 'PATCH')).toHaveLength(2));
    const [first, second] = calls.filter((c) => c.init.method === 'PATCH').map((c) => JSON.parse(String(c.init.body)));
    expect(first).toEqual({ apis: {}, categories: { identity: true } });
    expect(second).toEqual({ apis: { pan_check: false }, categories: {} });
  });
});
