import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi, renderRoutes } from '@/testing/test-utils';
import { BatchVerification } from './batch';

const offers = [{ service: 'pan_check', name: 'PAN Check', category: 'Identity', price_paise: 300, required_fields: ['id_number'], sandbox: true }];
const batch = (over: Record<string, unknown>) => ({
  id: 7, service: 'pan_check', sandbox: false, file_name: 'people.csv', status: 'running', total_rows: 100, done_rows: 40,
  charged_rows: 39, failed_rows: 1, charged_paise: 11700, job_id: 'J1', error: null, created_at: '2026-11-24T10:00:00Z', finished_at: null, ...over,
});
const empty = { items: [], page: 1, per_page: 10, total: 0, pages: 1 };

const csv = (name = 'people.csv', text = 'id_number\nA1\n') => new File([text], name, { type: 'text/csv' });

describe('BatchVerification', () => {
  it('asks for an API and a CSV file before anything is sent', async () => {
    const calls = mockApi({ 'GET /me/apis': { status: 200, body: offers }, 'GET /me/batches': { status: 200, body: empty } });
    renderRoutes([{ path: '/', element: <BatchVerification /> }], '/');
    await screen.findByRole('option', { name: 'PAN Check (₹3.00)' });
    await userEvent.click(screen.getByRole('button', { name: 'Start batch' }));
    expect(screen.getByText('Please select an API')).toBeInTheDocument();
    expect(screen.getByText('Please select a CSV file')).toBeInTheDocument();
    await userEvent.selectOptions(screen.getByLabelText('API'), 'pan_check');
    expect(screen.getByTestId('batch-columns')).toHaveTextContent('id_number');
    await userEvent.upload(screen.getByLabelText('CSV file'), csv('people.txt'));
    await userEvent.click(screen.getByRole('button', { name: 'Start batch' }));
    expect(screen.getByText('Please select a CSV file')).toBeInTheDocument();
    expect(calls.filter((c) => c.init.method === 'POST')).toHaveLength(0);
    expect(await screen.findByText('No batches yet')).toBeInTheDocument();
  });

  it('uploads the file as the body and follows the batch until it ends', async () => {
    let polls = 0;
    const calls = mockApi({
      'GET /me/apis': { status: 200, body: offers },
      'GET /me/batches': { status: 200, body: empty },
      'POST /me/batches': { status: 202, body: batch({ status: 'queued', done_rows: 0, charged_rows: 0, failed_rows: 0, charged_paise: 0 }) },
      'GET /me/batches/:id': () => {
        polls += 1;
        return { status: 200, body: polls < 2 ? batch({}) : batch({ status: 'completed', done_rows: 100, charged_rows: 99, charged_paise: 29700 }) };
      },
    });
    renderRoutes([{ path: '/', element: <BatchVerification /> }], '/');
    await screen.findByRole('option', { name: 'PAN Check (₹3.00)' });
    await userEvent.selectOptions(screen.getByLabelText('API'), 'pan_check');
    await userEvent.selectOptions(screen.getByLabelText('Mode'), 'sandbox');
    await userEvent.upload(screen.getByLabelText('CSV file'), csv());
    await userEvent.click(screen.getByRole('button', { name: 'Start batch' }));
    const post = await waitFor(() => {
      const c = calls.find((x) => x.init.method === 'POST');
      expect(c).toBeDefined();
      return c!;
    });
    expect(post.url).toBe('/api/v1/me/batches?service=pan_check&mode=sandbox&file_name=people.csv');
    expect(post.init.body).toBe('id_number\nA1\n');
    expect(post.init.headers['content-type']).toBe('text/csv');
    await waitFor(() => expect(screen.getByTestId('batch-done')).toHaveTextContent('100 of 100'), { timeout: 5000 });
    expect(screen.getByTestId('batch-charged')).toHaveTextContent('99');
    expect(screen.getByTestId('batch-amount')).toHaveTextContent('₹297.00');
    expect(screen.getByRole('button', { name: 'Download result' })).toBeInTheDocument();
  });

  it("shows the api's refusal of the file on the file field", async () => {
    mockApi({
      'GET /me/apis': { status: 200, body: offers },
      'GET /me/batches': { status: 200, body: empty },
      'POST /me/batches': { status: 422, body: { error: { code: 'validation', message: 'The file has no column for: id_number', fields: { file: 'The file has no column for: id_number' } } } },
    });
    renderRoutes([{ path: '/', element: <BatchVerification /> }], '/');
    await screen.findByRole('option', { name: 'PAN Check (₹3.00)' });
    await userEvent.selectOptions(screen.getByLabelText('API'), 'pan_check');
    await userEvent.upload(screen.getByLabelText('CSV file'), csv('a.csv', 'name\nAsha\n'));
    await userEvent.click(screen.getByRole('button', { name: 'Start batch' }));
    expect(await screen.findByText('The file has no column for: id_number')).toBeInTheDocument();
  });
});
