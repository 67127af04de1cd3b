import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi, renderRoutes } from '@/testing/test-utils';
import { AddUserForm } from './add-user-form';

describe('AddUserForm', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("shows the spec's messages for names and phone, and hides them after 10 s", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const calls = mockApi({ 'POST /partner/users': { status: 201, body: { id: 1 } } });
    renderRoutes([{ path: '/', element: <AddUserForm /> }], '/');
    await user.type(screen.getByLabelText('First name'), 'Asha2');
    await user.type(screen.getByLabelText('Last name'), 'R@o');
    await user.type(screen.getByLabelText('Phone number'), '98765x');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(screen.getByText('No special character & numbers allowed in first name')).toBeInTheDocument();
    expect(screen.getByText('No special character & numbers allowed in last name')).toBeInTheDocument();
    expect(screen.getByText('No special character & alphabets allowed in phone number.')).toBeInTheDocument();
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    expect(calls.filter((c) => c.url.includes('/partner/users'))).toHaveLength(0);
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(screen.queryByText('Email is required')).not.toBeInTheDocument();
  });

  it('creates a Limited user by default, or a Full one, and opens the success modal', async () => {
    const calls = mockApi({ 'POST /partner/users': { status: 201, body: { id: 9 } } });
    renderRoutes([{ path: '/', element: <AddUserForm /> }], '/');
    expect(screen.getByRole('radio', { name: 'Limited' })).toBeChecked();
    await userEvent.type(screen.getByLabelText('First name'), 'Asha');
    await userEvent.type(screen.getByLabelText('Last name'), 'Rao');
    await userEvent.type(screen.getByLabelText('Phone number'), '9876543210');
    await userEvent.type(screen.getByLabelText('E-mail'), 'asha@example.in');
    await userEvent.type(screen.getByLabelText('Password', { selector: 'input' }), 'Secret-123');
    await userEvent.click(screen.getByRole('radio', { name: 'Full' }));
    await userEvent.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByText('Account created successfully')).toBeInTheDocument();
    expect(screen.getByText('Mail has been sent to user for confirmation')).toBeInTheDocument();
    const post = calls.find((c) => c.url.endsWith('/partner/users'));
    expect(JSON.parse(String(post?.init.body))).toEqual({
      first_name: 'Asha',
      last_name: 'Rao',
      phone_number: '9876543210',
      email: 'asha@example.in',
      password: 'Secret-123',
      full_access: true,
    });
  });

  it("shows the server's message for a refused user", async () => {
    mockApi({ 'POST /partner/users': { status: 409, body: { error: { code: 'conflict', message: 'This email is already registered', fields: { email: 'This email is already registered' } } } } });
    renderRoutes([{ path: '/', element: <AddUserForm /> }], '/');
    await userEvent.type(screen.getByLabelText('First name'), 'Asha');
    await userEvent.type(screen.getByLabelText('Last name'), 'Rao');
    await userEvent.type(screen.getByLabelText('Phone number'), '9876543210');
    await userEvent.type(screen.getByLabelText('E-mail'), 'asha@example.in');
    await userEvent.type(screen.getByLabelText('Password', { selector: 'input' }), 'Secret-123');
    await userEvent.click(screen.getByRole('button', { name: 'Create Account' }));
    expect((await screen.findAllByText('This email is already registered')).length).toBeGreaterThan(0);
    expect(screen.getByRole('alert')).toHaveTextContent('Error!');
  });
});
