import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setSuperAdminToken } from '@/lib/auth';
import { superAdminJwt } from '@/testing/jwt';
import { mockApi, renderRoutes } from '@/testing/test-utils';
import { ApiFormModal } from './api-form-modal';

const RULE = 'please enter response code as object ex: {"key":"value"}';

async function fillRequired(responseCode: string) {
  const type = (label: string, v: string) => userEvent.type(screen.getByLabelText(label), v);
  await type('Name', 'PAN Verification');
  await type('Category', 'Identity');
  await type('Service', 'pan_verification');
  await type('Description', 'Verifies a PAN');
  await type('Endpoint', '/v1/pan');
  await type('Documentation link', 'https://docs.example/pan');
  await type('Curl code', 'curl -X POST /v1/pan');
  await type('Default price (₹)', '3');
  const rc = screen.getByLabelText('Response code');
  await userEvent.clear(rc);
  // userEvent treats { and [ as key descriptors; paste puts the text in as is.
  rc.focus();
  await userEvent.paste(responseCode);
}

describe('ApiFormModal', () => {
  beforeEach(() => setSuperAdminToken(superAdminJwt()));

  it('requires every catalogue field but the parameter names', async () => {
    const calls = mockApi({ 'POST /superadmin/apis': { status: 500 } });
    renderRoutes([{ path: '/', element: <ApiFormModal api={null} onClose={() => {}} onDone={() => {}} /> }], '/');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    for (const m of [
      'Name is required',
      'Category is required',
      'Service is required',
      'Description is required',
      'Endpoint is required',
      'Documentation link is required',
      'Curl code is required',
      'Response code is required',
      'Price is required',
    ]) {
      expect(screen.getByText(m)).toBeInTheDocument();
    }
    expect(calls).toHaveLength(0);
  });

  it.each(['not json', '[1, 2]', '"text"', '42', 'null'])('refuses a response code that is not a JSON object: %s', async (rc) => {
    const calls = mockApi({ 'POST /superadmin/apis': { status: 500 } });
    renderRoutes([{ path: '/', element: <ApiFormModal api={null} onClose={() => {}} onDone={() => {}} /> }], '/');
    await fillRequired(rc);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText(RULE)).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('sends the response code as an object and the price in paise', async () => {
    const calls = mockApi({ 'POST /superadmin/apis': { status: 201, body: {} } });
    const onDone = vi.fn();
    renderRoutes([{ path: '/', element: <ApiFormModal api={null} onClose={() => {}} onDone={onDone} /> }], '/');
    await fillRequired('{"key":"value"}');
    await userEvent.type(screen.getByLabelText('Required fields'), 'pan_number, name');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onDone).toHaveBeenCalledWith('API added successfully'));
    expect(calls[0].url).toBe('/api/v1/superadmin/apis');
    const body = JSON.parse(String(calls[0].init.body));
    expect(body.response_code).toEqual({ key: 'value' });
    expect(body.default_price_paise).toBe(300);
    expect(body.required_fields).toEqual(['pan_number', 'name']);
    expect(body.method).toBe('post');
    expect(body).not.toHaveProperty('pid');
  });

  it("shows the server's response-code message on its field too", async () => {
    mockApi({ 'POST /superadmin/apis': { status: 422, body: { error: { code: 'validation_failed', message: 'Check the form', fields: { response_code: RULE } } } } });
    renderRoutes([{ path: '/', element: <ApiFormModal api={null} onClose={() => {}} onDone={() => {}} /> }], '/');
    await fillRequired('{"a":1}');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(RULE)).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Error! Check the form');
  });
});
