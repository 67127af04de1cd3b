// My Account, Contact details: phone number, email and address, all required.
import { Alert, useTimedMessage } from '@/components/ui/alert';
import { Field } from '@/components/ui/field';
import { ApiError, errorMessage } from '@/lib/api-client';
import { useZodForm } from '@/lib/form';
import { contactSchema, useContactDetails, useSaveContactDetails, type ContactDetails } from '../api/contact-details';

function ContactForm({ saved }: { saved: ContactDetails | null }) {
  const form = useZodForm<typeof contactSchema, ContactDetails>(contactSchema, saved ?? { phone_number: '', email: '', address: '' });
  const save = useSaveContactDetails();
  const msg = useTimedMessage();
  return (
    <form
      className="form"
      noValidate
      aria-label="Contact details"
      onSubmit={form.handleSubmit((d) =>
        save.mutate(d, {
          onSuccess: () => msg.success('Contact details saved'),
          onError: (e) => {
            if (e instanceof ApiError && Object.keys(e.fields).length) form.setErrors(e.fields);
            else msg.error(errorMessage(e));
          },
        }),
      )}
    >
      <Alert message={msg.message} onClose={msg.clear} />
      <div className="form-row">
        <Field label="Phone number" htmlFor="contact-phone" error={form.errors.phone_number}>
          <input id="contact-phone" type="tel" inputMode="tel" {...form.text('phone_number')} />
        </Field>
        <Field label="Email" htmlFor="contact-email" error={form.errors.email}>
          <input id="contact-email" type="email" {...form.text('email')} />
        </Field>
      </div>
      <Field label="Address" htmlFor="contact-address" error={form.errors.address}>
        <textarea id="contact-address" rows={3} {...form.text('address')} />
      </Field>
      <div className="button-row">
        <button type="submit" className="btn btn-primary" disabled={save.isPending}>
          {save.isPending ? 'Wait...' : 'Save'}
        </button>
      </div>
    </form>
  );
}

export function ContactDetailsForm() {
  const q = useContactDetails();
  if (q.isError) return <Alert message={{ kind: 'error', text: errorMessage(q.error) }} />;
  if (q.isLoading) return <p className="muted">Loading...</p>;
  return <ContactForm saved={q.data ?? null} />;
}
