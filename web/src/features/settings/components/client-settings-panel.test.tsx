import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi, renderRoutes } from '@/testing/test-utils';
import { ClientSettingsPanel } from './client-settings-panel';
import { DocumentationForm } from './documentation-form';

const settings = {
  test_api: false, batch_processing: false, is_active: true, restrict_all_apis: false,
  base_url: null, old_base_url: null, base_url_active: false, documentation_link: null,
};

describe('ClientSettingsPanel', () => {
  it('saves a choice as it is made', async () => {
    const calls = mockApi({
      'GET /superadmin/clients/7/settings': { status: 200, body: settings },
      'PATCH /superadmin/clients/7/settings': { status: 200, body: { ...settings, restrict_all_apis: true } },
    });
    renderRoutes([{ path: '/', element: <ClientSettingsPanel clientId={7} subdomain="demo" /> }], '/');
    await userEvent.selectOptions(await screen.findByLabelText('Restrict ALL APIs'), 'true');
    expect(await screen.findByText('Restrict ALL APIs updated')).toBeInTheDocument();
    const patch = calls.find((c) => c.init.method === 'PATCH');
    expect(JSON.parse(patch!.init.body!)).toEqual({ restrict_all_apis: true });
    expect(screen.getByLabelText('Restrict ALL APIs')).toHaveValue('on');
  });

  it('keeps the base URL fields disabled while the status is false', async () => {
    const calls = mockApi({
      'GET /superadmin/clients/7/settings': { status: 200, body: settings },
      'PATCH /superadmin/clients/7/settings': { status: 200, body: { ...settings, base_url: 'https://kyc.example/v2', base_url_active: true } },
    });
    renderRoutes([{ path: '/', element: <ClientSettingsPanel clientId={7} subdomain="demo" /> }], '/');
    await userEvent.click(await screen.findByRole('button', { name: 'Update API Base Url' }));
    const dialog = screen.getByRole('dialog');
    const url = within(dialog).getByLabelText('Base Url');
    expect(url).toBeDisabled();
    await userEvent.selectOptions(within(dialog).getByLabelText('Status'), 'true');
    expect(url).toBeEnabled();
    await userEvent.type(url, 'ftp://nope');
    expect(within(dialog).getByText('Invalid URL')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Save' })).toBeDisabled();
    await userEvent.clear(url);
    await userEvent.type(url, 'https://kyc.example/v2');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('API Base Url updated')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(JSON.parse(calls.find((c) => c.init.method === 'PATCH')!.init.body!)).toEqual({ base_url: 'https://kyc.example/v2', base_url_active: true });
    expect(screen.getByText('https://kyc.example/v2')).toBeInTheDocument();
  });
});

describe('Update Domain', () => {
  it('moves the site and reports a taken name on the field', async () => {
    const onChanged = vi.fn();
    let n = 0;
    mockApi({
      'GET /superadmin/clients/7/settings': { status: 200, body: settings },
      'PUT /superadmin/clients/7/subdomain': () =>
        ++n === 1
          ? { status: 409, body: { error: { code: 'conflict', message: 'Taken', fields: { subdomain: 'This subdomain is not available' } } } }
          : { status: 202, body: { job_id: '01J', subdomain: 'demo-new', url: 'http://demo-new.localhost' } },
    });
    renderRoutes([{ path: '/', element: <ClientSettingsPanel clientId={7} subdomain="demo" onDomainChanged={onChanged} /> }], '/');
    await userEvent.click(await screen.findByRole('button', { name: 'Update Domain' }));
    const dialog = screen.getByRole('dialog');
    const field = within(dialog).getByLabelText('Subdomain');
    expect(field).toHaveValue('demo');
    await userEvent.clear(field);
    expect(within(dialog).getByRole('button', { name: 'Save' })).toBeDisabled();
    await userEvent.type(field, 'taken');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('This subdomain is not available')).toBeInTheDocument();
    await userEvent.clear(field);
    await userEvent.type(field, 'demo-new');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Domain updated to demo-new')).toBeInTheDocument();
    expect(onChanged).toHaveBeenCalledTimes(1);
  });
});

describe('DocumentationForm', () => {
  it('takes an https link only', async () => {
    const calls = mockApi({
      'GET /superadmin/clients/7/settings': { status: 200, body: settings },
      'PATCH /superadmin/clients/7/settings': { status: 200, body: { ...settings, documentation_link: 'https://docs.example.in/api' } },
    });
    renderRoutes([{ path: '/', element: <DocumentationForm clientId={7} /> }], '/');
    const field = await screen.findByLabelText('Documentation link');
    await userEvent.type(field, 'http://docs.example.in');
    expect(screen.getByText('Invalid URL')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    await userEvent.clear(field);
    await userEvent.type(field, 'https://docs.example.in/api');
    expect(screen.queryByText('Invalid URL')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Documentation link saved')).toBeInTheDocument();
    expect(JSON.parse(calls.find((c) => c.init.method === 'PATCH')!.init.body!)).toEqual({ documentation_link: 'https://docs.example.in/api' });
  });
});
