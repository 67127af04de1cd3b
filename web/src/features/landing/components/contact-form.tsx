import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Alert, useTimedMessage } from '@/components/ui/alert';
import { Field } from '@/components/ui/field';
import { ApiError } from '@/lib/api-client';
import { validate, type FieldErrors } from '@/lib/form';
import { CONTACT_FAILED, contactSchema, sendContact, type ContactInput } from '../api/contact';

const empty = { name: '', email: '', mobile: '', message: '' };

export function ContactForm() {
  const [values, setValues] = useState(empty);
  const [errors, setErrors] = useState<FieldErrors<ContactInput>>({});
  const msg = useTimedMessage();
  const mutation = useMutation({ mutationFn: sendContact });

  const set = (key: keyof typeof empty) => (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
    setValues((v) => ({ ...v, [key]: e.target.value }));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const r = validate(contactSchema, values);
    if (!r.ok) return setErrors(r.errors);
    setErrors({});
    mutation.mutate(r.data, {
      onSuccess: () => {
        setValues(empty);
        msg.success('Thank you for contacting us. We will get back to you soon.');
      },
      onError: (err) => {
        // A validation answer explains itself; anything else gets the spec's sentence.
        const own = err instanceof ApiError && err.status >= 400 && err.status < 500 && err.status !== 429;
        msg.error(own ? err.message : CONTACT_FAILED);
      },
    });
  };

  return (
    <form className="form contact-form" onSubmit={submit} noValidate aria-label="Contact us">
      <Alert message={msg.message} onClose={msg.clear} />
      <div className="form-row">
        <Field label="Name" htmlFor="ct-name" error={errors.name}>
          <input id="ct-name" type="text" autoComplete="name" value={values.name} onChange={set('name')} />
        </Field>
        <Field label="Email" htmlFor="ct-email" error={errors.email}>
          <input id="ct-email" type="email" autoComplete="email" value={values.email} onChange={set('email')} />
        </Field>
      </div>
      <Field label="Phone" htmlFor="ct-phone" error={errors.mobile}>
        <input id="ct-phone" type="tel" autoComplete="tel" maxLength={10} value={values.mobile} onChange={set('mobile')} />
      </Field>
      <Field label="Message" htmlFor="ct-message" error={errors.message}>
        <textarea id="ct-message" rows={4} value={values.message} onChange={set('message')} />
      </Field>
      <div>
        <button type="submit" className="btn btn-primary" disabled={mutation.isPending}>
          {mutation.isPending ? 'Wait...' : 'Submit'}
        </button>
      </div>
    </form>
  );
}
