// The From / To form of an export request, checked by the spec's date rules before it is sent.
import { Field } from '@/components/ui/field';
import { useZodForm } from '@/lib/form';
import { exportRangeSchema, isoDay } from '../api/request-export';

type Props = {
  idPrefix: string;
  from?: string;
  to?: string;
  submitLabel: string;
  pending: boolean;
  /** Server-side field errors of the last attempt. */
  serverErrors?: Record<string, string>;
  onSubmit: (range: { from: string; to: string }) => void;
};

export function ExportRangeForm({ idPrefix, from, to, submitLabel, pending, serverErrors, onSubmit }: Props) {
  const form = useZodForm(exportRangeSchema(), { from: from ?? isoDay(-30), to: to ?? isoDay(0) });
  const errors = { from: form.errors.from ?? serverErrors?.from, to: form.errors.to ?? serverErrors?.to };
  return (
    <form className="form export-range-form" noValidate onSubmit={form.handleSubmit(onSubmit)}>
      <div className="form-row">
        <Field label="From" htmlFor={`${idPrefix}-from`} error={errors.from}>
          <input id={`${idPrefix}-from`} type="date" max={isoDay(0)} {...form.text('from')} aria-invalid={!!errors.from} />
        </Field>
        <Field label="To" htmlFor={`${idPrefix}-to`} error={errors.to}>
          <input id={`${idPrefix}-to`} type="date" max={isoDay(1)} {...form.text('to')} aria-invalid={!!errors.to} />
        </Field>
      </div>
      <div className="button-row">
        <button type="submit" className="btn btn-primary" disabled={pending}>
          {pending ? 'Wait...' : submitLabel}
        </button>
      </div>
    </form>
  );
}
