import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi, renderRoutes } from '@/testing/test-utils';
import { SmtpStep } from './smtp-step';

describe('SmtpStep', () => {

  it('requires every field and sends the settings with yes/no defaulting to yes', async () => {
    const calls = mockApi({ 'PUT /partner/smtp': { status: 200, body: {} } });
    const onDone = vi.fn();
    renderRoutes([{ path: '/', element: <SmtpStep onDone={onDone} /> }], '/');
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(screen.getByText('Host is required')).toBeInTheDocument();
    expect(screen.getByText('Company name is required')).toBeInTheDocument();

    await userEvent.type(screen.getByLabelText('Host'), 'smtp.example.com');
    await userEvent.type(screen.getByLabelText('Port'), '587');
    await userEvent.type(screen.getByLabelText('User email'), 'mail@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'pw');
    await userEvent.type(screen.getByLabelText('From'), 'noreply@example.com');
    await userEvent.type(screen.getByLabelText('Company name'), 'Acme');
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(calls[0].url).toBe('/api/v1/partner/smtp');
    expect(calls[0].init.method).toBe('PUT');
    expect(JSON.parse(String(calls[0].init.body))).toEqual({
      host: 'smtp.example.com',
      port: 587,
      user: 'mail@example.com',
      password: 'pw',
      from: 'noreply@example.com',
      company_name: 'Acme',
      secure: true,
      active: true,
    });
  });

  it('Skip moves on without the form', async () => {
    const calls = mockApi({ 'POST /partner/smtp/skip': { status: 200, body: {} } });
    const onDone = vi.fn();
    renderRoutes([{ path: '/', element: <SmtpStep onDone={onDone} /> }], '/');
    await userEvent.click(screen.getByRole('button', { name: 'Skip' }));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(calls[0].url).toBe('/api/v1/partner/smtp/skip');
  });
});
