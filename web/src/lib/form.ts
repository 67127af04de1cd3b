// zod-backed forms: the schema that checks the form is the one the mutation's
// payload comes from (style.md, bulletproof-react).
import { useCallback, useState, type ChangeEvent, type FormEvent } from 'react';
import type { z } from 'zod';

export type FieldErrors<T> = Partial<Record<keyof T & string, string>>;

export function validate<S extends z.ZodTypeAny>(
  schema: S,
  values: unknown,
): { ok: true; data: z.infer<S> } | { ok: false; errors: FieldErrors<z.input<S>> } {
  const r = schema.safeParse(values);
  if (r.success) return { ok: true, data: r.data };
  const errors: Record<string, string> = {};
  for (const issue of r.error.issues) {
    const key = String(issue.path[0] ?? '');
    if (!(key in errors)) errors[key] = issue.message;
  }
  return { ok: false, errors: errors as FieldErrors<z.input<S>> };
}

/**
 * Form state checked by a zod schema: the values, one message per field, and a
 * submit handler that only calls `onValid` with the parsed data.
 */
export function useZodForm<S extends z.ZodTypeAny, V extends Record<string, unknown>>(schema: S, initial: V) {
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrors] = useState<FieldErrors<V>>({});

  const setValue = useCallback(<K extends keyof V>(key: K, value: V[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
  }, []);

  /** value/onChange for a text input or textarea bound to `key`. */
  const text = (key: keyof V & string) => ({
    value: String(values[key] ?? ''),
    onChange: (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => setValue(key, e.target.value as V[typeof key]),
  });

  const handleSubmit = (onValid: (data: z.infer<S>) => void) => (e: FormEvent) => {
    e.preventDefault();
    const r = validate(schema, values);
    if (!r.ok) {
      setErrors(r.errors as FieldErrors<V>);
      return;
    }
    setErrors({});
    onValid(r.data);
  };

  const reset = () => {
    setValues(initial);
    setErrors({});
  };

  return { values, setValues, setValue, errors, setErrors, text, handleSubmit, reset };
}
