import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi, renderRoutes } from '@/testing/test-utils';
import MailPage from './mail';

describe('MailPage', () => {
  it('lists the outbox and opens a message', async () => {
    mockApi({
      'GET /superadmin/mail': {
        status: 200,
        body: { items: [{ id: 'a.eml', to: 'asha@example.in', subject: 'Verify your e-mail', at: '2026-11-23T10:00:00Z' }], page: 1, per_page: 50, total: 1, pages: 1 },
      },
      'GET /superadmin/mail/:id': {
        status: 200,
        body: { id: 'a.eml', to: 'asha@example.in', from: 'KYC <no-reply@kyc.test>', subject: 'Verify your e-mail', at: '2026-11-23T10:00:00Z', text: 'Open https://kyc.test/verify-email/abc' },
      },
    });
    renderRoutes([{ path: '/superadmin/mail', element: <MailPage /> }], '/superadmin/mail');
    expect(await screen.findByText('asha@example.in')).toBeInTheDocument();
    expect(screen.getByText('1 messages')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'View' }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText('Open https://kyc.test/verify-email/abc')).toBeInTheDocument();
    expect(within(dialog).getByText('KYC <no-reply@kyc.test>')).toBeInTheDocument();
  });

  it('says when mail goes out over SMTP', async () => {
    mockApi({ 'GET /superadmin/mail': { status: 404, body: { error: { code: 'not_found', message: 'Mail goes out over SMTP: there is no outbox to show' } } } });
    renderRoutes([{ path: '/superadmin/mail', element: <MailPage /> }], '/superadmin/mail');
    expect(await screen.findByText('Mail goes out over SMTP: there is no outbox to show')).toBeInTheDocument();
  });
});
