// zod-backed form validation: the schema that checks the form is the one the
// mutation's payload comes from (style.md, bulletproof-react).
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
