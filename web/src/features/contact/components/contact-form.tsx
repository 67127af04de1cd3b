import { useMutation } from '@tanstack/react-query';
import { Alert, useTimedMessage } from '@/components/ui/alert';
import { Field } from '@/components/ui/field';
import { ApiError } from '@/lib/api-client';
import { useZodForm } from '@/lib/form';
import { CONTACT_FAILED, contactSchema, sendContact } from '../api/send-contact';

export function ContactForm() {
  const form = useZodForm(contactSchema, { name: '', email: '', mobile: '', message: '' });
  const msg = useTimedMessage();
  const mutation = useMutation({ mutationFn: sendContact });

  const submit = form.handleSubmit((data) =>
    mutation.mutate(data, {
      onSuccess: () => {
        form.reset();
        msg.success('Thank you for contacting us. We will get back to you soon.');
      },
      onError: (err) => {
        // A validation answer explains itself; anything else gets the spec's sentence.
        const own = err instanceof ApiError && err.status >= 400 && err.status < 500 && err.status !== 429;
        msg.error(own ? err.message : CONTACT_FAILED);
      },
    }),
  );

  return (
    <form className="form contact-form" onSubmit={submit} noValidate aria-label="Contact us">
      <Alert message={msg.message} onClose={msg.clear} />
      <div className="form-row">
        <Field label="Name" htmlFor="ct-name" error={form.errors.name}>
          <input id="ct-name" type="text" autoComplete="name" {...form.text('name')} />
        </Field>
        <Field label="Email" htmlFor="ct-email" error={form.errors.email}>
          <input id="ct-email" type="email" autoComplete="email" {...form.text('email')} />
        </Field>
      </div>
      <Field label="Phone" htmlFor="ct-phone" error={form.errors.mobile}>
        <input id="ct-phone" type="tel" autoComplete="tel" maxLength={10} {...form.text('mobile')} />
      </Field>
      <Field label="Message" htmlFor="ct-message" error={form.errors.message}>
        <textarea id="ct-message" rows={4} {...form.text('message')} />
      </Field>
      <div>
        <button type="submit" className="btn btn-primary" disabled={mutation.isPending}>
          {mutation.isPending ? 'Wait...' : 'Submit'}
        </button>
      </div>
    </form>
  );
}
