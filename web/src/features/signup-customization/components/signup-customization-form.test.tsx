import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi, renderRoutes } from '@/testing/test-utils';
import { SignupCustomizationForm } from './signup-customization-form';

const saved = { forgot_password: true, terms: true, create_account: true, login_with_google: false, terms_html: '<p>Old terms</p>', copyright: '' };

describe('SignupCustomizationForm', () => {
  it('applies the switches only when Apply changes is pressed, with the terms as HTML', async () => {
    const calls = mockApi({
      'GET /partner/signup-customization': { status: 200, body: saved },
      'PUT /partner/signup-customization': (call) => ({ status: 200, body: JSON.parse(call.init.body!) }),
    });
    renderRoutes([{ path: '/', element: <SignupCustomizationForm /> }], '/');
    const google = await screen.findByRole('switch', { name: /Login with Google/ });
    expect(google).not.toBeChecked();
    expect(screen.getByRole('button', { name: 'Apply changes' })).toBeDisabled();
    await userEvent.click(google);
    await userEvent.click(screen.getByRole('switch', { name: /Forgot password/ }));
    expect(calls.filter((c) => c.init.method === 'PUT')).toHaveLength(0);
    expect(await screen.findByText('Old terms')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Copyright'), '© Acme');
    await userEvent.click(screen.getByRole('button', { name: 'Apply changes' }));
    expect(await screen.findByText('Changes applied')).toBeInTheDocument();
    const put = calls.filter((c) => c.init.method === 'PUT');
    expect(put).toHaveLength(1);
    expect(JSON.parse(put[0].init.body!)).toEqual({ ...saved, forgot_password: false, login_with_google: true, copyright: '© Acme' });
  });
});
