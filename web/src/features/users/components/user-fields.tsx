// What Add User Manually and Edit user share: the name, phone and e-mail fields under their
// rules, and the spec's validation messages that stay 10 s.
import { useEffect, type ChangeEvent } from 'react';
import { Field } from '@/components/ui/field';

export const VALIDATION_MS = 10_000;

type Identity = 'first_name' | 'last_name' | 'phone_number' | 'email';
type TextProps = { value: string; onChange: (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => void };

/** Clears the form's validation messages `VALIDATION_MS` after they appear. */
export function useMessagesFor10s(errors: Record<string, string | undefined>, setErrors: (e: Record<string, never>) => void) {
  const hasErrors = Object.values(errors).some(Boolean);
  useEffect(() => {
    if (!hasErrors) return;
    const t = setTimeout(() => setErrors({}), VALIDATION_MS);
    return () => clearTimeout(t);
  }, [errors, hasErrors, setErrors]);
}

/** First and last name, phone number and e-mail; `idPrefix` keeps two forms' ids apart. */
export function UserIdentityFields({
  idPrefix,
  text,
  errors,
}: {
  idPrefix: string;
  text: (key: Identity) => TextProps;
  errors: Partial<Record<Identity, string>>;
}) {
  return (
    <>
      <div className="form-row">
        <Field label="First name" htmlFor={`${idPrefix}-first`} error={errors.first_name}>
          <input id={`${idPrefix}-first`} type="text" autoComplete="off" {...text('first_name')} />
        </Field>
        <Field label="Last name" htmlFor={`${idPrefix}-last`} error={errors.last_name}>
          <input id={`${idPrefix}-last`} type="text" autoComplete="off" {...text('last_name')} />
        </Field>
      </div>
      <div className="form-row">
        <Field label="Phone number" htmlFor={`${idPrefix}-phone`} error={errors.phone_number}>
          <input id={`${idPrefix}-phone`} type="tel" inputMode="numeric" autoComplete="off" {...text('phone_number')} />
        </Field>
        <Field label="E-mail" htmlFor={`${idPrefix}-email`} error={errors.email}>
          <input id={`${idPrefix}-email`} type="email" autoComplete="off" {...text('email')} />
        </Field>
      </div>
    </>
  );
}
