import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi, renderRoutes } from '@/testing/test-utils';
import { ContactForm } from './contact-form';

const render = () => renderRoutes([{ path: '/', element: <ContactForm /> }], '/');

async function fill() {
  await userEvent.type(screen.getByLabelText('Name'), 'Asha');
  await userEvent.type(screen.getByLabelText('Email'), 'asha@example.com');
  await userEvent.type(screen.getByLabelText('Phone'), '98765432101234');
  await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
}

describe('ContactForm', () => {

  it('requires name, email and phone but not the message', async () => {
    render();
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(screen.getByText('Name is required')).toBeInTheDocument();
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Phone is required')).toBeInTheDocument();
    expect(screen.queryByText(/message is/i)).toBeNull();
  });

  it('keeps the phone to 10 characters and posts the form', async () => {
    const calls = mockApi({ 'POST /public/contact': { status: 202 } });
    render();
    await fill();
    expect(await screen.findByText('Success')).toBeInTheDocument();
    expect(JSON.parse(String(calls[0].init.body))).toEqual({ name: 'Asha', email: 'asha@example.com', mobile: '9876543210', message: '' });
    expect(calls[0].url).toBe('/api/v1/public/contact');
  });

  it("says 'Something went wrong, Try again.' when the call fails", async () => {
    mockApi({ 'POST /public/contact': { status: 502 } });
    render();
    await fill();
    expect(await screen.findByText('Something went wrong, Try again.')).toBeInTheDocument();
  });
});
