import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi, renderRoutes } from '@/testing/test-utils';
import { ApisList } from './apis-list';

const offers = [
  {
    service: 'pan_verification',
    name: 'PAN Verification',
    category: 'Identity',
    price_paise: 300,
    required_fields: ['pan_number'],
    sandbox: true,
    description: 'Checks a PAN against the tax records.',
    sample_response: { status: 'ok', name: 'ASHA RAO' },
  },
];

describe('ApisList', () => {
  it("opens an API's documentation: fields, test values, sample, errors and code samples on this site", async () => {
    mockApi({ 'GET /me/apis': { status: 200, body: offers } });
    renderRoutes([{ path: '/', element: <ApisList origin="https://demo.kyc.example" /> }], '/');
    await userEvent.click(await screen.findByRole('button', { name: 'Documentation of PAN Verification' }));
    const doc = screen.getByRole('dialog');
    expect(within(doc).getByText('Checks a PAN against the tax records.')).toBeInTheDocument();
    expect(within(doc).getByText('₹3.00')).toBeInTheDocument();
    expect(within(doc).getByText('<pan_number>')).toBeInTheDocument();
    expect(within(doc).getByText('TEST_NOT_FOUND')).toBeInTheDocument();
    expect(within(doc).getByText(/"name": "ASHA RAO"/)).toBeInTheDocument();
    expect(within(doc).getByText('insufficient_balance')).toBeInTheDocument();
    for (const title of ['curl', 'Python', 'JavaScript']) {
      const sample = within(doc).getByRole('region', { name: title });
      expect(sample).toHaveTextContent('https://demo.kyc.example/api/v1/verify/pan_verification');
      expect(within(sample).getByRole('button', { name: `Copy ${title}` })).toBeInTheDocument();
    }
  });
});
