import { validate } from '@/lib/form';
import { forgotPasswordSchema } from './forgot-password';
import { changePasswordSchema, PASSWORD_MISMATCH, setNewPasswordSchema } from './passwords';
import { signupSchema } from './signup';
import { superAdminLoginSchema } from './superadmin-login';

describe('form schemas', () => {
  it('signup requires all six fields', () => {
    const r = validate(signupSchema, { first_name: '', last_name: '', phone_number: '', email: '', user_name: '', password: '' });
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.errors).toEqual({
        first_name: 'First name is required',
        last_name: 'Last name is required',
        phone_number: 'Phone number is required',
        email: 'Email is required',
        user_name: 'User name is required',
        password: 'Password is required',
      });
  });

  it('forgot password lower-cases the email and requires the username', () => {
    const ok = validate(forgotPasswordSchema, { email: ' Asha@Example.COM ', user_name: 'acme' });
    expect(ok).toEqual({ ok: true, data: { email: 'asha@example.com', user_name: 'acme' } });
    const bad = validate(forgotPasswordSchema, { email: '', user_name: '' });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.errors).toEqual({ email: 'Email is required', user_name: 'Username is required' });
  });

  it('new and confirm passwords must match', () => {
    const r = validate(setNewPasswordSchema, { new_password: 'abcdefgh1', confirm_new_password: 'abcdefgh2' });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors.confirm_new_password).toBe('New Password and Confirm Password didnot match!');
    expect(PASSWORD_MISMATCH).toBe('New Password and Confirm Password didnot match!');
    const c = validate(changePasswordSchema, { current_password: 'x', new_password: 'a', confirm_new_password: 'b' });
    expect(c.ok).toBe(false);
    if (!c.ok) expect(c.errors.confirm_new_password).toBe(PASSWORD_MISMATCH);
  });

  it('super-admin login requires username, password and captcha', () => {
    const r = validate(superAdminLoginSchema, { email: '', password: '', captcha: '' });
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.errors).toEqual({ email: 'Username is required', password: 'Password is required', captcha: 'Captcha is required' });
  });
});
