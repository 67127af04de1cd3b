import { screen } from '@testing-library/react';
import { mockApi, renderRoutes } from '@/testing/test-utils';
import { PolicyText } from './policy-text';

describe('PolicyText', () => {
  it("shows the site's policy as its title and paragraphs", async () => {
    const calls = mockApi({
      'GET /public/policies/terms': { status: 200, body: { title: 'Terms and conditions', paragraphs: ['Alpha terms', '<b>not markup</b>'], source: 'partner' } },
    });
    renderRoutes([{ path: '/', element: <PolicyText kind="terms" /> }], '/');
    expect(await screen.findByRole('heading', { name: 'Terms and conditions' })).toBeInTheDocument();
    expect(screen.getByText('Alpha terms')).toBeInTheDocument();
    expect(screen.getByText('<b>not markup</b>')).toBeInTheDocument();
    expect(calls[0].url).toBe('/api/v1/public/policies/terms');
  });
});
