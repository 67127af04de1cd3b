import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi, renderRoutes } from '@/testing/test-utils';
import { SubdomainStep } from './subdomain-step';

function setup(available: boolean) {
  let polls = 0;
  const calls = mockApi({
    'GET /subdomains/:name': { status: 200, body: { available } },
    'PUT /partner/subdomain': { status: 202, body: { job_id: 'j1' } },
    'GET /jobs/j1': () => {
      polls++;
      return { status: 200, body: { id: 'j1', kind: 'provision_subdomain', status: polls > 1 ? 'done' : 'running', attempts: 1 } };
    },
  });
  const onDone = vi.fn();
  renderRoutes([{ path: '/', element: <SubdomainStep userName="acme" onDone={onDone} /> }], '/');
  return { calls, onDone };
}

describe('SubdomainStep', () => {

  it('locks the user name and says when the name is free', async () => {
    setup(true);
    expect(screen.getByLabelText('User name')).toHaveValue('acme');
    expect(screen.getByLabelText('User name')).toBeDisabled();
    await userEvent.type(screen.getByLabelText('Website name'), 'Acme');
    expect(await screen.findByText('This username is available.')).toBeInTheDocument();
  });

  it('says when the name is taken', async () => {
    setup(false);
    await userEvent.type(screen.getByLabelText('Website name'), 'taken');
    expect(await screen.findByText('This username is not available.')).toBeInTheDocument();
  });

  it('claims the lower-cased name and waits for the provisioning job', async () => {
    const { calls, onDone } = setup(true);
    await userEvent.type(screen.getByLabelText('Website name'), 'MyBrand');
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByRole('button', { name: 'Wait...' })).toBeDisabled();
    await waitFor(() => expect(onDone).toHaveBeenCalled(), { timeout: 4000 });
    const claim = calls.find((c) => c.url === '/api/v1/partner/subdomain')!;
    expect(claim.init.method).toBe('PUT');
    expect(JSON.parse(String(claim.init.body))).toEqual({ subdomain: 'mybrand' });
  });

  it("says 'Something went wrong, Try again!.' when the check fails", async () => {
    mockApi({ 'GET /subdomains/:name': { network: true } });
    renderRoutes([{ path: '/', element: <SubdomainStep userName="acme" onDone={vi.fn()} /> }], '/');
    await userEvent.type(screen.getByLabelText('Website name'), 'acme');
    expect(await screen.findByText('Something went wrong, Try again!.')).toBeInTheDocument();
  });
});
