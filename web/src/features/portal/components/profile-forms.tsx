// Profile: name, phone and address lines (the e-mail is the sign-in and stays), and the
// password change.
import { Alert, useTimedMessage } from '@/components/ui/alert';
import { Field } from '@/components/ui/field';
import { PasswordInput } from '@/components/ui/password-input';
import { ApiError, errorMessage } from '@/lib/api-client';
import { useZodForm } from '@/lib/form';
import {
  PASSWORD_GUIDANCE,
  passwordSchema,
  profileSchema,
  useChangePassword,
  useUpdateProfile,
} from '../api/account';
import type { Me } from '../api/types';

/** The server's field errors of the last attempt, beside the form's own. */
function serverFields(e: unknown): Record<string, string> {
  return e instanceof ApiError ? e.fields : {};
}

export function ProfileForm({ me }: { me: Me }) {
  const update = useUpdateProfile();
  const msg = useTimedMessage();
  const form = useZodForm(profileSchema, {
    first_name: me.first_name,
    last_name: me.last_name,
    phone_number: me.phone_number,
    address_line1: me.address_line1 ?? '',
    address_line2: me.address_line2 ?? '',
  });
  const server = serverFields(update.error);
  const err = (k: keyof typeof form.values) => form.errors[k] ?? server[k];

  return (
    <form
      className="panel form"
      noValidate
      aria-label="Profile"
      onSubmit={form.handleSubmit((data) =>
        update.mutate(data, {
          onSuccess: () => msg.success('Profile updated successfully'),
          onError: (e) => msg.error(errorMessage(e)),
        }),
      )}
    >
      <h2 className="panel-title">Profile</h2>
      <Alert message={msg.message} onClose={msg.clear} />
      <div className="form-row">
        <Field label="First name" htmlFor="profile-first" error={err('first_name')}>
          <input id="profile-first" type="text" autoComplete="given-name" {...form.text('first_name')} />
        </Field>
        <Field label="Last name" htmlFor="profile-last" error={err('last_name')}>
          <input id="profile-last" type="text" autoComplete="family-name" {...form.text('last_name')} />
        </Field>
      </div>
      <div className="form-row">
        <Field label="Email" htmlFor="profile-email" hint="Your sign-in; ask your provider to change it.">
          <input id="profile-email" type="email" value={me.email} readOnly />
        </Field>
        <Field label="Phone number" htmlFor="profile-phone" error={err('phone_number')}>
          <input id="profile-phone" type="tel" inputMode="numeric" autoComplete="tel" {...form.text('phone_number')} />
        </Field>
      </div>
      <Field label="Address line 1" htmlFor="profile-address1" error={err('address_line1')}>
        <input id="profile-address1" type="text" autoComplete="address-line1" {...form.text('address_line1')} />
      </Field>
      <Field label="Address line 2" htmlFor="profile-address2" error={err('address_line2')}>
        <input id="profile-address2" type="text" autoComplete="address-line2" {...form.text('address_line2')} />
      </Field>
      <div>
        <button type="submit" className="btn btn-primary" disabled={update.isPending}>
          {update.isPending ? 'Wait...' : 'Save'}
        </button>
      </div>
    </form>
  );
}

export function PasswordForm() {
  const change = useChangePassword();
  const msg = useTimedMessage();
  const form = useZodForm(passwordSchema, { current_password: '', new_password: '', confirm_new_password: '' });
  const server = serverFields(change.error);
  const err = (k: keyof typeof form.values) => form.errors[k] ?? server[k];

  return (
    <form
      className="panel form"
      noValidate
      aria-label="Change password"
      onSubmit={form.handleSubmit((data) =>
        change.mutate(data, {
          onSuccess: (r) => {
            msg.success(r.message || 'Password changed successfully');
            form.reset();
          },
          onError: (e) => {
            if (!(e instanceof ApiError && Object.keys(e.fields).length)) msg.error(errorMessage(e));
          },
        }),
      )}
    >
      <h2 className="panel-title">Change password</h2>
      <Alert message={msg.message} onClose={msg.clear} />
      <Field label="Current password" htmlFor="pw-current" error={err('current_password')}>
        <PasswordInput id="pw-current" autoComplete="current-password" {...form.text('current_password')} />
      </Field>
      <Field label="New password" htmlFor="pw-new" error={err('new_password')} hint={PASSWORD_GUIDANCE}>
        <PasswordInput id="pw-new" autoComplete="new-password" {...form.text('new_password')} />
      </Field>
      <Field label="Confirm password" htmlFor="pw-confirm" error={err('confirm_new_password')}>
        <PasswordInput id="pw-confirm" autoComplete="new-password" {...form.text('confirm_new_password')} />
      </Field>
      <div>
        <button type="submit" className="btn btn-primary" disabled={change.isPending}>
          {change.isPending ? 'Wait...' : 'Change password'}
        </button>
      </div>
    </form>
  );
}
