// The Filter panel of the console's lists (spec part 2: My Transactions, Whitelist IP, IP
// Hits): its fields, Apply and Clear. The URL holds the applied filter; the inputs follow it.
import { useState } from 'react';
import type { FilterField } from '@/lib/url-filter';
import { Field } from './field';

type Props<K extends string> = {
  /** Names the panel for screen readers and prefixes the input ids. */
  name: string;
  fields: FilterField<K>[];
  value: Record<K, string>;
  onApply: (v: Record<K, string>) => void;
  onClear: () => void;
  /** Messages per field for values that cannot be applied; none means valid. */
  check?: (v: Record<K, string>) => Partial<Record<K, string>>;
};

export function FilterPanel<K extends string>({ name, fields, value, onApply, onClear, check }: Props<K>) {
  const [draft, setDraft] = useState(value);
  const [errors, setErrors] = useState<Partial<Record<K, string>>>({});
  // Back button or Clear: the inputs show what is applied (React's 'adjust state on a prop
  // change' pattern; `value` keeps its identity until a filter value changes).
  const [shown, setShown] = useState(value);
  if (shown !== value) {
    setShown(value);
    setDraft(value);
  }
  const id = (k: K) => `${name.toLowerCase().replace(/\W+/g, '-')}-${k}`;

  return (
    <form
      className="filter-panel"
      aria-label={name}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const found = check?.(draft) ?? {};
        setErrors(found);
        if (Object.values(found).some(Boolean)) return;
        onApply(draft);
      }}
    >
      <div className="filter-fields">
        {fields.map((f) => (
          <Field key={f.key} label={f.label} htmlFor={id(f.key)} error={errors[f.key]}>
            {f.options ? (
              <select id={id(f.key)} value={draft[f.key] ?? ''} onChange={(e) => setDraft((d) => ({ ...d, [f.key]: e.target.value }))}>
                <option value="">All</option>
                {f.options.map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </select>
            ) : (
              <input
                id={id(f.key)}
                type={f.type ?? 'text'}
                inputMode={f.numeric ? 'numeric' : undefined}
                value={draft[f.key] ?? ''}
                aria-invalid={!!errors[f.key]}
                onChange={(e) => setDraft((d) => ({ ...d, [f.key]: e.target.value }))}
              />
            )}
          </Field>
        ))}
      </div>
      <div className="button-row">
        <button
          type="button"
          className="btn btn-secondary"
          onClick={() => {
            setErrors({});
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
