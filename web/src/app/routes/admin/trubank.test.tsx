import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setPartnerToken } from '@/lib/auth';
import { partnerJwt } from '@/testing/jwt';
import { mockApi, renderRoutes } from '@/testing/test-utils';
import TruBankPage from './trubank';

const page = (items: unknown[]) => ({ items, page: 1, per_page: 50, total: items.length, pages: items.length ? 1 : 0 });
const request = {
  id: 7,
  request_id: 'TRBABCDEFGH2345',
  user_id: 12,
  account_name: 'Asha Rao',
  account_number: '50100123459012',
  bank_name: 'HDFC Bank',
  status: 'pending',
  comment: null,
  file_url: 'http://localhost/files/partners/1/users/12/statement/ABCDE_s.pdf?expires=1&sig=x',
  result_file_url: null,
  amount_paise: 4900,
  user_amount_paise: 4900,
  created_at: '2026-11-24T10:00:00Z',
  updated_at: '2026-11-24T10:00:00Z',
  decided_at: null,
};

describe('TruBank', () => {
  beforeEach(() => setPartnerToken(partnerJwt()));

  it('shows the empty state', async () => {
    mockApi({ 'GET /partner/bank-statements': { status: 200, body: page([]) } });
    renderRoutes([{ path: '/trubank', element: <TruBankPage /> }], '/trubank');
    expect(await screen.findByText('No manual bank account verification request found.')).toBeInTheDocument();
  });

  it('lists requests with the statement link, and Change Status needs a status', async () => {
    const calls = mockApi({
      'GET /partner/bank-statements': { status: 200, body: page([request]) },
      'PUT /partner/bank-statements/7/status': { status: 200, body: { ...request, status: 'not_verified', comment: 'Blurred' } },
    });
    renderRoutes([{ path: '/trubank', element: <TruBankPage /> }], '/trubank');
    expect(await screen.findByText('TRBABCDEFGH2345')).toBeInTheDocument();
    expect(screen.getByText('Asha Rao')).toBeInTheDocument();
    expect(screen.getByText('50100123459012')).toBeInTheDocument();
    expect(screen.getByText('HDFC Bank')).toBeInTheDocument();
    expect(screen.getByText('Pending')).toBeInTheDocument();
    const view = screen.getByRole('link', { name: 'View statement' });
    expect(view).toHaveAttribute('href', request.file_url);
    expect(view).toHaveAttribute('target', '_blank');

    await userEvent.click(screen.getByRole('button', { name: 'Change Status' }));
    const dialog = screen.getByRole('dialog', { name: 'Change Status' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(within(dialog).getByText('Status is required')).toBeInTheDocument();
    expect(calls.some((c) => c.init.method === 'PUT')).toBe(false);

    // Only a PDF is taken as the file.
    const png = new File(['x'], 'shot.png', { type: 'image/png' });
    await userEvent.upload(within(dialog).getByLabelText('File (optional)'), png, { applyAccept: false });
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Not verified' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(within(dialog).getByText('Please select a PDF file')).toBeInTheDocument();
    await userEvent.upload(within(dialog).getByLabelText('File (optional)'), []);

    await userEvent.type(within(dialog).getByLabelText('Comment (optional)'), 'Blurred');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const put = calls.find((c) => c.init.method === 'PUT')!;
    expect(JSON.parse(put.init.body!)).toEqual({ status: 'not_verified', comment: 'Blurred' });
    expect(await screen.findByText('Status changed successfully')).toBeInTheDocument();
  });
});
