import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { portalSite } from '@/testing/portal';
import { mockApi, renderRoutes } from '@/testing/test-utils';
import { SignUpForm } from './sign-up-form';

const captcha = { 'GET /auth/captcha': { status: 200, body: { id: 'c1', image: 'data:image/png;base64,AA==' } } };

async function fill() {
  await userEvent.type(screen.getByLabelText('First name'), 'Meera');
  await userEvent.type(screen.getByLabelText('Last name'), 'Iyer');
  await userEvent.type(screen.getByLabelText('Email'), 'meera@example.in');
  await userEvent.type(screen.getByLabelText('Phone number'), '9876543210');
  await userEvent.type(screen.getByLabelText('Password'), 'Meera@123');
  await userEvent.type(screen.getByLabelText('Confirm password'), 'Meera@123');
  await userEvent.type(screen.getByLabelText('Captcha'), 'ABCDE');
}

describe('SignUpForm', () => {
  it("shows the partner's terms and wants them accepted", async () => {
    const sent = 'Thank you for signing up. We have sent you an email: open its link to verify your address and sign in.';
    const calls = mockApi({ ...captcha, 'POST /me/signup': { status: 202, body: { message: sent } } });
    renderRoutes([{ path: '/', element: <SignUpForm signup={portalSite.signup} /> }], '/');
    const terms = screen.getByRole('region', { name: 'Terms and conditions' });
    expect(within(terms).getByText('fair').tagName).toBe('B');
    await fill();
    await userEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(screen.getByText('Please accept the terms and conditions')).toBeInTheDocument();
    expect(calls.filter((c) => c.init.method === 'POST')).toHaveLength(0);

    await userEvent.click(screen.getByRole('checkbox', { name: 'I agree to the Terms and Conditions' }));
    await userEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
    // No session: the address is verified by the mailed link first.
    expect(await screen.findByText(sent)).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Sign up' })).not.toBeInTheDocument();
    const body = JSON.parse(calls.find((c) => c.init.method === 'POST')!.init.body!);
    expect(body).toMatchObject({ email: 'meera@example.in', accept_terms: true, captcha: { id: 'c1', answer: 'ABCDE' } });
  });

  it("needs no terms when the partner shows none, and shows the server's field errors", async () => {
    mockApi({
      ...captcha,
      'POST /me/signup': {
        status: 422,
        body: { error: { code: 'validation_failed', message: 'Email must be an email address', fields: { email: 'Email must be an email address' } } },
      },
    });
    renderRoutes([{ path: '/', element: <SignUpForm signup={{ ...portalSite.signup, terms: false }} /> }], '/');
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
    await fill();
    await userEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect((await screen.findAllByText('Email must be an email address')).length).toBeGreaterThan(0);
  });

  it('checks names, phone and the password rule', async () => {
    mockApi(captcha);
    renderRoutes([{ path: '/', element: <SignUpForm signup={portalSite.signup} /> }], '/');
    await userEvent.type(screen.getByLabelText('First name'), 'M3');
    await userEvent.type(screen.getByLabelText('Phone number'), '123');
    await userEvent.type(screen.getByLabelText('Password'), 'password');
    await userEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(screen.getByText('No special character & numbers allowed in first name')).toBeInTheDocument();
    expect(screen.getByText('Last name is required')).toBeInTheDocument();
    expect(screen.getByText('Phone number must have 6 to 15 digits')).toBeInTheDocument();
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    expect(screen.getAllByText(/at least 8 characters/).length).toBeGreaterThan(1);
  });
});

describe('SignUpForm without terms text', () => {
  it('links to the terms page when the partner wrote none', () => {
    mockApi(captcha);
    renderRoutes([{ path: '/', element: <SignUpForm signup={{ ...portalSite.signup, terms_html: '' }} /> }], '/');
    expect(screen.getByRole('link', { name: 'Read the Terms and Conditions' })).toHaveAttribute('href', '/terms-and-conditions');
  });
});
