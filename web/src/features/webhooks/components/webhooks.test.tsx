import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi, renderRoutes } from '@/testing/test-utils';
import { Webhooks } from './webhooks';

const endpoint = {
  id: 7,
  url: 'https://hooks.example.com/kyc',
  events: ['batch.completed'],
  enabled: true,
  disabled_reason: null,
  previous_secret_until: null,
  created_at: '2026-11-20T10:00:00Z',
};
const delivery = {
  id: 31,
  event_id: 'evt_01JTEST',
  type: 'webhook.test',
  status: 'pending',
  attempts: [{ at: '2026-11-20T10:01:00Z', status_code: 503, latency_ms: 42, response_excerpt: 'busy' }],
  next_attempt_at: '2026-11-20T10:01:05Z',
  created_at: '2026-11-20T10:01:00Z',
};

function render(routes: Parameters<typeof mockApi>[0], scope: 'me' | 'partner' = 'me') {
  const base = scope === 'me' ? '/me' : '/partner';
  const calls = mockApi({ [`GET ${base}/webhooks`]: { status: 200, body: [endpoint] }, ...routes });
  renderRoutes([{ path: '/', element: <Webhooks scope={scope} /> }], '/');
  return calls;
}

describe('Webhooks', () => {
  it('adds an endpoint for the events picked and shows its secret once', async () => {
    const calls = render({ 'POST /me/webhooks': { status: 201, body: { ...endpoint, id: 8, secret: 'whsec_SECRETSECRET' } } });
    await screen.findByText('https://hooks.example.com/kyc');
    await userEvent.click(screen.getByRole('button', { name: 'Add endpoint' }));
    expect(screen.getByText('URL is required')).toBeInTheDocument();
    expect(screen.getByText('Choose at least one event')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Endpoint URL'), 'https://example.com/in');
    await userEvent.click(screen.getByLabelText(/A batch finished/));
    await userEvent.click(screen.getByRole('button', { name: 'Add endpoint' }));
    const dialog = await screen.findByRole('dialog', { name: 'Your endpoint is registered' });
    expect(within(dialog).getByTestId('webhook-secret')).toHaveTextContent('whsec_SECRETSECRET');
    const post = calls.find((c) => c.init.method === 'POST')!;
    expect(JSON.parse(post.init.body!)).toEqual({ url: 'https://example.com/in', events: ['batch.completed'] });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByText('whsec_SECRETSECRET')).not.toBeInTheDocument();
  });

  it('shows the server refusal of a private address on the URL field', async () => {
    render({
      'POST /me/webhooks': {
        status: 422,
        body: { error: { code: 'validation_failed', message: 'Invalid', fields: { url: 'URL must lead to a public address, not a local or private one' } } },
      },
    });
    await userEvent.type(await screen.findByLabelText('Endpoint URL'), 'http://127.0.0.1/in');
    await userEvent.click(screen.getByLabelText(/Test events/));
    await userEvent.click(screen.getByRole('button', { name: 'Add endpoint' }));
    expect(await screen.findByText('URL must lead to a public address, not a local or private one')).toBeInTheDocument();
  });

  it('sends a test event and shows the delivery log with attempts, next attempt and Replay', async () => {
    const calls = render({
      'POST /me/webhooks/7/test': { status: 202, body: { delivery_id: 31 } },
      'GET /me/webhooks/7/deliveries': { status: 200, body: { items: [delivery], page: 1, per_page: 10, total: 1, pages: 1 } },
      'POST /me/webhook-deliveries/31/replay': { status: 202 },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Send test event to https://hooks.example.com/kyc' }));
    const log = await screen.findByRole('region', { name: 'Deliveries' });
    expect(await within(log).findByText('evt_01JTEST')).toBeInTheDocument();
    expect(within(log).getByTestId('delivery-status')).toHaveTextContent('Pending');
    expect(within(log).getByText(/503, 42 ms/)).toBeInTheDocument();
    await userEvent.click(within(log).getByRole('button', { name: 'Replay evt_01JTEST' }));
    await waitFor(() => expect(calls.some((c) => c.url.endsWith('/me/webhook-deliveries/31/replay'))).toBe(true));
  });

  it('lists partner events on the console and rolls a secret there', async () => {
    render({ 'POST /partner/webhooks/7/roll-secret': { status: 200, body: { secret: 'whsec_ROLLED' } } }, 'partner');
    expect(await screen.findByLabelText(/A user signed up on your site/)).toBeInTheDocument();
    await userEvent.click(await screen.findByRole('button', { name: 'Roll secret of https://hooks.example.com/kyc' }));
    const dialog = await screen.findByRole('dialog', { name: 'New signing secret' });
    expect(within(dialog).getByTestId('webhook-secret')).toHaveTextContent('whsec_ROLLED');
    expect(within(dialog).getByText(/24 hours/)).toBeInTheDocument();
  });
});
