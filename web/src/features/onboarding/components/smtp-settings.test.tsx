import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi, renderRoutes } from '@/testing/test-utils';
import type { SmtpView } from '../api/smtp';
import { SmtpSettings } from './smtp-settings';

const saved: SmtpView = {
  configured: true,
  host: 'smtp.acme.test',
  port: 587,
  user: 'mailer@acme.test',
  password: '********',
  from: 'no-reply@acme.test',
  company_name: 'Acme KYC',
  secure: true,
  active: true,
  last_failure: null,
};

const failure = {
  at: '2026-11-26T06:00:05Z',
  error: 'Connection error: Connection refused (os error 111)',
  mail: 'user_password_reset',
  fallback: true,
};

describe('SmtpSettings', () => {
  it('warns with the time, the mail and the error when the server failed a mail, and a test mail that goes through clears it', async () => {
    let reads = 0;
    const calls = mockApi({
      // The warning until the test mail has gone through, then none.
      'GET /partner/smtp': () => ({ status: 200, body: reads++ === 0 ? { ...saved, last_failure: failure } : saved }),
      'POST /partner/smtp/test': { status: 202, body: { job_id: 'J1' } },
      'GET /jobs/J1': { status: 200, body: { id: 'J1', kind: 'smtp_test', status: 'done', attempts: 1, last_error: null, created_at: failure.at, finished_at: failure.at } },
    });
    renderRoutes([{ path: '/', element: <SmtpSettings /> }], '/');
    const warning = await screen.findByRole('alert');
    expect(warning).toHaveTextContent("Your SMTP server did not send a user's password reset mail.");
    expect(warning).toHaveTextContent('At Thu Nov 26 2026 11:30:05 IST it answered: Connection error: Connection refused (os error 111)');
    expect(warning).toHaveTextContent("it was sent from the platform's mail server under your company name");

    await userEvent.click(screen.getByRole('button', { name: 'Send test mail' }));
    expect(await screen.findByText('Test mail sent to your address.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
    expect(calls.map((c) => `${c.init.method} ${c.url}`)).toContain('POST /api/v1/partner/smtp/test');
  });

  it('says a notification that failed is tried again, and shows nothing while the server works', async () => {
    mockApi({ 'GET /partner/smtp': { status: 200, body: { ...saved, last_failure: { ...failure, mail: 'low_balance', fallback: false } } } });
    const { unmount } = renderRoutes([{ path: '/', element: <SmtpSettings /> }], '/');
    const warning = await screen.findByRole('alert');
    expect(warning).toHaveTextContent('Your SMTP server did not send a low balance alert.');
    expect(warning).toHaveTextContent('It was not sent; it is tried again later.');
    unmount();

    mockApi({ 'GET /partner/smtp': { status: 200, body: saved } });
    renderRoutes([{ path: '/', element: <SmtpSettings /> }], '/');
    expect(await screen.findByRole('button', { name: 'Send test mail' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
