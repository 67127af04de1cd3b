// The Clients filter panel: first name, last name, email, phone, user id; Apply and Clear.
import { useEffect } from 'react';
import { Field } from '@/components/ui/field';
import { useZodForm } from '@/lib/form';
import { clientFilterSchema, type ClientFilters } from '../api/get-clients';

type Props = { value: ClientFilters; onApply: (f: ClientFilters) => void; onClear: () => void };

const fields: [keyof ClientFilters, string][] = [
  ['first_name', 'First name'],
  ['last_name', 'Last name'],
  ['email', 'Email'],
  ['phone_number', 'Phone'],
  ['user_id', 'User Id'],
];

const EMPTY: ClientFilters = { first_name: '', last_name: '', email: '', phone_number: '', user_id: '' };

export function ClientsFilter({ value, onApply, onClear }: Props) {
  const form = useZodForm<typeof clientFilterSchema, ClientFilters>(clientFilterSchema, value);
  const { setValues } = form;
  // The URL is the truth (back button, Clear): the inputs follow it.
  useEffect(() => setValues(value), [value, setValues]);

  return (
    <form className="filter-panel" onSubmit={form.handleSubmit((d) => onApply(d))} noValidate aria-label="Filter clients">
      <div className="filter-fields">
        {fields.map(([key, label]) => (
          <Field key={key} label={label} htmlFor={`cf-${key}`} error={form.errors[key]}>
            <input id={`cf-${key}`} type="text" inputMode={key === 'user_id' ? 'numeric' : undefined} {...form.text(key)} />
          </Field>
        ))}
      </div>
      <div className="button-row">
        <button
          type="button"
          className="btn btn-secondary"
          onClick={() => {
            // Typed but not applied, the URL does not change: the inputs are emptied here.
            setValues(EMPTY);
            form.setErrors({});
            onClear();
          }}
        >
          Clear
        </button>
        <button type="submit" className="btn btn-primary">
          Apply
        </button>
      </div>
    </form>
  );
}
