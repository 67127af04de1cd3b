// My Account, Profile: the partner's own name, e-mail (its sign-in) and phone, all required;
// the user name is shown read-only. A taken e-mail shows on its field.
import { Alert, useTimedMessage } from '@/components/ui/alert';
import { Field } from '@/components/ui/field';
import { ApiError, errorMessage } from '@/lib/api-client';
import { useZodForm, type FieldErrors } from '@/lib/form';
import { profileSchema, useProfile, useSaveProfile, type Profile, type ProfileInput } from '../api/profile';

function Form({ saved, onSaved }: { saved: Profile; onSaved?: () => void }) {
  const form = useZodForm<typeof profileSchema, ProfileInput>(profileSchema, {
    first_name: saved.first_name,
    last_name: saved.last_name,
    email: saved.email,
    phone_number: saved.phone_number,
  });
  const save = useSaveProfile(onSaved);
  const msg = useTimedMessage();
  return (
    <form
      className="form"
      noValidate
      aria-label="Profile"
      onSubmit={form.handleSubmit((d) =>
        save.mutate(d, {
          onSuccess: (p) => {
            form.setValues({ first_name: p.first_name, last_name: p.last_name, email: p.email, phone_number: p.phone_number });
            msg.success('Profile saved');
          },
          onError: (e) => {
            if (e instanceof ApiError && Object.keys(e.fields).length) form.setErrors(e.fields as FieldErrors<ProfileInput>);
            else msg.error(errorMessage(e));
          },
        }),
      )}
    >
      <Alert message={msg.message} onClose={msg.clear} />
      <p className="muted">
        User name: <strong>{saved.user_name}</strong>
      </p>
      <div className="form-row">
        <Field label="First name" htmlFor="profile-first" error={form.errors.first_name}>
          <input id="profile-first" type="text" autoComplete="given-name" {...form.text('first_name')} />
        </Field>
        <Field label="Last name" htmlFor="profile-last" error={form.errors.last_name}>
          <input id="profile-last" type="text" autoComplete="family-name" {...form.text('last_name')} />
        </Field>
      </div>
      <div className="form-row">
        <Field label="Email" htmlFor="profile-email" error={form.errors.email} hint="You sign in with this address.">
          <input id="profile-email" type="email" autoComplete="email" {...form.text('email')} />
        </Field>
        <Field label="Phone number" htmlFor="profile-phone" error={form.errors.phone_number}>
          <input id="profile-phone" type="tel" inputMode="tel" autoComplete="tel" {...form.text('phone_number')} />
        </Field>
      </div>
      <div className="button-row">
        <button type="submit" className="btn btn-primary" disabled={save.isPending}>
          {save.isPending ? 'Wait...' : 'Save'}
        </button>
      </div>
    </form>
  );
}

export function ProfileForm({ onSaved }: { onSaved?: () => void }) {
  const q = useProfile();
  if (q.isError) return <Alert message={{ kind: 'error', text: errorMessage(q.error) }} />;
  if (!q.data) return <p className="muted">Loading...</p>;
  return <Form saved={q.data} onSaved={onSaved} />;
}
