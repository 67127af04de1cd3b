// My Account, Signup Customization: four switches of the end users' pages, the terms and a
// copyright line. Nothing is saved until 'Apply changes' (spec part 2, §2.7 and §4).
import { Alert, useTimedMessage } from '@/components/ui/alert';
import { Field } from '@/components/ui/field';
import { ApiError, errorMessage } from '@/lib/api-client';
import { useZodForm } from '@/lib/form';
import { signupCustomizationSchema, useApplySignupCustomization, useSignupCustomization, type SignupCustomization } from '../api/signup-customization';
import { TermsEditor } from './terms-editor';

type Switch = 'forgot_password' | 'terms' | 'create_account' | 'login_with_google';

const SWITCHES: [Switch, string, string][] = [
  ['forgot_password', 'Forgot password', 'Your users can reset a forgotten password from the sign-in page.'],
  ['terms', 'Terms', 'Your users accept your terms and conditions when they sign up.'],
  ['create_account', 'Create account', 'Your users can sign up on your site themselves.'],
  ['login_with_google', 'Login with Google', 'Your users can sign in with their Google account.'],
];

type Msg = ReturnType<typeof useTimedMessage>;

/** Started from what is stored; after Apply it starts again from what the server kept. */
function Form({ saved, msg }: { saved: SignupCustomization; msg: Msg }) {
  const form = useZodForm<typeof signupCustomizationSchema, SignupCustomization>(signupCustomizationSchema, saved);
  const apply = useApplySignupCustomization();
  const v = form.values;
  const changed = JSON.stringify(v) !== JSON.stringify(saved);
  return (
    <form
      className="form"
      noValidate
      aria-label="Signup Customization"
      onSubmit={form.handleSubmit((d) =>
        apply.mutate(d, {
          onSuccess: () => msg.success('Changes applied'),
          onError: (e) => {
            if (e instanceof ApiError && Object.keys(e.fields).length) form.setErrors(e.fields);
            else msg.error(errorMessage(e));
          },
        }),
      )}
    >
      <fieldset className="switches">
        <legend className="field-label">Sign-in and sign-up of your users</legend>
        {SWITCHES.map(([key, label, hint]) => (
          <label key={key} className="switch">
            <input type="checkbox" role="switch" checked={v[key]} onChange={(e) => form.setValue(key, e.target.checked)} aria-describedby={`signup-${key}-hint`} />
            <span className="switch-label">{label}</span>
            <span className="field-hint" id={`signup-${key}-hint`}>
              {hint}
            </span>
          </label>
        ))}
      </fieldset>
      <div className="field">
        <span className="field-label">Terms and conditions</span>
        <TermsEditor id="signup-terms" label="Terms and conditions" value={saved.terms_html} onChange={(html) => form.setValue('terms_html', html)} />
        {form.errors.terms_html && <span className="field-error">{form.errors.terms_html}</span>}
      </div>
      <Field label="Copyright" htmlFor="signup-copyright" error={form.errors.copyright}>
        <input id="signup-copyright" type="text" placeholder="© 2026 Your company" {...form.text('copyright')} />
      </Field>
      <div className="button-row">
        <button type="submit" className="btn btn-primary" disabled={apply.isPending || !changed}>
          {apply.isPending ? 'Wait...' : 'Apply changes'}
        </button>
      </div>
    </form>
  );
}

export function SignupCustomizationForm() {
  const q = useSignupCustomization();
  const msg = useTimedMessage();
  if (q.isError) return <Alert message={{ kind: 'error', text: errorMessage(q.error) }} />;
  if (!q.data) return <p className="muted">Loading...</p>;
  return (
    <>
      <Alert message={msg.message} onClose={msg.clear} />
      <Form key={JSON.stringify(q.data)} saved={q.data} msg={msg} />
    </>
  );
}
